"""Read exports back: PDF text per page (pdfplumber), a page rendered to PNG for people."""

from __future__ import annotations

import io
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pdfplumber

from binokel_tournament.exports import ExportFile

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"


def _data(result: ExportFile | bytes) -> bytes:
    return result if isinstance(result, bytes) else result.content


class ReadPdf:
    """A PDF parsed once: pdfplumber's pages, each page's text and words kept after their
    first use. ``read`` hands out the same reader for the same bytes, so a PDF rendered once
    for a module is parsed once, however many tests look at it."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pdf = pdfplumber.open(io.BytesIO(data))
        self._texts: dict[int, str] = {}
        self._words: dict[int, list[dict[str, Any]]] = {}

    @property
    def pages(self) -> list[pdfplumber.page.Page]:
        return self.pdf.pages

    def text(self, page: int) -> str:
        if page not in self._texts:
            self._texts[page] = self.pages[page].extract_text() or ""
        return self._texts[page]

    def texts(self) -> list[str]:
        return [self.text(i) for i in range(len(self.pages))]

    def words(self, page: int) -> list[dict[str, Any]]:
        """The words of a page with their font size."""
        if page not in self._words:
            self._words[page] = self.pages[page].extract_words(extra_attrs=["size"])
        return self._words[page]


_READ: OrderedDict[bytes, ReadPdf] = OrderedDict()


def read(result: ExportFile | bytes) -> ReadPdf:
    """The parsed PDF (the last few are kept: a test reading one PDF in several ways, or a
    module rendering it once for all its tests, parses it once)."""
    data = _data(result)
    if data in _READ:
        _READ.move_to_end(data)
        return _READ[data]
    reader = _READ[data] = ReadPdf(data)
    while len(_READ) > 8:
        _READ.popitem(last=False)[1].pdf.close()
    return reader


def pdf_pages(result: ExportFile | bytes) -> list[str]:
    """The text of every page."""
    return read(result).texts()


def pdf_page_sizes(result: ExportFile | bytes) -> list[tuple[float, float]]:
    return [(float(p.width), float(p.height)) for p in read(result).pages]


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def column_text(result: ExportFile | bytes, page: int, x0: float, x1: float) -> str:
    """The text of a vertical strip of a page (for two-column layouts), x in points."""
    p = read(result).pages[page]
    return p.crop((x0, 0, x1, p.height)).extract_text() or ""


def render_png(result: ExportFile | bytes, name: str, page: int = 0) -> Path:
    """Render one page to ``test-artifacts/<name>.png`` so that a person can look at it."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    read(result).pages[page].to_image(resolution=110).save(path)
    return path


def assert_fits_a4(result: ExportFile | bytes, landscape: bool, margin: float = 18) -> None:
    """Every page is A4 in the given orientation, has text, and no character comes closer
    than ``margin`` points to the paper's edge (so nothing is cut off by a printer)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.pagesizes import landscape as turn

    width, height = turn(A4) if landscape else A4
    for number, page in enumerate(read(result).pages, start=1):
        assert abs(float(page.width) - width) < 1 and abs(float(page.height) - height) < 1
        assert page.chars, f"page {number} is empty"
        assert min(c["x0"] for c in page.chars) >= margin, number
        assert max(c["x1"] for c in page.chars) <= width - margin, number
        assert min(c["top"] for c in page.chars) >= margin, number
        assert max(c["bottom"] for c in page.chars) <= height - margin, number
