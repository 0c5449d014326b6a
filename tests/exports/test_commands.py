"""``manage.py export_pdf`` and ``export_xlsx``: the exact command-line contract."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook

from binokel_tournament.models import Mode, Table
from binokel_tournament.services.evening.registration import create_tournament

from .reading import lines, pdf_pages

# slow: every export written through the command line (make check leaves it out)
pytestmark = [pytest.mark.slow, pytest.mark.django_db]


@pytest.mark.parametrize(
    ("kind", "args", "first_line"),
    [
        ("seating", ["--round", "1"], "Tischplan – 1. Durchgang"),
        ("tablecards", ["--round", "2"], "Tisch 1"),
        ("scoresheets", ["--round", "1"], "Benefizbinokel Demo Tisch 1"),
        ("standings", ["--mode", "pairs"], "Rangliste Paarwertung"),
        ("certificates", ["--mode", "singles"], "Urkunde"),
    ],
)
def test_export_pdf_writes_the_file_without_naming_the_only_tournament(
    demo, tmp_path, kind, args, first_line
):
    out = tmp_path / f"{kind}.pdf"
    stdout = io.StringIO()
    call_command("export_pdf", kind, *args, "--out", str(out), stdout=stdout)
    assert str(out) in stdout.getvalue()
    pages = pdf_pages(out.read_bytes())
    assert first_line in lines(pages[0])[:2]


def test_export_pdf_with_a_tournament_slug_and_all_rounds(demo, tmp_path):
    create_tournament("Zweites Turnier")
    out = tmp_path / "karten.pdf"
    with pytest.raises(CommandError, match="--tournament"):
        call_command("export_pdf", "tablecards", "--out", str(out))
    call_command("export_pdf", "tablecards", "--tournament", demo.slug, "--out", str(out))
    assert len(pdf_pages(out.read_bytes())) == Table.objects.filter(round__tournament=demo).count()


def test_export_pdf_reports_a_round_without_tables(demo, tmp_path):
    with pytest.raises(CommandError, match="Durchgang 7 gibt es nicht"):
        call_command("export_pdf", "scoresheets", "--round", "7", "--out", str(tmp_path / "x.pdf"))
    assert not (tmp_path / "x.pdf").exists()


def test_export_pdf_refuses_an_unknown_kind(demo, tmp_path):
    with pytest.raises(CommandError):
        call_command("export_pdf", "menu", "--out", str(tmp_path / "x.pdf"))


def test_export_xlsx_writes_the_rankings_workbook(demo, tmp_path):
    out = tmp_path / "rangliste.xlsx"
    call_command("export_xlsx", "--out", str(out), stdout=io.StringIO())
    wb = load_workbook(out)
    assert wb.sheetnames == [
        "Einzel",
        "Paare",
        "Spiele",
        "Teilnehmer",
        "Spenden",
        "Kategorien",
        "Vereine",
        "Statistik",
    ]
    assert wb["Paare"].max_row == 1 + demo.entrants.filter(competition__mode=Mode.PAIRS).count()


@pytest.mark.parametrize(
    ("command", "args"),
    [("export_pdf", ["tablecards", "--round", "1"]), ("export_xlsx", [])],
)
def test_an_out_path_that_cannot_be_written_is_a_message_not_a_traceback(
    demo, tmp_path, command, args
):
    for out in (tmp_path / "fehlt" / "datei", tmp_path):  # no such folder; a folder
        with pytest.raises(CommandError, match="kann nicht geschrieben werden"):
            call_command(command, *args, "--out", str(out), stdout=io.StringIO())


def test_table_cards_of_only_some_tables_for_a_reprint(demo, tmp_path):
    out = tmp_path / "reprint.pdf"
    call_command(
        "export_pdf", "tablecards", "--round", "2", "--tables", "1,3", "--out", str(out),
        stdout=io.StringIO(), stderr=io.StringIO(),
    )  # fmt: skip
    pages = pdf_pages(out.read_bytes())
    assert len(pages) == 2 and "Tisch 1" in pages[0] and "Tisch 3" in pages[1]
