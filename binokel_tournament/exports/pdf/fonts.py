"""TrueType fonts for the PDFs, so that every name prints — umlauts, ß, –, and the letters of
names from further away than Latin-1 reaches. The first family found is used: Liberation (the
Debian/Ubuntu default, metric-compatible with Arial), DejaVu, and reportlab's own Bitstream
Vera, which ships with reportlab and is therefore always there."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

SYSTEM_FONTS = Path("/usr/share/fonts/truetype")
REPORTLAB_FONTS = Path(reportlab.__file__).resolve().parent / "fonts"

LIBERATION = SYSTEM_FONTS / "liberation"
DEJAVU = SYSTEM_FONTS / "dejavu"

# (family, regular, bold) — tried in order, separately for sans and serif
SANS_CANDIDATES = (
    (
        "Liberation Sans",
        LIBERATION / "LiberationSans-Regular.ttf",
        LIBERATION / "LiberationSans-Bold.ttf",
    ),
    ("DejaVu Sans", DEJAVU / "DejaVuSans.ttf", DEJAVU / "DejaVuSans-Bold.ttf"),
    ("Bitstream Vera", REPORTLAB_FONTS / "Vera.ttf", REPORTLAB_FONTS / "VeraBd.ttf"),
)
SERIF_CANDIDATES = (
    (
        "Liberation Serif",
        LIBERATION / "LiberationSerif-Regular.ttf",
        LIBERATION / "LiberationSerif-Bold.ttf",
    ),
    ("DejaVu Serif", DEJAVU / "DejaVuSerif.ttf", DEJAVU / "DejaVuSerif-Bold.ttf"),
)


@dataclass(frozen=True)
class Fonts:
    family: str
    regular: str
    bold: str
    serif: str
    serif_bold: str


def _register(name: str, path: Path) -> str:
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    return name


def _first(candidates: tuple[tuple[str, Path, Path], ...]) -> tuple[str, Path, Path] | None:
    for family, regular, bold in candidates:
        if regular.is_file() and bold.is_file():
            return family, regular, bold
    return None


@functools.cache
def fonts() -> Fonts:
    """Register the fonts once per process and return their reportlab names."""
    sans = _first(SANS_CANDIDATES)
    assert sans is not None, "reportlab ships Vera.ttf; it must be there"
    family, regular, bold = sans
    sans_regular = _register("Binokel-Sans", regular)
    sans_bold = _register("Binokel-Sans-Bold", bold)
    serif = _first(SERIF_CANDIDATES)
    if serif is None:
        return Fonts(family, sans_regular, sans_bold, sans_regular, sans_bold)
    return Fonts(
        family,
        sans_regular,
        sans_bold,
        _register("Binokel-Serif", serif[1]),
        _register("Binokel-Serif-Bold", serif[2]),
    )


def covers(font_name: str, text: str) -> bool:
    """Whether the registered TrueType font has a glyph for every character of ``text``."""
    face = pdfmetrics.getFont(font_name).face
    return all(ord(ch) in face.charToGlyph for ch in text if not ch.isspace())
