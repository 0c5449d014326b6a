"""Row providers shared by the Excel workbook and the CSV files (pretix's ``ListExporter``):
the standings, the games and the entrants, each a ``RowTable`` (``table.py``); the charity
evening's sheets are in ``charity_rows.py``, the workbook's order in ``excel.py``."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..models import (
    Competition,
    GameKind,
    Mode,
    PartyResult,
    SheetStatus,
    Tournament,
    display_name,
)
from ..services.evening.standings import Standings, compute_standings
from .table import INTEGER_FORMAT, POINTS_FORMAT, Column, RowTable, Value


def standings_rows(
    competition: Competition, after_round: int | None = None, standings: Standings | None = None
) -> RowTable:
    """One row per entrant in ranking order: place, start number, name(s), club, points per
    round, total and the tie-break values in the order the rule set breaks ties. Without
    ``after_round``: after the last round with confirmed results (all rounds before any).
    ``after_round`` is checked by the exporter (``base.checked_round``). A round without any
    confirmed sheet in the competition has empty cells, not zeros."""
    if standings is None:
        standings = compute_standings(competition, after_round)
    played = standings.state.played if standings.state else frozenset()
    pairs = competition.mode == Mode.PAIRS
    columns = [
        Column("place", _("Platz"), 7, INTEGER_FORMAT),
        Column("start_number", _("Startnummer"), 12, INTEGER_FORMAT),
        Column("name", _("Name")),
    ]
    if pairs:
        columns.append(Column("partner", _("Partner/in")))
    columns.append(Column("club", _("Verein")))
    columns += [
        Column(f"round_{n}", _("%(n)s. Durchgang") % {"n": n}, 13, POINTS_FORMAT)
        for n in standings.rounds
    ]
    columns.append(Column("total", _("Gesamt"), 10, POINTS_FORMAT))
    columns += [Column(m.key, str(m.label), 16, INTEGER_FORMAT) for m in standings.metrics]
    table = RowTable(
        slug=f"rangliste-{competition.mode}",
        title=str(competition.get_mode_display()),
        columns=columns,
    )
    for row in standings.rows:
        entrant = row.entrant
        values: list[Value] = [
            row.place if row.place is not None else row.place_label,
            entrant.start_number,
            entrant.name,
        ]
        if pairs:
            values.append(entrant.partner)
        values.append(entrant.club)
        values += [
            points if n in played else None
            for n, points in zip(standings.rounds, row.round_points, strict=True)  # None: "–"
        ]
        values.append(row.total)
        values += [row.metrics[m.key] for m in standings.metrics]
        table.rows.append(values)
    return table


def games_rows(tournament: Tournament, up_to: int | None = None) -> RowTable:
    """Long format for pivot tables: one row per party per game of every confirmed sheet (of
    the rounds up to ``up_to``, when given)."""
    columns = [
        Column("competition", _("Wertung"), 9),
        Column("round", _("Durchgang"), 11, INTEGER_FORMAT),
        Column("table", _("Tisch"), 7, INTEGER_FORMAT),
        Column("game", _("Spiel"), 7, INTEGER_FORMAT),
        Column("start_number", _("Startnummer"), 12, INTEGER_FORMAT),
        Column("name", _("Name"), 32),
        Column("declarer", _("Spielmacher"), 12),
        Column("kind", _("Art"), 14),
        Column("bid", _("Reizwert"), 9, INTEGER_FORMAT),
        Column("meld", _("Meldung"), 9, INTEGER_FORMAT),
        Column("tricks", _("Stiche"), 8, INTEGER_FORMAT),
        Column("points", _("Punkte"), 9, POINTS_FORMAT),
        Column("won", _("gewonnen"), 10),
        Column("revoked", _("verworfen"), 10),
        Column("sits_out", _("setzt aus"), 10),
    ]
    table = RowTable(slug="spiele", title=_("Spiele"), columns=columns)
    modes = {m: str(label) for m, label in Mode.choices}  # translated once, not per row
    kinds = {k: str(label) for k, label in GameKind.choices}
    confirmed = PartyResult.objects.filter(
        game__sheet__table__round__tournament=tournament,
        game__sheet__status=SheetStatus.CONFIRMED,
    )
    if up_to is not None:
        confirmed = confirmed.filter(round_number__lte=up_to)
    results = confirmed.order_by(
        "round_number", "game__sheet__table__number", "game__number", "id"
    ).values_list(
        "entrant__competition__mode",
        "round_number",
        "game__sheet__table__number",
        "game__number",
        "entrant__start_number",
        "entrant__name",
        "entrant__partner",
        "is_declarer",
        "game__kind",
        "game__bid",
        "meld",
        "tricks",
        "points",
        "game__won",
        "revoked",
        "sits_out",
    )
    rows = table.rows
    for (
        mode,
        rnd,
        tbl,
        game,
        number,
        name,
        partner,
        declarer,
        kind,
        bid,
        meld,
        tricks,
        points,
        won,
        revoked,
        sits_out,
    ) in results.iterator(chunk_size=4000):
        rows.append(
            [
                modes[mode],
                rnd,
                tbl,
                game,
                number,
                display_name(name, partner),
                declarer,
                kinds.get(kind, kind),
                bid,
                meld,
                tricks,
                points,
                won if declarer else None,
                revoked,
                sits_out,
            ]
        )
    return table


def entrants_rows(tournament: Tournament) -> RowTable:
    """Every entrant, by start number. The first four headers (Startnummer, Name,
    Partner/in, Verein) are the ones the registration import understands, so the CSV of this
    table imports back as it is. In the workbook it is the last sheet, and the .xlsx import
    reads a workbook's first sheet: to import it from there, save it on its own (or move it
    to the front) first."""
    columns = [
        Column("start_number", _("Startnummer"), 12, INTEGER_FORMAT),
        Column("name", _("Name")),
        Column("partner", _("Partner/in")),
        Column("club", _("Verein")),
        Column("competition", _("Wertung"), 9),
        Column("late", _("nachgemeldet"), 13),
        Column("withdrawn", _("abgemeldet"), 11),
        Column("unranked", _("außer Konkurrenz"), 16),
    ]
    table = RowTable(slug="teilnehmer", title=_("Teilnehmer"), columns=columns)
    modes = {m: str(label) for m, label in Mode.choices}
    for e in tournament.entrants.select_related("competition").order_by("start_number"):
        table.rows.append(
            [
                e.start_number,
                e.name,
                e.partner,
                e.club,
                modes[e.competition.mode],
                e.late,
                e.withdrawn,
                e.unranked,
            ]
        )
    return table
