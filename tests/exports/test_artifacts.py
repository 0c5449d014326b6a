"""One page of every PDF rendered to PNG in ``test-artifacts/`` so that a person can look at
the layout; and the fonts print German text (umlauts, ß, the dash) and read back."""

from __future__ import annotations

import pytest
from PIL import Image

from binokel_tournament.exports import PDF_EXPORTERS, ExportOptions
from binokel_tournament.exports.pdf.fonts import covers, fonts
from binokel_tournament.models import Entrant, Mode

from .reading import pdf_pages, render_png

# slow: PDFs rendered to pictures and read back (make check leaves it out)
pytestmark = [pytest.mark.slow, pytest.mark.django_db]

GERMAN = "Äöü ß – Straßer Wößner Zügel Käthe"


def assert_looks_like_a_page(path, what: str, minimum: int = 800) -> None:
    with Image.open(path) as image:
        width, height = image.size
        assert min(width, height) > minimum
        # not a blank page: a good share of the pixels is ink
        dark = sum(image.convert("L").histogram()[:128])
        assert dark > 0.005 * width * height, what


def test_one_page_of_each_pdf_is_rendered_for_a_person_to_look_at(demo):
    # an address a phone can reach, so the seating plan shows its QR code
    options = ExportOptions(round_number=1, base_url="http://192.168.1.20:8000")
    for kind, exporter in PDF_EXPORTERS.items():
        result = exporter(demo).render(options)
        pages = {"scoresheets": [0, 3, 4], "seating": [0, 1, 2]}.get(kind, [0])
        for page in pages:
            path = render_png(result, f"export-{kind}-{page + 1}", page)
            # an A4 or A5 page; a slip is a strip of an 80 mm receipt roll
            assert_looks_like_a_page(path, kind, 300 if kind == "slips" else 800)


def test_the_pages_the_review_asked_about_are_rendered_too(demo):
    """A 4-table sheet of preisbinokel (20 games, on two pages) and standings after a round
    not yet played (provisional, dashes for the round)."""
    standings = PDF_EXPORTERS["standings"](demo).render(ExportOptions(round_number=3))
    assert_looks_like_a_page(render_png(standings, "export-standings-provisional"), "standings")
    demo.preset = "preisbinokel"
    demo.save()
    sheets = PDF_EXPORTERS["scoresheets"](demo).render(ExportOptions(round_number=1))
    for page in (3, 4):
        path = render_png(sheets, f"export-scoresheets-preisbinokel-{page + 1}", page)
        assert_looks_like_a_page(path, "preisbinokel")


def test_the_fonts_have_umlauts_sharp_s_and_the_dash():
    f = fonts()
    for name in (f.regular, f.bold, f.serif, f.serif_bold):
        assert covers(name, GERMAN), name


def test_german_names_print_and_read_back(demo):
    entrant = Entrant.objects.filter(competition__mode=Mode.SINGLES).order_by("start_number")[0]
    entrant.name = "Käthe Weißhaar–Schwöbel"
    entrant.save()
    kinds = ("seating", "tablecards", "scoresheets", "standings")
    for kind in kinds:
        result = PDF_EXPORTERS[kind](demo).render(ExportOptions(round_number=1))
        assert any("Käthe Weißhaar–Schwöbel" in page for page in pdf_pages(result)), kind
