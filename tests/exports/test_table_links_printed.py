"""Every table's own link is printed as a QR code on its table card and its pre-filled score
sheet; the codes are read back from the rendered pages as a phone would (zbarimg), and left out
where a phone could not open them (a loopback address, table entry switched off)."""

from __future__ import annotations

import io
import shutil
import subprocess

import pdfplumber
import pytest
from django.urls import reverse

from binokel_tournament.exports import ExportOptions
from binokel_tournament.exports.pdf import ScoreSheetsExporter, TableCardsExporter
from tests.support import require

# slow: PDFs read back by zbarimg in a process of its own (make check leaves it out)
pytestmark = [pytest.mark.slow, pytest.mark.django_db]

LAN = "http://192.168.1.20:8000"


def codes_per_page(content: bytes, tmp_path, pages: int) -> list[list[str]]:
    """The QR codes zbarimg reads on the first ``pages`` pages (rendered at 200 dpi)."""
    zbarimg = shutil.which("zbarimg")
    require(zbarimg is not None, "zbarimg (Debian's zbar-tools) is not installed")
    found = []
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        for index, page in enumerate(pdf.pages[:pages]):
            image = tmp_path / f"page-{index}.png"
            page.to_image(resolution=200).save(image)
            run = subprocess.run(
                [zbarimg, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(image)],
                capture_output=True,
                text=True,
                check=False,
            )
            found.append(run.stdout.split())
    return found


def links(demo, count: int) -> list[str]:
    tables = demo.round_set.get(number=1).tables.order_by("number")[:count]
    return [LAN + reverse("table:page", args=[t.entry_token]) for t in tables]


def test_table_cards_carry_their_tables_link(demo, tmp_path):
    result = TableCardsExporter(demo).render(ExportOptions(round_number=1, base_url=LAN))
    assert codes_per_page(result.content, tmp_path, 2) == [[url] for url in links(demo, 2)]


def test_score_sheets_carry_their_tables_link(demo, tmp_path):
    result = ScoreSheetsExporter(demo).render(ExportOptions(round_number=1, base_url=LAN))
    assert codes_per_page(result.content, tmp_path, 2) == [[url] for url in links(demo, 2)]


def test_no_code_a_phone_could_not_open(demo, tmp_path):
    local = TableCardsExporter(demo).render(
        ExportOptions(round_number=1, base_url=LAN[:7] + "127.0.0.1:8000")
    )
    assert codes_per_page(local.content, tmp_path, 1) == [[]]
    demo.table_entry = False
    demo.save()
    off = ScoreSheetsExporter(demo).render(ExportOptions(round_number=1, base_url=LAN))
    assert codes_per_page(off.content, tmp_path, 1) == [[]]
