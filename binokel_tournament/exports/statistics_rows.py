"""The workbook's "Statistik" sheet: the evening in figures (the same numbers as the desk's
statistics page and the Pressebericht)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..models import Tournament
from ..services.money.statistics import evening_statistics
from .table import Column, RowTable, Value


def statistics_rows(tournament: Tournament, after_round: int | None = None) -> RowTable:
    """The figures of the games up to ``after_round`` (all rounds without it), like the
    workbook's other sheets."""
    ev = evening_statistics(tournament, up_to=after_round)
    s = ev.stats
    table = RowTable(
        slug="statistik",
        title=_("Statistik"),
        columns=[
            Column("figure", _("Kennzahl"), 34),
            Column("value", _("Wert"), 12, "#,##0.#"),
            Column("detail", _("Wer / Durchgang"), 40),
        ],
    )
    rows: list[list[Value]] = [
        [_("Spiele"), s.games, None],
        [_("Punkte"), s.points, None],
        [_("Spiele mit Spielmacher"), s.declarer_games, None],
        [_("davon vom Spielmacher gewonnen"), s.declarer_wins, None],
        [_("Gewinnquote der Spielmacher (%)"), round(100 * s.win_rate, 1), None],
        [_("abgeschrieben"), s.conceded, None],
        [_("Durch"), s.durch, None],
        [_("Durch gewonnen"), s.durch_won, None],
        [_("Tausender (Spiele ab 1000 Punkten)"), s.tausender, None],
    ]
    if s.highest_game:
        detail = _("%(who)s, %(n)s. Durchgang") % {
            "who": ev.who(s.highest_game),
            "n": s.highest_game.round_number,
        }
        rows.append([_("höchstes Spiel"), s.highest_game.points, detail])
    if s.highest_round:
        detail = _("%(who)s, %(n)s. Durchgang") % {
            "who": ev.who(s.highest_round),
            "n": s.highest_round.round_number,
        }
        rows.append([_("höchster Durchgang"), s.highest_round.points, detail])
    for label, count in s.meld_classes:
        rows.append([_("Meldungen %(range)s") % {"range": label}, count, None])
    table.rows.extend(rows)
    return table
