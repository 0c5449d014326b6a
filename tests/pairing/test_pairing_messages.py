"""Every message of the pairing engine has a German translation with the same placeholders."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "pairing"
CATALOGUE = REPO / "scoring" / "locale" / "de" / "LC_MESSAGES" / "engines.po"


def msgids():
    found = set()
    for path in PACKAGE.glob("*.py"):  # pairing's own msgids (scoring tests its own)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
                found.add(node.args[0].value)
    return found


def catalogue():
    text = CATALOGUE.read_text(encoding="utf-8")
    entries = {}
    for msgid, msgstr in re.findall(r'^msgid "(.*)"\nmsgstr "(.*)"$', text, flags=re.M):
        entries[msgid.replace('\\"', '"')] = msgstr.replace('\\"', '"')
    return entries


def test_every_message_is_translated():
    missing = msgids() - set(catalogue())
    assert not missing


def test_translations_keep_the_placeholders():
    for msgid, msgstr in catalogue().items():
        if not msgid:
            continue
        assert msgstr, msgid
        assert set(re.findall(r"{(\w+)}", msgid)) == set(re.findall(r"{(\w+)}", msgstr)), msgid


def test_the_compiled_catalogue_speaks_german_at_run_time():
    from pairing import Mode, PairingError, validate_entrant_count

    try:
        validate_entrant_count(5, Mode.SINGLES)
    except PairingError as exc:
        assert "außer Konkurrenz" in exc.errors[0].text("de")
        assert "außer Konkurrenz" in exc.errors[0].text("en")  # the term of art stays
        assert exc.errors[0].text("de") != exc.errors[0].text("en")
    else:
        raise AssertionError("5 entrants cannot be seated")


def test_the_substitute_hint_is_in_every_refusal():
    refusals = [m for m in msgids() if "cannot be seated" in m]
    assert len(refusals) == 5
    for msgid in refusals:
        assert "außer Konkurrenz" in catalogue()[msgid]


def test_no_message_leaves_singular_or_plural_to_the_reader():
    """ "pair(s)", "Ersatzpaar(e)": a message picks the right form (one msgid for each)."""
    for msgid in msgids():
        for text in (msgid, catalogue()[msgid]):
            assert not re.search(r"\w\((s|e|n|en)\)", text), text


def test_a_count_is_never_followed_by_the_wrong_number():
    from pairing import Mode, PairingError, validate_entrant_count

    for mode in Mode:
        for n in range(0, 4):
            try:
                validate_entrant_count(n, mode)
            except PairingError as exc:
                text = exc.errors[0].text("en")
                assert not re.search(r"\b1 (entrants|pairs|substitutes)\b", text), text
                assert not re.search(r"\b([02-9]|\d\d+) (entrant|pair|substitute)\b", text), text
