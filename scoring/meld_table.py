"""The meld table of a rule set, as data: what every meld is worth, and how a hand's melds count.

A rule set's meld table (``RuleSet.meld_table``) has

* **suit melds**: combinations of cards of one suit, each with a value outside and in trump, in
  the order they are looked for (``suit_melds``). A suit shows the first entry whose cards it
  holds, then looks again among the cards left, until nothing more is found: ``A 10 K O U`` +
  ``K O`` is a Familie and a Paar; with ``A A 10 10 K K O O U U`` a double Familie is one entry
  (ejl: 200/300 = two Familien; preisbinokel: 1000). So a Familie's K+O is never also a Paar.
  An entry worth 0 (e.g. the seven "Diss" outside trump) is no meld and takes no cards.
* **rank melds**: one card of a rank from every suit ("4 Unter", ``four_of_a_rank``) or both
  copies from every suit ("8 Unter", ``eight_of_a_rank``, instead of the 4; where 8 are worth
  nothing, the 4 still count). 0 means no such meld.
* **Binokel**: Schellen-U + Schippen-O; both copies of each is the Doppelbinokel instead.
* **Rundlauf**: a Paar in every suit, i.e. the 4 Könige, the 4 Ober and one Paar per suit shown
  together; it replaces those melds and is worth ``rundlauf`` or, when the hand shows a Familie
  (any suit meld other than the ``paar`` entry that holds a K and an O), ``rundlauf_with_familie``
  (rule 15). In a suit with a Familie its K+O are that suit's Paar. Kings or Ober that form "8 of
  a rank" are no 4, so such a hand has no Rundlauf. ``rundlauf`` 0: the game has no Rundlauf and
  its parts count one by one.

A card may serve in melds of different kinds (a Schippen-O in a Binokel, a Paar and 4 Ober), never
in two melds of the same kind. Every value is a multiple of 10.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from types import MappingProxyType
from typing import Any

from scoring import messages as M
from scoring.cards import COPIES, RANK_PLURALS, RANKS, Rank
from scoring.errors import FieldError
from scoring.reading import is_int

PAAR_KEY = "paar"
KEY_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
RANK_BY_LABEL: Mapping[str, Rank] = MappingProxyType({rank.value: rank for rank in Rank})


@dataclass(frozen=True)
class SuitMeld:
    """A combination of cards of one suit (``cards``: the ranks it needs, repeated for two)."""

    key: str
    cards: tuple[Rank, ...]
    plain: int
    trump: int

    @property
    def needs(self) -> Mapping[Rank, int]:
        return MappingProxyType(Counter(self.cards))

    @property
    def holds_paar(self) -> bool:
        return Rank.KOENIG in self.cards and Rank.OBER in self.cards

    def value(self, trump: bool) -> int:
        return self.trump if trump else self.plain

    def cards_text(self) -> str:
        return " ".join(rank.value for rank in sorted(self.cards, key=RANKS.index))

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "cards": self.cards_text(),
            "plain": self.plain,
            "trump": self.trump,
        }

    @classmethod
    def of(cls, key: str, cards: str, plain: int, trump: int) -> SuitMeld:
        """For tables written in code: ``SuitMeld.of("paar", "K O", 20, 40)``."""
        return cls(key, tuple(RANK_BY_LABEL[label] for label in cards.split()), plain, trump)


@dataclass(frozen=True)
class SuitOutcome:
    """What one suit of a hand shows: its points, the entries found (key, times), whether one of
    them is a Familie (for the Rundlauf) and the points of the Paar a Rundlauf would take."""

    value: int
    found: tuple[tuple[str, int], ...]
    familie: bool
    paar_taken: int


@dataclass(frozen=True)
class MeldTable:
    suit_melds: tuple[SuitMeld, ...]
    four: tuple[tuple[Rank, int], ...]
    eight: tuple[tuple[Rank, int], ...]
    binokel: int
    doppelbinokel: int
    rundlauf: int
    rundlauf_with_familie: int

    # --- values ------------------------------------------------------------------------------
    def four_value(self, rank: Rank) -> int:
        return dict(self.four).get(rank, 0)

    def eight_value(self, rank: Rank) -> int:
        return dict(self.eight).get(rank, 0)

    def rank_value(self, rank: Rank, least: int) -> int:
        """Points of a rank of which the hand holds ``least`` cards in every suit."""
        if least >= COPIES:
            return self.eight_value(rank) or self.four_value(rank)
        return self.four_value(rank) if least == 1 else 0

    def binokel_value(self, times: int) -> int:
        """Points of ``times`` Binokel (both copies: the Doppelbinokel, where it counts)."""
        if times >= COPIES:
            return self.doppelbinokel or self.binokel
        return self.binokel if times == 1 else 0

    @property
    def has_binokel(self) -> bool:
        return bool(self.binokel or self.doppelbinokel)

    @property
    def has_rundlauf(self) -> bool:
        return self.rundlauf > 0

    def rank_melds(self) -> tuple[Rank, ...]:
        """The ranks whose least count over the suits matters (rank melds, the Rundlauf)."""
        ranks = {rank for rank, value in (*self.four, *self.eight) if value}
        if self.has_rundlauf:
            ranks |= {Rank.KOENIG, Rank.OBER}
        return tuple(rank for rank in RANKS if rank in ranks)

    def paar(self) -> SuitMeld | None:
        return next((m for m in self.suit_melds if m.key == PAAR_KEY), None)

    def is_familie(self, key: str) -> bool:
        """Whether a suit meld counts as a Familie for the Rundlauf (rule 15)."""
        meld = next((m for m in self.suit_melds if m.key == key), None)
        return meld is not None and key != PAAR_KEY and meld.holds_paar

    # --- one suit ----------------------------------------------------------------------------
    def suit_outcome(self, counts: Mapping[Rank, int], trump: bool) -> SuitOutcome:
        """The suit melds of one suit holding ``counts`` (first matching entry, repeatedly)."""
        return _suit_outcome(self, tuple(sorted(counts.items())), trump)

    # --- itemised melds ----------------------------------------------------------------------
    def item_values(self) -> Mapping[str, int]:
        """Every itemised meld name (see ``MeldCounts``) and its points (the Rundlauf: without
        a Familie)."""
        values: dict[str, int] = {}
        for meld in self.suit_melds:
            values[meld.key] = meld.plain
            values[f"trump_{meld.key}"] = meld.trump
        for rank in RANKS:
            values[f"vier_{RANK_PLURALS[rank]}"] = self.four_value(rank)
            values[f"acht_{RANK_PLURALS[rank]}"] = self.eight_value(rank) or self.four_value(rank)
        values["binokel"] = self.binokel
        values["doppelbinokel"] = self.doppelbinokel
        values["rundlauf"] = self.rundlauf
        return values

    def familie_items(self) -> frozenset[str]:
        keys = [m.key for m in self.suit_melds if self.is_familie(m.key)]
        return frozenset(keys + [f"trump_{key}" for key in keys])


@cache
def _suit_outcome(
    table: MeldTable, counts: tuple[tuple[Rank, int], ...], trump: bool
) -> SuitOutcome:
    left = Counter(dict(counts))
    found: Counter[str] = Counter()
    value = 0
    searching = True
    while searching:
        searching = False
        for meld in table.suit_melds:
            points = meld.value(trump)
            if points and all(left[rank] >= n for rank, n in meld.needs.items()):
                left.subtract(meld.needs)
                found[meld.key] += 1
                value += points
                searching = True
                break
    familie = any(table.is_familie(key) for key in found)
    paar = table.paar()
    taken = paar.value(trump) if paar is not None and not familie and found[PAAR_KEY] else 0
    ordered = tuple((m.key, found[m.key]) for m in table.suit_melds if found[m.key])
    return SuitOutcome(value, ordered, familie, taken)


def all_counts(ranks: Sequence[Rank]) -> Iterable[dict[Rank, int]]:
    """Every way one suit of a hand can hold these ranks (0 to 2 copies each)."""
    for combo in product(range(COPIES + 1), repeat=len(ranks)):
        yield dict(zip(ranks, combo, strict=True))


# --- reading and checking the table's JSON (used by RuleSet) ---------------------------------
def parse_suit_melds(key: str, value: object, errors: list[FieldError]) -> object:
    """``[{"key": "paar", "cards": "K O", "plain": 20, "trump": 40}, ...]``; an entry that
    cannot be read is reported and left out (None)."""
    if not isinstance(value, list):
        errors.append(FieldError.of(key, M.NOT_A_LIST))
        return None
    parsed: list[SuitMeld | None] = []
    for i, item in enumerate(value):
        field = f"{key}[{i}]"
        if not isinstance(item, Mapping):
            errors.append(FieldError.of(field, M.NOT_AN_OBJECT))
            parsed.append(None)
            continue
        ok = True
        for name in item:
            if name not in ("key", "cards", "plain", "trump"):
                errors.append(FieldError.of(f"{field}.{name}", M.UNKNOWN_FIELD, name=name))
                ok = False
        meld_key = item.get("key")
        if not isinstance(meld_key, str):
            errors.append(FieldError.of(f"{field}.key", M.NOT_TEXT))
            ok = False
        cards = item.get("cards")
        ranks: list[Rank] = []
        if not isinstance(cards, str):
            errors.append(FieldError.of(f"{field}.cards", M.NOT_TEXT))
            ok = False
        else:
            for label in cards.split():
                if label not in RANK_BY_LABEL:
                    errors.append(FieldError.of(f"{field}.cards", M.UNKNOWN_RANK, rank=label))
                    ok = False
                else:
                    ranks.append(RANK_BY_LABEL[label])
        points = []
        for name in ("plain", "trump"):
            number = item.get(name)
            if not is_int(number):
                errors.append(FieldError.of(f"{field}.{name}", M.NOT_AN_INTEGER))
                ok = False
            points.append(number)
        if ok:
            assert isinstance(meld_key, str) and is_int(points[0]) and is_int(points[1])
            ranks.sort(key=RANKS.index)
            parsed.append(SuitMeld(meld_key, tuple(ranks), points[0], points[1]))
        else:
            parsed.append(None)
    return tuple(parsed)


def parse_rank_values(key: str, value: object, errors: list[FieldError]) -> object:
    """``{"A": 100, "K": 80, ...}``: a value per rank (missing ranks are worth 0)."""
    if not isinstance(value, Mapping):
        errors.append(FieldError.of(key, M.NOT_AN_OBJECT))
        return None
    parsed: list[tuple[str, int | None]] = []
    for label, number in value.items():
        if not is_int(number):
            errors.append(FieldError.of(f"{key}.{label}", M.NOT_AN_INTEGER))
            number = None
        parsed.append((str(label), number))
    return tuple(parsed)


def check_suit_melds(field: str, melds: Sequence[SuitMeld | None]) -> list[FieldError]:
    errors: list[FieldError] = []
    seen: set[str] = set()
    for i, meld in enumerate(melds):
        if meld is None:
            continue
        prefix = f"{field}[{i}]"
        if not KEY_RE.match(meld.key):
            errors.append(FieldError.of(f"{prefix}.key", M.MELD_KEY_FORM, value=meld.key))
        elif meld.key in seen:
            errors.append(FieldError.of(f"{prefix}.key", M.DUPLICATE_ENTRY, value=meld.key))
        seen.add(meld.key)
        if not meld.cards:
            errors.append(FieldError.of(f"{prefix}.cards", M.MUST_NOT_BE_EMPTY))
        for rank, n in sorted(Counter(meld.cards).items()):
            if n > COPIES:
                errors.append(FieldError.of(f"{prefix}.cards", M.MELD_CARD_TWICE, rank=rank.value))
        for name in ("plain", "trump"):
            errors.extend(check_meld_value(f"{prefix}.{name}", getattr(meld, name)))
    return errors


def check_rank_values(
    field: str, values: Sequence[tuple[str, int | None]], meld_values: bool = True
) -> list[FieldError]:
    """A value per rank: known ranks, once each; meld values are multiples of 10, any value
    is at least 0."""
    errors: list[FieldError] = []
    seen: set[str] = set()
    for label, number in values:
        sub = f"{field}.{label}"
        if label not in RANK_BY_LABEL:
            errors.append(FieldError.of(sub, M.UNKNOWN_RANK, rank=label))
        elif label in seen:
            errors.append(FieldError.of(sub, M.DUPLICATE_ENTRY, value=label))
        seen.add(label)
        if number is None:
            continue
        if meld_values:
            errors.extend(check_meld_value(sub, number))
        elif number < 0:
            errors.append(FieldError.of(sub, M.MUST_BE_AT_LEAST, min=0, value=number))
    return errors


def check_meld_value(field: str, value: int) -> list[FieldError]:
    if value < 0:
        return [FieldError.of(field, M.MUST_BE_AT_LEAST, min=0, value=value)]
    if value % 10:
        return [FieldError.of(field, M.MUST_BE_MULTIPLE_OF_10, value=value)]
    return []


def rank_values_dict(values: Sequence[tuple[str, int]]) -> dict[str, int]:
    """The JSON shape of a rank value table: every rank, in rank order."""
    given = dict(values)
    return {rank.value: given.get(rank.value, 0) for rank in RANKS}


def rank_values_of(values: Sequence[tuple[str, int]]) -> tuple[tuple[Rank, int], ...]:
    given = dict(values)
    return tuple((rank, given.get(rank.value, 0)) for rank in RANKS)
