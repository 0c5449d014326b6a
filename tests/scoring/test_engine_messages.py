"""Every engine message exists in German, and the compiled catalogue matches the .po file."""

from __future__ import annotations

import gettext
import importlib.util
import io
import string
from pathlib import Path

import pytest

from scoring import messages
from scoring.errors import LOCALE_DIR, translate

REPO = Path(__file__).resolve().parents[2]
PO = LOCALE_DIR / "de" / "LC_MESSAGES" / "engines.po"
MO = PO.with_suffix(".mo")

MSGIDS = {
    name: value
    for name, value in vars(messages).items()
    if name.isupper() and isinstance(value, str)
}


def _compiler():
    spec = importlib.util.spec_from_file_location(
        "compile_engine_messages", REPO / "scripts" / "compile_engine_messages.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def placeholders(text):
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("name", sorted(MSGIDS))
def test_message_has_a_german_translation_with_the_same_placeholders(name):
    msgid = MSGIDS[name]
    german = translate(msgid, "de")
    assert german != msgid
    assert placeholders(german) == placeholders(msgid)


def test_english_is_the_msgid_itself():
    assert translate(messages.BID_MISSING, "en") == "Enter the bid."
    assert translate(messages.BID_MISSING, "en-GB") == "Enter the bid."
    assert translate(messages.BID_MISSING, "de-DE") == "Bitte den Reizwert eintragen."


def test_compiled_catalogue_is_up_to_date_with_the_po_file():
    compiler = _compiler()
    fresh = compiler.compile_file(PO)
    assert MO.read_bytes() == fresh, "run: python scripts/compile_engine_messages.py"


def test_the_pure_python_compiler_reads_what_gettext_reads():
    compiler = _compiler()
    catalog = gettext.GNUTranslations(MO.open("rb"))
    parsed = compiler.parse_po(PO.read_text(encoding="utf-8"))
    for msgid in MSGIDS.values():
        assert parsed[msgid.encode()].decode() == catalog.gettext(msgid)


def test_po_parser_handles_continuations_contexts_plurals_and_fuzzy_entries():
    compiler = _compiler()
    po = "\n".join(
        [
            'msgid ""',
            'msgstr "Content-Type: text/plain; charset=UTF-8\\n"',
            "",
            "#: somewhere.py",
            'msgid "two "',
            '"lines"',
            'msgstr "zwei "',
            '"Zeilen"',
            "",
            'msgctxt "menu"',
            'msgid "Open"',
            'msgstr "Öffnen"',
            "",
            'msgid "one game"',
            'msgid_plural "{n} games"',
            'msgstr[0] "ein Spiel"',
            'msgstr[1] "{n} Spiele"',
            "",
            "#, fuzzy",
            'msgid "guess"',
            'msgstr "geraten"',
            "",
            'msgid "untranslated"',
            'msgstr ""',
        ]
    )
    parsed = compiler.parse_po(po)
    assert parsed[b"two lines"] == b"zwei Zeilen"
    assert parsed[b"menu\x04Open"] == "Öffnen".encode()
    assert parsed[b"one game\x00{n} games"] == b"ein Spiel\x00{n} Spiele"
    assert b"guess" not in parsed
    assert b"untranslated" not in parsed
    translations = gettext.GNUTranslations(io.BytesIO(compiler.make_mo(parsed)))
    assert translations.gettext("two lines") == "zwei Zeilen"
    assert translations.pgettext("menu", "Open") == "Öffnen"
    assert translations.ngettext("one game", "{n} games", 2) == "{n} Spiele"
