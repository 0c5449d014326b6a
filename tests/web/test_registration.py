"""Registration: start numbers, pairs, import with bad rows listed, renumbering."""

from __future__ import annotations

import pytest

from binokel_tournament.models import AuditLog, Entrant, Mode
from binokel_tournament.services.errors import DeskError
from binokel_tournament.services.evening.registration import (
    NumberingScheme,
    create_tournament,
    import_entrants,
    read_table_file,
    register_entrant,
    renumber,
)
from binokel_tournament.services.evening.seating import generate_seating

pytestmark = pytest.mark.django_db


def test_start_numbers_follow_registration_across_competitions():
    t = create_tournament("T")
    s = t.competitions.get(mode=Mode.SINGLES)
    p = t.competitions.get(mode=Mode.PAIRS)
    a = register_entrant(s, "Anna Müller")
    b = register_entrant(p, "Bernd", "Christa")
    c = register_entrant(s, "Dieter")
    assert [a.start_number, b.start_number, c.start_number] == [1, 2, 3]
    assert AuditLog.objects.filter(action="entrant.register").count() == 3


def test_a_taken_start_number_is_refused_with_a_clear_message():
    t = create_tournament("T")
    s = t.competitions.get(mode=Mode.SINGLES)
    register_entrant(s, "Anna", start_number=7)
    with pytest.raises(DeskError) as err:
        register_entrant(s, "Bernd", start_number=7)
    assert "7" in err.value.message and "vergeben" in err.value.message
    assert Entrant.objects.count() == 1


def test_a_pair_needs_two_names_and_a_single_player_one():
    t = create_tournament("T")
    with pytest.raises(DeskError, match="zwei Namen"):
        register_entrant(t.competitions.get(mode=Mode.PAIRS), "Bernd")
    with pytest.raises(DeskError, match="nur ein Name"):
        register_entrant(t.competitions.get(mode=Mode.SINGLES), "Anna", "Otto")


def test_csv_import_keeps_good_rows_and_lists_bad_ones_with_the_reason():
    t = create_tournament("T")
    s = t.competitions.get(mode=Mode.SINGLES)
    data = (
        "Name;Verein;Startnummer\nAnna Häußler;CVJM;\n;CVJM;\n"
        "Bernd Schäfer;;x1\nChrista Dürr;EJ;40\n"
    )
    rows = read_table_file("liste.csv", data.encode("cp1252"))
    report = import_entrants(s, rows)
    numbers = {e.name: e.start_number for e in report.created}
    # rows that ask for a number come first, so the automatic numbers never take theirs
    assert numbers == {"Christa Dürr": 40, "Anna Häußler": 41}
    lines = dict(report.rejected)
    assert set(lines) == {3, 4}
    assert "Namen" in lines[3] and "Zahl" in lines[4]


def test_xlsx_import_uses_the_same_column_mapping(tmp_path):
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.append(["Spieler", "Partner", "Club"])
    ws.append(["Anna", "Bernd", "CVJM"])
    ws.append(["Dieter", None, None])
    path = tmp_path / "paare.xlsx"
    wb.save(path)
    t = create_tournament("T")
    report = import_entrants(
        t.competitions.get(mode=Mode.PAIRS), read_table_file("paare.xlsx", path.read_bytes())
    )
    assert [(e.name, e.partner, e.club) for e in report.created] == [("Anna", "Bernd", "CVJM")]
    assert report.rejected[0][0] == 3 and "zwei Namen" in report.rejected[0][1]


