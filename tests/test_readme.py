"""What the README promises can be checked, and is: every command and option it names exists
(``manage.py``, ``python -m scoring``, ``python -m pairing``, ``make``), every setting it names
is read by settings.py, every page address it names is one of the URL conf's, and the rule set
file its example writes is one ``score --rules`` reads. docs/architecture.md's list of commands
names every command of binokel_tournament/management/commands/."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class
from django.urls import Resolver404, resolve

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
ARCHITECTURE = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
COMMANDS = REPO / "binokel_tournament" / "management" / "commands"


def shell_lines(text: str) -> list[str]:
    """The command lines of the README: its ``sh`` blocks (comments cut off, continued lines
    joined) and the commands quoted inline in the prose."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        joined = re.sub(r"\\\n\s*", " ", block)
        lines += [line.split("  #")[0].strip() for line in joined.splitlines()]
    lines += re.findall(r"`([^`\n]*(?:manage\.py|python -m \w+|make) [^`\n]*)`", text)
    return [line for line in lines if line and not line.startswith("#")]


def invocations(tool: str) -> list[tuple[str, list[str]]]:
    """(command, its options) of every README line that runs ``tool`` (``manage.py``,
    ``-m scoring``, ``-m pairing``)."""
    out = []
    for line in shell_lines(README):
        for part in re.split(r"\s\|\s|;|\$\(|&&", line):
            if tool not in part:
                continue
            words = part.split(tool, 1)[1].split()
            if not words:
                continue
            options = [
                w.split("=")[0].strip("[]{}()") for w in words if w.lstrip("[").startswith("--")
            ]
            out.append((words[0].strip("{}"), options))
    return out


def test_the_readme_runs_commands_of_every_kind():
    assert len(invocations("manage.py")) >= 15
    assert len(invocations("-m scoring")) >= 5
    assert len(invocations("-m pairing")) >= 3


@cache
def manage_options(name: str) -> set[str]:
    app = get_commands()[name]
    parser = load_command_class(app, name).create_parser("manage.py", name)
    return set(parser._option_string_actions)


def test_every_manage_py_command_and_option_of_the_readme_exists():
    commands = get_commands()
    wrong = []
    for name, options in invocations("manage.py"):
        if name not in commands:
            wrong.append(name)
            continue
        wrong += [f"{name} {o}" for o in options if o not in manage_options(name)]
    assert wrong == []


@cache
def engine_help(module: str, sub: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", module, sub, "--help"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, (module, sub, done.stderr)
    return done.stdout


@pytest.mark.parametrize("module", ["scoring", "pairing"])
def test_every_engine_command_and_option_of_the_readme_exists(module):
    wrong = []
    for sub, options in invocations(f"-m {module}"):
        text = engine_help(module, sub)
        wrong += [f"{sub} {o}" for o in options if not re.search(rf"{re.escape(o)}\b", text)]
    assert wrong == []


def test_every_make_target_of_the_readme_exists():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, flags=re.M))
    named = {m for line in shell_lines(README) for m in re.findall(r"\bmake (\w[\w-]*)", line)}
    named |= set(re.findall(r"`make (\w[\w-]*)`", README))
    assert named and named <= targets, named - targets


def test_every_setting_the_readme_names_is_read_by_the_program():
    """The environment variables and settings the README names: read by settings.py (or, for
    the few of the tools, by the Makefile or the tests that name them)."""
    sources = [REPO / "binokel_tournament" / "settings.py", REPO / "Makefile"]
    sources += sorted((REPO / "tests").rglob("*.py"))
    code = "\n".join(p.read_text(encoding="utf-8") for p in sources if p.name != "test_readme.py")
    named = set(re.findall(r"`([A-Z][A-Z0-9_]{2,})(?:=[^`]*)?`", README))
    assert {"SECRET_KEY", "DATABASE_URL", "BACKUP_DIR", "CACHE_URL"} <= named
    missing = {name for name in named if not re.search(rf"\b{name}\b", code)}
    assert missing == set()


def test_every_page_address_of_the_readme_is_a_page():
    paths = set(re.findall(r"`(/[\w/<>.-]*/)`", README))
    assert len(paths) >= 5
    values = {"<slug>": "demo", "<mode>": "singles", "<token>": "abcdefgh12", "<n>": "1"}
    wrong = []
    for path in sorted(paths):
        concrete = re.sub(r"<\w+>", lambda m: values.get(m.group(0), "x"), path)
        try:
            resolve(concrete)
        except Resolver404:
            wrong.append(path)
    assert wrong == []


def test_the_rule_set_the_readme_writes_is_one_score_reads(tmp_path):
    line = next(
        line
        for line in shell_lines(README)
        if "-m scoring rules" in line and "> rules.json" in line
    )
    args = shlex.split(
        line.split("-m scoring", 1)[1].split(">")[0].replace("[", "").replace("]", "")
    )
    assert "--describe" not in args  # the description is text for reading, not a rule set
    written = subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    ).stdout
    (tmp_path / "rules.json").write_text(written, encoding="utf-8")
    game = json.dumps(
        {
            "kind": "played",
            "declarer": 0,
            "bid": 200,
            "parties": [
                {"meld": 60, "tricks": 150},
                {"meld": 20, "tricks": 50},
                {"meld": 0, "tricks": 40},
            ],
        }
    )

    def score(*rules: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "scoring", "score", *rules],
            input=game,
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )

    from_file = score("--rules", str(tmp_path / "rules.json"))
    assert from_file.returncode == 0, from_file.stdout
    preset = args[args.index("--preset") + 1]
    assert json.loads(from_file.stdout) == json.loads(score("--preset", preset).stdout)


def test_the_architecture_lists_every_command():
    row = next(
        line for line in ARCHITECTURE.splitlines() if line.startswith("| `management/commands/`")
    )
    listed = set(re.findall(r"`(\w+)`", row.split("|")[2]))
    present = {p.stem for p in COMMANDS.glob("*.py") if not p.stem.startswith("_")}
    assert listed == present
