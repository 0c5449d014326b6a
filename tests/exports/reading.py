"""Read exports back: PDF text per page (pdfplumber), a page rendered to PNG for people."""

from __future__ import annotations

import io
from pathlib import Path

import pdfplumber

from binokel_tournament.exports import ExportFile

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"


def _data(result: ExportFile | bytes) -> bytes:
    return result if isinstance(result, bytes) else result.content


def pdf_pages(result: ExportFile | bytes) -> list[str]:
    """The text of every page."""
    with pdfplumber.open(io.BytesIO(_data(result))) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def pdf_page_sizes(result: ExportFile | bytes) -> list[tuple[float, float]]:
    with pdfplumber.open(io.BytesIO(_data(result))) as pdf:
        return [(float(p.width), float(p.height)) for p in pdf.pages]


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def column_text(result: ExportFile | bytes, page: int, x0: float, x1: float) -> str:
    """The text of a vertical strip of a page (for two-column layouts), x in points."""
    with pdfplumber.open(io.BytesIO(_data(result))) as pdf:
        p = pdf.pages[page]
        return p.crop((x0, 0, x1, p.height)).extract_text() or ""


def render_png(result: ExportFile | bytes, name: str, page: int = 0) -> Path:
    """Render one page to ``test-artifacts/<name>.png`` so that a person can look at it."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    with pdfplumber.open(io.BytesIO(_data(result))) as pdf:
        pdf.pages[page].to_image(resolution=110).save(path)
    return path


def assert_fits_a4(result: ExportFile | bytes, landscape: bool, margin: float = 18) -> None:
    """Every page is A4 in the given orientation, has text, and no character comes closer
    than ``margin`` points to the paper's edge (so nothing is cut off by a printer)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.pagesizes import landscape as turn

    width, height = turn(A4) if landscape else A4
    with pdfplumber.open(io.BytesIO(_data(result))) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            assert abs(float(page.width) - width) < 1 and abs(float(page.height) - height) < 1
            assert page.chars, f"page {number} is empty"
            assert min(c["x0"] for c in page.chars) >= margin, number
            assert max(c["x1"] for c in page.chars) <= width - margin, number
            assert min(c["top"] for c in page.chars) >= margin, number
            assert max(c["bottom"] for c in page.chars) <= height - margin, number
