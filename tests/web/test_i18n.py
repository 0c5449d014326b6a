"""German at the desk, English available: every string of the app has its English text."""

from __future__ import annotations

import re

from django.conf import settings

CATALOGUE = settings.BASE_DIR / "binokel_tournament" / "locale" / "en" / "LC_MESSAGES"


def entries() -> list[str]:
    text = (CATALOGUE / "django.po").read_text(encoding="utf-8")
    return [e for e in text.split("\n\n")[1:] if "msgid" in e and not e.startswith("#~")]


def test_every_message_has_an_english_translation():
    untranslated = [
        e for e in entries() if re.search(r'msgstr(\[\d\])? ""\s*$', e) or "#, fuzzy" in e
    ]
    assert untranslated == []


def test_the_compiled_catalogue_matches_its_source():
    """django.mo is committed (no gettext tools needed to run the app): it must say what
    django.po says."""
    import gettext
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "compile_messages", settings.BASE_DIR / "scripts" / "compile_engine_messages.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    source = module.parse_po((CATALOGUE / "django.po").read_text(encoding="utf-8"))
    with open(CATALOGUE / "django.mo", "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    catalog = compiled._catalog  # type: ignore[attr-defined]
    for msgid, msgstr in source.items():
        if not msgid or b"\x00" in msgid:
            continue  # header, plural forms
        assert catalog.get(msgid.decode()) == msgstr.decode(), msgid.decode()


def test_placeholders_survive_translation():
    for entry in entries():
        msgid = "".join(re.findall(r'^msgid(?:_plural)? "(.*)"$|^"(.*)"$', entry, flags=re.M)[0])
        ids = set(re.findall(r"%\((\w+)\)s", entry.split("msgstr")[0]))
        strs = set(re.findall(r"%\((\w+)\)s", "msgstr".join(entry.split("msgstr")[1:])))
        assert strs <= ids, (msgid, ids, strs)


def test_every_translated_call_is_one_makemessages_finds():
    """makemessages extracts ``_``, ``gettext``, ``gettext_lazy``, ``ngettext``…; a call under
    another name (``gettext_lazy as _lazy``) never reaches the catalogue and stays German."""
    known = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "npgettext"}
    alias = re.compile(r"from django\.utils\.translation import (.+)")
    found = []
    for path in (settings.BASE_DIR / "binokel_tournament").rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            match = alias.match(line.strip())
            if not match:
                continue
            for name in match.group(1).strip("()").split(","):
                parts = name.split(" as ")
                if len(parts) == 2 and parts[1].strip() not in known:
                    found.append(f"{path.name}: {name.strip()}")
    assert found == []


def test_the_english_dashboard_offers_english_downloads(client, db):
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from binokel_tournament.services.demo import create_demo

    t, _created = create_demo(singles=6, pairs=0, scored_rounds=0)
    client.force_login(get_user_model().objects.get(username="orga"))
    client.cookies["django_language"] = "en"
    html = client.get(reverse("desk:dashboard", args=[t.slug])).content.decode()
    assert "Seating plan (PDF)" in html and "Standings and games (Excel)" in html
    assert "Tischplan (PDF)" not in html and "Spendenzettel (PDF)" not in html
