"""The house rules that keep the writers and the layers where DESIGN.md puts them:

- a score sheet, its games and their points are written in one file (the sheet's writer), and
  a round's state in one (the rounds' writer) -- a restore from a backup aside;
- the folders inside ``services/`` do not import each other both ways (imports inside functions
  included), so each domain sits on the ones below it.

Read from the source text and its syntax tree, as anyone can check with grep."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
APP = REPO / "binokel_tournament"
SERVICES = APP / "services"
SHEET_WRITER = SERVICES / "sheets" / "writer.py"
ROUND_WRITER = SERVICES / "rounds" / "writer.py"
RESTORE = SERVICES / "server" / "backup" / "restore.py"


def sources() -> list[Path]:
    return [p for p in APP.rglob("*.py") if "migrations" not in p.parts]


SHEET_WRITES = re.compile(
    r"\b(ScoreSheet|Game|PartyResult)\s*\("  # a new row
    r"|\b(ScoreSheet|Game|PartyResult)\.objects\b[^\n]*\.(create|bulk_create|update|delete|"
    r"get_or_create|update_or_create)\("
    r"|\bsheet\.(save|delete)\(|\bsheet\.(status|entries|version|paper|decisions)\s*=(?!=)"
)
ROUND_WRITES = re.compile(
    r"\b(round_obj|fresh|r|round_one|table\.round)\.(locked|started_at|finished_at)\s*=(?!=)"
    r"|\bRound\.objects\b[^\n]*\.update\(|\blocked\s*=\s*(True|False)\b[^\n]*\.update"
)


def writers(pattern: re.Pattern[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sources():
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            code = line.split("#", 1)[0]
            if pattern.search(code) and not code.lstrip().startswith(("class ", "def ")):
                found.setdefault(str(path.relative_to(REPO)), []).append(f"{number}: {line}")
    return found


def test_score_sheets_games_and_points_are_written_by_the_one_writer_only():
    found = writers(SHEET_WRITES)
    allowed = {str(SHEET_WRITER.relative_to(REPO)), str(RESTORE.relative_to(REPO))}
    assert set(found) <= allowed, {k: v for k, v in found.items() if k not in allowed}
    assert str(SHEET_WRITER.relative_to(REPO)) in found  # the pattern does find the writer


def test_a_rounds_state_is_written_by_the_rounds_writer_only():
    found = writers(ROUND_WRITES)
    allowed = {str(ROUND_WRITER.relative_to(REPO))}
    assert set(found) <= allowed, {k: v for k, v in found.items() if k not in allowed}
    assert str(ROUND_WRITER.relative_to(REPO)) in found


def folder_of(path: Path) -> str | None:
    """The domain folder of ``services/`` a file belongs to (None: a ground module)."""
    parts = path.relative_to(SERVICES).parts
    return parts[0] if len(parts) > 1 else None


def imported_folders(path: Path) -> set[str]:
    """The services folders a file imports, wherever in the file (functions included)."""
    tree = ast.parse(path.read_text())
    package = path.parent.relative_to(APP.parent).parts
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = (*base, *(node.module.split(".") if node.module else ()))
            else:
                module = tuple((node.module or "").split("."))
            names = [(*module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [tuple(alias.name.split(".")) for alias in node.names]
        else:
            continue
        for name in names:
            inside = name[:2] == ("binokel_tournament", "services") and len(name) > 2
            if inside and (SERVICES / name[2]).is_dir():
                out.add(name[2])
    return out


def test_the_service_folders_do_not_import_each_other_both_ways():
    edges: dict[str, set[str]] = {}
    for path in SERVICES.rglob("*.py"):
        folder = folder_of(path)
        if folder is None:
            continue
        edges.setdefault(folder, set()).update(imported_folders(path) - {folder})
    assert {"sheets", "rounds", "evening", "money", "server"} <= set(edges)
    both_ways = sorted(
        (a, b)
        for a, targets in edges.items()
        for b in targets
        if a in edges.get(b, set()) and a < b
    )
    assert not both_ways, both_ways

    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(
            nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt}))
            for nxt in edges.get(start, ())
        )

    circles = sorted(folder for folder in edges if reaches(folder, folder))
    assert not circles, (circles, edges)
