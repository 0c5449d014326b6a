"""Helpers that fill score sheets the way the desk form posts them."""

from __future__ import annotations

from collections.abc import Sequence


def game_entries(
    n: int,
    declarer: int,
    bid: int,
    melds: Sequence[int | None] | None,
    tricks: Sequence[int | None] | None,
    kind: str = "played",
    columns: Sequence[int] = (1, 2, 3),
    revoked: Sequence[int] = (),
) -> dict[str, str]:
    p = f"g{n}-"
    out = {p + "kind": kind, p + "declarer": str(declarer), p + "bid": str(bid)}
    for i, col in enumerate(columns):
        if melds is not None and melds[i] is not None:
            out[f"{p}c{col}-meld"] = str(melds[i])
        if tricks is not None and tricks[i] is not None:
            out[f"{p}c{col}-tricks"] = str(tricks[i])
        if col in revoked:
            out[f"{p}c{col}-revoked"] = "on"
    return out


def full_three_table(games: int = 12) -> dict[str, str]:
    """Worked example 1 of docs/rules.md in every game: points 210, 80, 40 each game."""
    entries: dict[str, str] = {}
    for n in range(1, games + 1):
        entries.update(game_entries(n, 1, 200, [60, 20, 0], [152, 58, 40]))
    return entries


def full_pair_table(games: int = 12) -> dict[str, str]:
    """The pair-table example of docs/rules.md in every game: 300 and 110."""
    entries: dict[str, str] = {}
    for n in range(1, games + 1):
        entries.update(game_entries(n, 1, 250, [140, 20], [160, 90], columns=(1, 2)))
    return entries


def ticks(entries: dict[str, str]) -> dict[str, str]:
    """The four-eyes check's ticks ("geprüft") of every game of ``entries``, as the desk's form
    posts them: each game's stamp as shown."""
    from binokel_tournament.services.sheets import sheet_fields as F

    return {f"checked-g{n}": s for n, s in F.game_stamps(F.normalized(entries)).items()}
