"""The round an export is taken for (``--round N``, ``?round=N``): only 1 ≤ N ≤ the
tournament's rounds; "Endstand" only when every round has results and every sheet is
confirmed; the subtitle, the file name and the games sheet follow the checked round."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from openpyxl import load_workbook

from binokel_tournament.exports import PDF_EXPORTERS, CsvExporter, ExportError, ExportOptions
from binokel_tournament.exports import RankingsWorkbookExporter as Workbook
from binokel_tournament.exports.pdf import StandingsExporter
from binokel_tournament.models import Mode, ScoreSheet, SheetStatus, Table
from binokel_tournament.services.demo import ensure_users
from binokel_tournament.services.evening.simulation import simulate_round
from binokel_tournament.services.sheets.writer import save_sheet

from .reading import lines, pdf_pages

# slow: every PDF of every round rendered (make check leaves it out)
pytestmark = [pytest.mark.slow, pytest.mark.django_db]

OUTSIDE = [-2, 0, 4, 99, 10**30]


def play(tournament, number: int, confirm: bool = True) -> None:
    simulate_round(
        tournament.round_set.get(number=number), ensure_users(), seed=number, confirm=confirm
    )


def confirm_round(tournament, number: int) -> None:
    user = ensure_users()
    for sheet in ScoreSheet.objects.filter(
        table__round__tournament=tournament, table__round__number=number
    ):
        save_sheet(sheet.table, sheet.entries, user, sheet.version, confirm=True)


@pytest.mark.parametrize("number", OUTSIDE)
@pytest.mark.parametrize("kind", sorted(PDF_EXPORTERS))
def test_every_pdf_refuses_a_round_the_tournament_does_not_have(demo, kind, number):
    with pytest.raises(ExportError, match=f"Durchgang {number} gibt es nicht") as error:
        PDF_EXPORTERS[kind](demo).render(ExportOptions(round_number=number))
    assert "Durchgänge 1 bis 3" in error.value.message


@pytest.mark.parametrize("number", OUTSIDE)
def test_the_workbook_and_the_csv_refuse_a_round_the_tournament_does_not_have(demo, number):
    with pytest.raises(ExportError, match=f"Durchgang {number} gibt es nicht"):
        Workbook(demo).render(ExportOptions(round_number=number))
    for table in CsvExporter.TABLES:
        with pytest.raises(ExportError, match=f"Durchgang {number} gibt es nicht"):
            CsvExporter(demo, table).render(ExportOptions(round_number=number))


def test_a_tournament_of_one_round_says_so(demo):
    demo.rounds = 1
    demo.save()
    with pytest.raises(ExportError, match="nur einen Durchgang"):
        StandingsExporter(demo).render(ExportOptions(round_number=2))


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("export_pdf", ["standings", "--round", "-2"]),
        ("export_pdf", ["certificates", "--round", "0"]),
        ("export_xlsx", ["--round", "99"]),
    ],
)
def test_the_commands_refuse_such_a_round_and_write_nothing(demo, tmp_path, command, args):
    out = tmp_path / "out.bin"
    with pytest.raises(CommandError, match="gibt es nicht"):
        call_command(command, *args, "--out", str(out), stdout=io.StringIO())
    assert not out.exists()


def test_a_round_in_range_without_tables_is_still_its_own_message(demo):
    Table.objects.filter(round__tournament=demo, round__number=3).delete()
    with pytest.raises(ExportError, match="Für den 3. Durchgang gibt es noch keine Tische"):
        PDF_EXPORTERS["scoresheets"](demo).render(ExportOptions(round_number=3))


def test_standings_after_a_round_not_yet_played_are_provisional_not_final(demo):
    result = StandingsExporter(demo).render(ExportOptions(round_number=3, mode=Mode.SINGLES))
    assert result.filename == f"{demo.slug}-rangliste-d3-singles.pdf"
    text = pdf_pages(result)[0]
    assert "Endstand" not in text
    assert lines(text)[:2] == ["Rangliste Einzelwertung", "Vorläufiger Stand nach dem 3. Durchgang"]
    assert "4 von 12 Spielzetteln bestätigt" in text  # 4 Einzel tables per round
    # rounds without any confirmed sheet print a dash, not a column of zeros
    rows = [line for line in lines(text) if line.startswith(("1. ", "2. ", "3. "))]
    assert rows and all(" – – " in row for row in rows), rows


def test_endstand_once_every_round_is_confirmed(demo):
    play(demo, 2)
    play(demo, 3, confirm=False)  # typed in, not yet confirmed
    text = pdf_pages(StandingsExporter(demo).render(ExportOptions(mode=Mode.PAIRS)))[0]
    # without a round: after the last round with a confirmed sheet
    assert lines(text)[1] == "Stand nach dem 2. Durchgang"
    text = pdf_pages(StandingsExporter(demo).render(ExportOptions(round_number=3)))[0]
    assert lines(text)[1] == "Vorläufiger Stand nach dem 3. Durchgang"
    confirm_round(demo, 3)  # the desk confirms what was typed
    pages = pdf_pages(StandingsExporter(demo).render())
    assert [lines(p)[1] for p in pages] == ["Endstand nach 3 Durchgängen"] * 2
    assert "bestätigt" not in pages[0]


def test_a_partly_confirmed_round_is_provisional(demo):
    play(demo, 2, confirm=False)
    table = Table.objects.get(round__tournament=demo, round__number=2, number=1)
    ScoreSheet.objects.filter(table=table).update(status=SheetStatus.CONFIRMED)
    text = pdf_pages(StandingsExporter(demo).render(ExportOptions(mode=Mode.SINGLES)))[0]
    assert lines(text)[1] == "Vorläufiger Stand nach dem 2. Durchgang"
    assert "5 von 8 Spielzetteln bestätigt" in text


def test_the_workbook_after_a_round_has_only_the_games_up_to_it(demo, tmp_path):
    play(demo, 2)
    out = tmp_path / "rangliste.xlsx"
    stdout = io.StringIO()
    call_command("export_xlsx", "--round", "1", "--out", str(out), stdout=stdout)
    assert f"{demo.slug}-rangliste-nach-d1.xlsx" in stdout.getvalue()
    wb = load_workbook(out)
    assert [c.value for c in wb["Einzel"][1]][4:6] == ["1. Durchgang", "Gesamt"]
    rounds = {row[1] for row in wb["Spiele"].iter_rows(min_row=2, values_only=True)}
    assert rounds == {1}
    everything = load_workbook(io.BytesIO(Workbook(demo).render().content))
    assert {row[1] for row in everything["Spiele"].iter_rows(min_row=2, values_only=True)} == {1, 2}
    csv_text = CsvExporter(demo, "spiele").render(ExportOptions(round_number=1)).content.decode()
    assert {line.split(";")[1] for line in csv_text.splitlines()[1:]} == {"1"}


@pytest.mark.parametrize("value", ["²", "٣", "1.5", "-1", "1e3", "9" * 40, "9" * 5000, " 1"])
def test_the_desk_refuses_a_malformed_round_with_a_message(desk_client, demo, value):
    for key, extra in (
        ("standings", {}),
        ("scoresheets", {}),
        ("workbook", {}),
        ("csv", {"table": "spiele"}),
    ):
        url = reverse("desk:export", args=[demo.slug, key])
        response = desk_client.get(url, {"round": value, **extra}, follow=True)
        assert response.status_code == 200, (url, value)
        assert response.redirect_chain[-1][0] == reverse("desk:dashboard", args=[demo.slug])
        assert "keine Nummer eines Durchgangs" in response.content.decode(), (url, value)


def test_the_desk_refuses_a_round_out_of_range_and_a_malformed_top(desk_client, demo):
    url = reverse("desk:export", args=[demo.slug, "standings"])
    response = desk_client.get(url, {"round": "4"}, follow=True)
    assert "Durchgang 4 gibt es nicht" in response.content.decode()
    url = reverse("desk:export", args=[demo.slug, "certificates"])
    response = desk_client.get(url, {"top": "²"}, follow=True)
    assert response.redirect_chain and response.status_code == 200
    response = desk_client.get(url, {"top": "2", "mode": "pairs"})
    assert len(pdf_pages(response.content)) == 2
