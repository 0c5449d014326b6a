"""The one user-facing error type of the engines, with field-addressed, translatable messages.

Messages are English msgids with ``{name}`` placeholders; the German text comes from the gettext
catalogue ``scoring/locale/de/LC_MESSAGES/engines.po`` (compiled ``.mo`` committed beside it), read
with the standard library so the engines stay free of Django. ``pairing`` uses the same type.
Broken invariants (bugs) are *not* reported this way: they raise ordinary exceptions and stay loud.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "engines"
DEFAULT_LANGUAGE = "de"


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang], fallback=True)


def translate(msgid: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """Translate an engine msgid into ``lang`` ("de" or "en"; English is the msgid itself)."""
    base = lang.split("-")[0].split("_")[0].lower()
    if base == "en":
        return msgid
    return _translations(base).gettext(msgid)


def N_(msgid: str) -> str:
    """Mark a msgid for extraction; it is translated when the error is shown."""
    return msgid


@dataclass(frozen=True)
class FieldError:
    """One problem with one field of the input, e.g. ``parties[1].tricks``."""

    field: str
    msgid: str
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, field_name: str, msgid: str, **params: object) -> FieldError:
        return cls(field_name, msgid, tuple(sorted(params.items())))

    def text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return translate(self.msgid, lang).format(**dict(self.params))

    def as_dict(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
        return {"field": self.field, "message": self.text(lang)}


class EngineError(Exception):
    """The organiser's mistake: every problem found, each addressed to its field."""

    def __init__(self, errors: Iterable[FieldError]) -> None:
        self.errors = tuple(errors)
        super().__init__("; ".join(f"{e.field}: {e.text('en')}" for e in self.errors))

    def as_dicts(self, lang: str = DEFAULT_LANGUAGE) -> list[dict[str, str]]:
        return [e.as_dict(lang) for e in self.errors]

    def by_field(self, lang: str = DEFAULT_LANGUAGE) -> Mapping[str, list[str]]:
        out: dict[str, list[str]] = {}
        for e in self.errors:
            out.setdefault(e.field, []).append(e.text(lang))
        return out


class ScoringError(EngineError):
    """An invalid game or rule set."""