def test_an_import_asks_about_duplicates_before_storing_anything_and_names_every_column(client, db):
    """Issue 23: "Käthe Häußler, Binokelfreunde Esslingen", already no. 2, became no. 45
    without a word, and a "Kategorie" column was dropped silently."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from binokel_tournament.models import Entrant, Membership, Role

    orga = get_user_model().objects.create_user("orga", password="pw")
    t = create_tournament("T")
    Membership.objects.create(tournament=t, user=orga, role=Role.ORGANISER)
    s = t.competitions.get(mode=Mode.SINGLES)
    register_entrant(s, "Anton Maier")
    kaethe = register_entrant(s, "Käthe Häußler", club="Binokelfreunde Esslingen")
    data = (
        "Name;Verein;Kategorie;bezahlt;E-Mail;Lieblingskarte\n"
        "Kaethe Haeussler;Binokelfreunde Esslingen;Damen;ja;k@example.org;Schellen-Ober\n"
        "Erna Kästle;;Damen, Senioren;nein;;\n"
        "Erna Kaestle;;;;;\n"
        "Fritz Fink;EJ;Jugend;x;;\n"
    ).encode()
    client.force_login(orga)
    url = reverse("desk:entrants_import", args=[t.slug, "singles"])
    from django.core.files.uploadedfile import SimpleUploadedFile

    first = client.post(url, {"file": SimpleUploadedFile("liste.csv", data)})
    html = first.content.decode()
    assert 'id="import-duplicates"' in html
    assert 'data-line="2"' in html and f"Nr. {kaethe.start_number}" in html
    assert 'data-line="4"' in html and "wie Zeile 3" in html
    assert Entrant.objects.count() == 2  # nothing stored before the decision
    assert "Lieblingskarte (unbekannte Spalte)" in html
    assert "E-Mail (erkannt, wird aber nicht gespeichert)" in html
    decided = client.post(url, {"decide": "1", "d-2": "merge", "d-4": "skip"})
    html = decided.content.decode()
    assert 'id="import-result"' in html and "übersprungen (doppelt)" in html
    kaethe.refresh_from_db()
    assert kaethe.categories == ["damen"] and kaethe.fee_paid  # merged, not a second Käthe
    erna = Entrant.objects.get(name="Erna Kästle")
    assert erna.categories == ["damen", "senioren"] and not erna.fee_paid
    fritz = Entrant.objects.get(name="Fritz Fink")
    assert fritz.categories == ["jugend"] and fritz.fee_paid
    assert Entrant.objects.count() == 4
    # what is stored is what the audit says, in one step (no later change beside the log)
    for entrant in (erna, fritz):
        (entry,) = AuditLog.objects.filter(object_type="Entrant", object_id=str(entrant.pk))
        assert entry.action == "entrant.register"
        assert entry.after["fee_paid"] is entrant.fee_paid


def test_an_unknown_category_or_paid_value_refuses_that_row_with_the_reason():
    t = create_tournament("T")
    s = t.competitions.get(mode=Mode.SINGLES)
    rows = [["Name", "Kategorie", "bezahlt"], ["A", "Herren", ""], ["B", "", "vielleicht"]]
    report = import_entrants(s, rows)
    lines = dict(report.rejected)
    assert "Herren" in lines[2] and "vielleicht" in lines[3] and not report.created


def test_import_without_a_name_column_is_refused():
    with pytest.raises(DeskError, match="Name"):
        import_entrants(create_tournament("T").competitions.first(), [["Verein"], ["X"]])


def test_renumbering_with_clubs_split_interleaves_clubs():
    t = create_tournament("T")
    s = t.competitions.get(mode=Mode.SINGLES)
    for i in range(6):
        register_entrant(s, f"P{i}", club="A" if i < 4 else "B")
    renumber(t, NumberingScheme.CLUBS_SPLIT)
    clubs = [e.club for e in Entrant.objects.order_by("start_number")]
    assert clubs == ["A", "B", "A", "B", "A", "A"]
    assert sorted(Entrant.objects.values_list("start_number", flat=True)) == list(range(1, 7))


def test_random_renumbering_is_a_permutation_and_reproducible():
    t = create_tournament("T")
    s = t.competitions.get(mode=Mode.SINGLES)
    for i in range(12):
        register_entrant(s, f"P{i}")
    renumber(t, NumberingScheme.RANDOM, seed=3)
    first = list(Entrant.objects.order_by("name").values_list("start_number", flat=True))
    assert sorted(first) == list(range(1, 13)) and first != list(range(1, 13))
    renumber(t, NumberingScheme.REGISTRATION)
    renumber(t, NumberingScheme.RANDOM, seed=3)
    assert list(Entrant.objects.order_by("name").values_list("start_number", flat=True)) == first


def test_start_numbers_are_frozen_once_tables_are_drawn():
    t = create_tournament("T", modes=[Mode.SINGLES])
    s = t.competitions.get()
    for i in range(9):
        register_entrant(s, f"P{i}")
    generate_seating(s)
    with pytest.raises(DeskError):
        renumber(t, NumberingScheme.RANDOM)


def test_first_and_last_name_columns_are_joined():
    t = create_tournament("T")
    rows = [
        ["Vorname", "Nachname", "Vorname 2", "Nachname 2", "Verein"],
        ["Anna", "Häußler", "Bernd", "Schäfer", "CVJM"],
    ]
    report = import_entrants(t.competitions.get(mode=Mode.PAIRS), rows)
    assert [(e.name, e.partner, e.club) for e in report.created] == [
        ("Anna Häußler", "Bernd Schäfer", "CVJM")
    ]


def test_a_workbook_with_an_entrants_sheet_is_read_from_that_sheet(tmp_path):
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.title = "Einzel"
    wb.active.append(["Platz", "Name"])
    wb.active.append([1, "Falsch Gelesen"])
    entrants = wb.create_sheet("Teilnehmer")
    entrants.append(["Name", "Partner"])
    entrants.append(["Anna", "Bernd"])
    path = tmp_path / "rangliste.xlsx"
    wb.save(path)
    rows = read_table_file("rangliste.xlsx", path.read_bytes())
    assert rows[1][:2] == ["Anna", "Bernd"]


def test_the_settings_invariants_hold_in_the_service_whoever_calls_it(seated, orga):
    """Not only the form: the service itself refuses settings that break an invariant, and
    changes nothing then."""
    from binokel_tournament.services.evening.registration import SettingsRefused, update_settings
    from binokel_tournament.services.sheets.writer import save_sheet

    from .sheets import full_three_table

    table = seated.round_set.get(number=1).tables.filter(kind="three").first()
    save_sheet(table, full_three_table(), orga, expected_version=0)
    cases = [
        ({"rounds": 2}, {}, ["singles", "pairs"], "rounds"),  # fewer than the plan's three
        ({"rounds": 3}, {"min_bid": 250}, ["singles", "pairs"], ""),  # sheets exist
        ({"rounds": 3}, {}, ["singles"], "competitions"),  # the pairs have entrants
        ({"rounds": 9}, {}, ["singles", "pairs"], "rounds"),
    ]
    for fields, rules, modes, field in cases:
        before = (seated.rounds, dict(seated.rules_json), seated.competitions.count())
        with pytest.raises(SettingsRefused) as refused:
            update_settings(seated, orga, fields, rules, modes)
        assert field in [p.field for p in refused.value.problems]
        seated.refresh_from_db()
        assert (seated.rounds, dict(seated.rules_json), seated.competitions.count()) == before


def test_the_quick_form_answers_the_script_without_a_page_and_the_plain_post_still_works(
    desk_client, tournament
):
    """Issue 36: register.js sends the quick form in the background (header X-Quick-Add) and
    gets the messages and the list back; a refusal names its reasons; without the script the
    form posts and the page reloads as before."""
    from django.urls import reverse

    url = reverse("desk:entrants", args=[tournament.slug, "singles"])
    quick = {"HTTP_X_QUICK_ADD": "1"}
    answer = desk_client.post(url, {"name": "Emil Eßer", "club": "SV"}, **quick)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    data = answer.json()
    entrant = Entrant.objects.get(name="Emil Eßer")
    assert data["ok"] and data["start_number"] == entrant.start_number
    assert [m["text"] for m in data["messages"]] == [
        f"Emil Eßer hat die Startnummer {entrant.start_number}."
    ]
    assert (
        "Emil Eßer" in data["rows"]
        and data["rows"].count("<tr")
        == tournament.competitions.get(mode=Mode.SINGLES).entrants.count()
    )
    # the message went with the answer: the next page does not show it again
    assert "hat die Startnummer" not in desk_client.get(url).content.decode()
    refused = desk_client.post(url, {"name": "X" * 121}, **quick)
    assert refused.status_code == 400 and not refused.json()["ok"]
    assert refused.json()["errors"] and refused.json()["errors"][0].startswith("Name:")
    plain = desk_client.post(url, {"name": "Gottlieb Weißhaar"})
    assert plain.status_code == 302 and Entrant.objects.filter(name="Gottlieb Weißhaar").exists()
