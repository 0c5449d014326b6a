"""Issue 36: the Protokoll in words, not a developer log. Every action the code logs has a
wording (found by reading the code: a new action without one fails here); each entry reads
"Durchgang 1 · Tisch 16 · bestätigten Zettel korrigiert · Spiel 7: Reizwert: 200 → 210";
the page filters by kind, table and entrant."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.urls import reverse

import binokel_tournament
from binokel_tournament.models import AuditLog, Entrant, ScoreSheet, TableKind
from binokel_tournament.services.audit_words import KINDS, WORDINGS, Context, word
from binokel_tournament.services.money.prizes import add_prize
from binokel_tournament.services.rounds.writer import RoundChange

from .sheets import full_three_table

PACKAGE = Path(binokel_tournament.__file__).parent
LOGGERS = {"log_action": 2, "audit_entry": 2, "log_login_event": 0}  # name -> action argument
# where the action is the caller's parameter, passed on
PASSED_ON = {("services/audit.py", "action"), ("signals.py", "action")}


def _returns(tree: ast.Module, function: str) -> set[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return {  # "a" or `"a" if … else "b"`
                c.value
                for r in ast.walk(node)
                if isinstance(r, ast.Return) and r.value is not None
                for c in ast.walk(r.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            }
    raise AssertionError(f"no function {function}")


def _constant(tree: ast.Module, name: str) -> str | None:
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    return None


def logged_actions() -> set[str]:
    """Every action string the code passes to the audit log."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        where = str(path.relative_to(PACKAGE))
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name not in LOGGERS:
                continue
            arg = next((k.value for k in node.keywords if k.arg == "action"), None)
            if arg is None and len(node.args) > LOGGERS[name]:
                arg = node.args[LOGGERS[name]]
            assert arg is not None, f"{where}:{node.lineno}: no action"
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(arg.value)
            elif isinstance(arg, ast.Name) and _constant(tree, arg.id) is not None:
                found.add(_constant(tree, arg.id))  # type: ignore[arg-type]
            elif isinstance(arg, ast.Name) and (where, arg.id) in PASSED_ON:
                continue
            elif isinstance(arg, ast.Call) and getattr(arg.func, "id", "") == "_action":
                found |= _returns(tree, "_action")
            elif isinstance(arg, ast.JoinedStr) and ast.unparse(arg) == "f'round.{change.value}'":
                found |= {f"round.{c.value}" for c in RoundChange}
            else:
                raise AssertionError(f"{where}:{node.lineno}: an action this test cannot read")
    return found


def test_every_action_the_code_logs_has_a_wording_and_every_wording_an_action():
    actions = logged_actions()
    assert len(actions) > 50  # the sheet writer's, the rounds', every service's
    assert sorted(actions - set(WORDINGS)) == []
    assert sorted(set(WORDINGS) - actions) == []
    assert {w.kind for w in WORDINGS.values()} == set(KINDS)


@pytest.mark.parametrize("action", sorted(logged_actions()))
def test_no_action_falls_back_to_the_raw_form(action):
    objects = {"sheet": "ScoreSheet", "round": "Round", "entrant": "Entrant", "prize": "Prize"}
    entry = AuditLog(
        action=action,
        object_type=objects.get(action.split(".")[0], "Tournament"),
        object_id="16",
        before={"fee_paid": False, "description": "Grablicht"},
        after={"fee_paid": True, "description": "Grablicht", "kind": "tablecards", "round": 2},
    )
    worded = word(entry, Context())
    assert worded.known and worded.what and action not in worded.what
    text = " ".join([worded.where, worded.what, *worded.lines])
    for raw in (action, "ScoreSheet", "Tournament 16", "{'", "fee_paid", "_cents"):
        assert raw not in text


def test_the_protokoll_reads_in_words_and_filters_by_kind_table_and_entrant(
    desk_client, seated, orga
):
    from binokel_tournament.services.sheets.writer import save_sheet

    tables = list(seated.round_set.get(number=1).tables.filter(kind=TableKind.THREE))
    table, other = tables[0], tables[1]
    save_sheet(table, full_three_table(), orga, expected_version=0, confirm=True)
    save_sheet(table, {**full_three_table(), "g7-bid": "210"}, orga, expected_version=1)
    save_sheet(other, full_three_table(), orga, expected_version=0)
    add_prize(seated.competitions.get(mode="singles"), orga, "Grablicht", 500, "laterne")
    url = reverse("desk:audit", args=[seated.slug])
    page = desk_client.get(url).content.decode()
    assert f"Durchgang 1 · Tisch {table.number}" in page
    assert "bestätigten Zettel korrigiert" in page and "Spiel 7: Reizwert: 200 → 210" in page
    assert "Preis hinzugefügt" in page and "Wert: 5,00\u00a0€" in page and "Rote Laterne" in page
    assert "angemeldet" in page and "Spielplan erstellt" in page
    for raw in ("{&#x27;", "ScoreSheet ", "sheet.correct<", "prize.add<", "value_cents"):
        assert raw not in page

    def actions(params):
        html = desk_client.get(url, params).content.decode()
        return [cell.split('"')[0] for cell in html.split('data-action="')[1:]]

    sheets = actions({"art": "zettel"})
    assert sheets and all(a.startswith("sheet.") for a in sheets)
    assert all(a.startswith("prize.") for a in actions({"art": "geld"}))
    assert actions({"art": "unsinn"}) == actions({})  # an unknown kind filters nothing
    at_table = actions({"tisch": str(table.number), "durchgang": "1"})
    sheet = ScoreSheet.objects.get(table=table)
    assert (
        len(at_table)
        == AuditLog.objects.filter(object_id=str(sheet.pk), object_type="ScoreSheet").count()
        == 2
    )
    seat = table.seats.order_by("position").first()
    entrant = Entrant.objects.get(pk=seat.entrant_id)
    own = actions({"teilnehmer": str(entrant.start_number)})
    assert sorted(own) == ["entrant.register", "sheet.confirm", "sheet.correct"]
    by_name = actions({"teilnehmer": entrant.name[:6].lower(), "art": "teilnehmer"})
    assert "entrant.register" in by_name and not {a for a in by_name if a.startswith("sheet.")}
    for odd in ({"tisch": "²"}, {"durchgang": "9" * 30}, {"teilnehmer": "%' OR 1=1 --"}):
        assert desk_client.get(url, odd).status_code == 200
