"""The public-address and QR policy lives in one module (``services/public_links.py``): which
URL a printout's QR code points to, a table's link, and the codes themselves — drawn as
vectors in a PDF and as inline SVG on a page, from the same modules segno computes."""

from __future__ import annotations

import ast
import io
from pathlib import Path
from types import SimpleNamespace

import pdfplumber
import segno
from reportlab.graphics import renderPDF
from reportlab.pdfgen.canvas import Canvas

from binokel_tournament.services.server import public_links

APP = Path(public_links.__file__).resolve().parents[2]  # binokel_tournament/
LAN = "http://192.168.1.20:8000"
TABLE = SimpleNamespace(entry_token="abc12345")


def dark_runs(url: str) -> int:
    """Horizontal runs of dark modules, counted from segno's matrix here in the test."""
    runs = 0
    for row in segno.make(url, error="m").matrix:
        cells = [bool(m) for m in row]
        runs += sum(1 for i, dark in enumerate(cells) if dark and (i == 0 or not cells[i - 1]))
    return runs


def rects_on_pdf(draw) -> list[dict]:
    buffer = io.BytesIO()
    c = Canvas(buffer)
    draw(c)
    c.save()
    with pdfplumber.open(io.BytesIO(buffer.getvalue())) as pdf:
        return pdf.pages[0].rects


def test_only_the_policy_module_makes_qr_codes():
    importers = []
    for path in APP.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            if any(n.split(".")[0] == "segno" for n in names):
                importers.append(path.relative_to(APP).as_posix())
    assert importers == ["services/server/public_links.py"]


def test_a_printed_link_needs_an_address_a_phone_can_reach(settings):
    settings.PUBLIC_BASE_URL = "http://127.0.0.1:8000"
    assert public_links.printed_table_url(TABLE) is None
    assert public_links.printed_table_url(TABLE, "") is None
    assert public_links.printed_table_url(TABLE, LAN + "/") == f"{LAN}/tisch/abc12345/"
    settings.PUBLIC_BASE_URL = LAN
    assert public_links.printed_table_url(TABLE) == f"{LAN}/tisch/abc12345/"


def test_a_tables_link_for_the_desk_keeps_the_address_given(settings, rf):
    settings.PUBLIC_BASE_URL = "http://127.0.0.1:8000/"
    assert public_links.table_url(TABLE) == "http://127.0.0.1:8000/tisch/abc12345/"
    assert public_links.table_url(TABLE, LAN) == f"{LAN}/tisch/abc12345/"
    request = rf.get("/", HTTP_HOST="10.0.0.5:8000")
    settings.ALLOWED_HOSTS = ["*"]
    assert public_links.table_url(TABLE, request=request) == "http://10.0.0.5:8000/tisch/abc12345/"


def test_the_pdf_code_and_the_drawing_draw_every_dark_run():
    url = f"{LAN}/tisch/abc12345/"
    expected = dark_runs(url)
    on_canvas = rects_on_pdf(lambda c: public_links.draw_qr(c, 50, 50, 100, url))
    as_drawing = rects_on_pdf(
        lambda c: renderPDF.draw(public_links.qr_drawing(url, 100), c, 50, 50)
    )
    assert len(on_canvas) == len(as_drawing) == expected + 1  # + the white square
    assert expected > 100
    for rects in (on_canvas, as_drawing):
        assert max(r["x1"] for r in rects) - min(r["x0"] for r in rects) == 100


def test_the_page_code_is_inline_svg():
    svg = public_links.qr_svg(f"{LAN}/tisch/abc12345/")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert hasattr(svg, "__html__")  # safe to put in a template as it is
