"""The bridge between the ORM and the pairing engine: load, call, save (Tabbycat's DrawManager).

Table numbers in the hall run over the whole round: the competition planned first takes the
first numbers (the demo: Einzel, then pairs). Re-planning one competition never renumbers
another's tables, and keeps its own tables' numbers where the same people sit there. A locked
round (it has started) never changes."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import pairing
from scoring.tables import table_shape

from ...models import (
    AuditLog,
    Competition,
    Entrant,
    Round,
    ScoreSheet,
    Seat,
    Table,
    Tournament,
    display_name,
    names_hidden,
)
from ..access import Action, Actor, require
from ..audit import log_action
from ..errors import DeskError, engine_error_text
from ..names import NameQuery
from ..rounds.state import started_rounds
from ..server.backup import schedule_backup


def engine_entrants(entrants: Sequence[Entrant]) -> list[pairing.Entrant]:
    return [pairing.Entrant(e.start_number, e.club.strip().lower() or None) for e in entrants]


def active_entrants(competition: Competition) -> list[Entrant]:
    return list(competition.entrants.filter(withdrawn=False).order_by("start_number"))


def plan_from_db(competition: Competition) -> pairing.Plan | None:
    """The competition's current seating plan as an engine Plan (engine table numbers 1..T),
    read in one query of plain values, whatever the size of the field."""
    seats = (
        Seat.objects.filter(table__competition=competition)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table_id", "table__kind", "entrant__start_number")
    )
    by_round: dict[int, dict[int, tuple[str, list[int]]]] = defaultdict(dict)
    for round_number, table_id, kind, start_number in seats:
        by_round[round_number].setdefault(table_id, (kind, []))[1].append(start_number)
    if not by_round:
        return None
    rounds = tuple(
        pairing.Round(
            number,
            tuple(
                pairing.Table(i, pairing.TableKind(kind), tuple(numbers))
                for i, (kind, numbers) in enumerate(by_round[number].values(), start=1)
            ),
        )
        for number in sorted(by_round)
    )
    return pairing.Plan(pairing.Mode(competition.mode), rounds)


def plan_snapshot(plan: pairing.Plan | None) -> dict[str, object] | None:
    return plan.to_dict() if plan is not None else None


@dataclass(frozen=True)
class SeatingSummary:
    plan: pairing.Plan
    quality: pairing.Quality
    # who sits elsewhere than before (a re-plan), for the page and the reprints
    changes: tuple[SeatChange, ...] = ()


@dataclass(frozen=True)
class SeatChange:
    round: int
    start_number: int
    name: str
    before: tuple[int, int] | None  # (table, seat); None: did not play this round before
    after: tuple[int, int] | None  # None: no longer plays it (withdrawn)

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round,
            "start_number": self.start_number,
            "name": self.name,
            "before": list(self.before) if self.before else None,
            "after": list(self.after) if self.after else None,
        }


def _places(competition: Competition, after_round: int) -> dict[tuple[int, int], tuple[int, int]]:
    """(round, start number) -> (table, seat) of the competition's rounds after ``after_round``."""
    rows = Seat.objects.filter(
        table__competition=competition, table__round__number__gt=after_round
    ).values_list("table__round__number", "entrant__start_number", "table__number", "position")
    return {(r, n): (table, seat) for r, n, table, seat in rows}


def seat_changes(
    competition: Competition,
    before: dict[tuple[int, int], tuple[int, int]],
    after: dict[tuple[int, int], tuple[int, int]],
) -> tuple[SeatChange, ...]:
    """Everyone whose table or seat differs between two snapshots (``_places``)."""
    names = dict(
        (n, display_name(name, partner))
        for n, name, partner in competition.entrants.values_list("start_number", "name", "partner")
    )
    keys = sorted(set(before) | set(after))
    return tuple(
        SeatChange(r, n, names.get(n, str(n)), before.get((r, n)), after.get((r, n)))
        for r, n in keys
        if before.get((r, n)) != after.get((r, n))
    )


MOVED = "seating.moved"  # the audit entry of a re-plan's changed places


def latest_moves(competition: Competition) -> dict[tuple[int, int], int | None]:
    """(round, start number) -> the table before the latest re-plan, for everyone it moved;
    empty once a fresh plan replaced it."""
    entries = AuditLog.objects.filter(
        tournament_id=competition.tournament_id,
        action__in=("seating.generate", MOVED),
        object_type="Competition",
        object_id=str(competition.pk),
    )
    # the latest entry's kind first: a fresh plan's entry holds the whole plan (a hall's
    # worth of JSON, read on every player's page otherwise), and only a re-plan's is needed
    latest = entries.order_by("-at", "-id").values_list("pk", "action").first()
    if latest is None or latest[1] != MOVED:
        return {}
    after = entries.filter(pk=latest[0]).values_list("after", flat=True).first()
    if not isinstance(after, dict):
        return {}
    out: dict[tuple[int, int], int | None] = {}
    for change in after.get("changes", []):
        before = change.get("before")
        out[(change["round"], change["start_number"])] = before[0] if before else None
    return out


# What the tables read on paper: a change after one of these was printed needs a reprint.
PRINTED_KINDS = ("seating", "tablecards", "scoresheets")
PRINT = "print"  # the audit entry of a printout (a download, ``export_pdf``, or marked by hand)


def record_print(
    tournament: Tournament,
    user: Actor,
    kind: str,
    round_number: int | None,
    tables: Sequence[int] = (),
    *,
    by_hand: bool = False,
) -> None:
    """Remember that a round's seating plan, table cards or score sheets were printed (or
    downloaded; ``tables``: only these tables of the round, a reprint; ``by_hand``: the desk
    said they are printed): a later re-plan says which printouts it outdated, and the list of
    what is still to print (``reprints``) loses what this printout covers."""
    if kind in PRINTED_KINDS:
        after: dict[str, Any] = {"kind": kind, "round": round_number}
        if tables and kind != "seating":  # the seating plan always holds every table
            after["tables"] = sorted(set(tables))
        if by_hand:
            after["by_hand"] = True
        log_action(tournament, user, PRINT, tournament, None, after)


def printed_at(tournament: Tournament) -> dict[int, Any]:
    """Round -> when its seating plan, cards or sheets were last printed (all rounds: None)."""
    rounds = list(tournament.round_set.values_list("number", flat=True))
    out: dict[int, Any] = {}
    for after, at in tournament.audit_log.filter(action=PRINT).values_list("after", "at"):
        number = after.get("round") if isinstance(after, dict) else None
        for r in rounds if number is None else [number]:
            if r not in out or at > out[r]:
                out[r] = at
    return out


def tables_to_reprint(changes: Sequence[SeatChange]) -> dict[int, list[int]]:
    """Round -> the tables whose printed plan, table card or score sheet a re-plan changed:
    where someone left or joined the table (a new seat at the same table is no reprint)."""
    out: dict[int, set[int]] = defaultdict(set)
    for change in changes:
        before = change.before[0] if change.before else None
        after = change.after[0] if change.after else None
        if before == after:
            continue
        for table in (before, after):
            if table is not None:
                out[change.round].add(table)
    return {r: sorted(tables) for r, tables in sorted(out.items())}


@dataclass(frozen=True)
class Reprint:
    """A round's tables whose printouts a re-plan outdated and that are not printed again
    yet, with the kinds of printout (``PRINTED_KINDS``) still to print."""

    round: int
    tables: tuple[int, ...]
    kinds: tuple[str, ...]

    @property
    def tables_text(self) -> str:
        return ",".join(str(t) for t in self.tables)


def reprints(tournament: Tournament) -> list[Reprint]:
    """What is still to print after re-plans, per round, from the tournament's record (the
    audit log: every re-plan's moves and every printout, in order), the same for every desk
    and both competitions. A table is to print again in the kinds that had been printed for
    its round before the re-plan that changed its people; a later printout of that kind that
    covers it (its round or every round; its tables or all of them; the seating plan holds all
    tables) takes it off the list."""
    pending: dict[tuple[int, int], set[str]] = defaultdict(set)
    printed: dict[int | None, set[str]] = defaultdict(set)  # round (None: every round) -> kinds
    entries = tournament.audit_log.filter(action__in=(PRINT, MOVED)).order_by("at", "id")
    for action, after in entries.values_list("action", "after"):
        if not isinstance(after, dict):
            continue
        if action == PRINT:
            kind, number = after.get("kind"), after.get("round")
            covered = set(after.get("tables") or ())
            printed[number].add(str(kind))
            for (r, table), kinds in pending.items():
                if (number is None or r == number) and (not covered or table in covered):
                    kinds.discard(str(kind))
            continue
        for change in after.get("changes", []):
            r = change.get("round")
            change_tables = tables_to_reprint(
                [
                    SeatChange(
                        r,
                        0,
                        "",
                        tuple(change["before"]) if change.get("before") else None,
                        tuple(change["after"]) if change.get("after") else None,
                    )
                ]
            )
            kinds_printed = printed[r] | printed[None]
            for table in change_tables.get(r, []):
                pending[(r, table)] |= kinds_printed
    by_round: dict[tuple[int, tuple[str, ...]], list[int]] = defaultdict(list)
    for (r, table), kinds in sorted(pending.items()):
        if kinds:
            ordered = tuple(k for k in PRINTED_KINDS if k in kinds)
            by_round[(r, ordered)].append(table)
    return [Reprint(r, tuple(tables), kinds) for (r, kinds), tables in sorted(by_round.items())]


def mark_reprinted(tournament: Tournament, user: Actor, round_number: int) -> int:
    """The desk says a round's outstanding reprints are done (printed another way, or not
    needed: score sheets are not printed where the phones keep score). How many tables."""
    require(user, tournament, Action.VIEW)
    done = [r for r in reprints(tournament) if r.round == round_number]
    for reprint in done:
        for kind in reprint.kinds:
            record_print(tournament, user, kind, round_number, reprint.tables, by_hand=True)
    return sum(len(r.tables) for r in done)


def ensure_rounds(tournament: Tournament) -> list[Round]:
    for number in range(1, tournament.rounds + 1):
        Round.objects.get_or_create(tournament=tournament, number=number)
    return list(tournament.round_set.order_by("number"))


def _write_rounds(competition: Competition, plan: pairing.Plan, from_round: int) -> None:
    """Replace the competition's tables in rounds > from_round by the plan's.

    Another competition's tables keep their numbers (their plans and table cards may be
    printed). The competition's own new tables take the numbers of its old tables where most
    of the same people sit (``_table_numbers``), further tables the next free numbers."""
    tournament = competition.tournament
    rounds = {r.number: r for r in ensure_rounds(tournament)}
    entrants = dict(competition.entrants.values_list("start_number", "pk"))
    for engine_round in plan.rounds:
        if engine_round.number <= from_round:
            continue
        round_obj = rounds[engine_round.number]
        if round_obj.locked:
            raise DeskError(_("Der %(n)s. Durchgang ist gesperrt.") % {"n": round_obj.number})
        numbers = _table_numbers(round_obj, competition, engine_round)
        Table.objects.filter(round=round_obj, competition=competition).delete()
        tables = Table.objects.bulk_create(
            Table(round=round_obj, competition=competition, number=number, kind=str(table.kind))
            for number, table in zip(numbers, engine_round.tables, strict=True)
        )
        Seat.objects.bulk_create(
            Seat(table=t, entrant_id=entrants[n], position=pos)
            for t, table in zip(tables, engine_round.tables, strict=True)
            for pos, n in enumerate(table.seats, start=1)
        )


def _table_numbers(
    round_obj: Round, competition: Competition, engine_round: pairing.Round
) -> list[int]:
    """Hall numbers for the engine's tables of one round: a table keeps the number of the old
    table it shares the most people with (largest overlap first); the rest take the
    competition's remaining old numbers, then the numbers after its own (or after every table
    of the round), never one of another competition's tables."""
    old: dict[int, set[int]] = defaultdict(set)  # number -> start numbers
    for number, start in Seat.objects.filter(
        table__round=round_obj, table__competition=competition
    ).values_list("table__number", "entrant__start_number"):
        old[number].add(start)
    others = set(round_obj.tables.exclude(competition=competition).values_list("number", flat=True))
    wanted = [set(t.seats) for t in engine_round.tables]
    pairs = sorted(
        (
            (len(seats & old_seats), -number, i, number)
            for i, seats in enumerate(wanted)
            for number, old_seats in old.items()
            if seats & old_seats
        ),
        reverse=True,
    )
    numbers: list[int | None] = [None] * len(wanted)
    taken: set[int] = set()
    for _overlap, _order, i, number in pairs:
        if numbers[i] is None and number not in taken:
            numbers[i] = number
            taken.add(number)
    spare = sorted(set(old) - taken)
    following = max(old, default=0) if old else max(others, default=0)
    for i, given in enumerate(numbers):
        if given is not None:
            continue
        if spare:
            numbers[i] = spare.pop(0)
            continue
        following += 1
        while following in others or following in taken:
            following += 1
        numbers[i] = following
        taken.add(following)
    return [n for n in numbers if n is not None]


def generate_seating(competition: Competition, seed: int = 0, user: Actor = None) -> SeatingSummary:
    """Plan every round of a competition from scratch (no round may have started)."""
    tournament = competition.tournament
    require(user, tournament, Action.SEATING)
    current = plan_from_db(competition)
    if current is not None and started_rounds(tournament):
        raise DeskError(
            _(
                "Ein Durchgang hat schon begonnen: bitte „Neu planen“ verwenden, das lässt "
                "gespielte Durchgänge unverändert."
            )
        )
    entrants = engine_entrants(active_entrants(competition))
    try:
        plan = pairing.make_plan(entrants, pairing.Mode(competition.mode), tournament.rounds, seed)
    except pairing.PairingError as exc:
        raise DeskError(engine_error_text(exc)) from exc
    quality = pairing.check_plan(plan, entrants)
    with transaction.atomic():
        _write_rounds(competition, plan, from_round=0)
        _store_figures(competition, plan_figures(plan, entrants, quality, played=0))
        before = plan_snapshot(current)
        log_action(tournament, user, "seating.generate", competition, before, plan.to_dict())
        schedule_backup(tournament)
    return SeatingSummary(plan, quality)


def replan_seating(competition: Competition, seed: int = 0, user: Actor = None) -> SeatingSummary:
    """Re-plan the rounds that have not started after withdrawals and late arrivals."""
    tournament = competition.tournament
    require(user, tournament, Action.SEATING)
    current = plan_from_db(competition)
    if current is None:
        return generate_seating(competition, seed, user)
    played = started_rounds(tournament)
    entrants = engine_entrants(active_entrants(competition))
    active = {e.start_number for e in entrants}
    withdraw, add_numbers = plan_changes(current, played, active)
    all_entrants = list(competition.entrants.order_by("start_number"))
    add = [e for e in entrants if e.start_number in add_numbers]
    try:
        plan = pairing.replan(
            current, played, engine_entrants(all_entrants), withdraw=withdraw, add=add, seed=seed
        )
    except pairing.PairingError as exc:
        raise DeskError(engine_error_text(exc)) from exc
    quality = pairing.check_plan(plan, entrants, base=current, played=played)
    with transaction.atomic():
        before = _places(competition, played)
        _write_rounds(competition, plan, from_round=played)
        changes = seat_changes(competition, before, _places(competition, played))
        _store_figures(competition, plan_figures(plan, entrants, quality, played))
        log_action(
            tournament, user, "seating.replan", competition, current.to_dict(), plan.to_dict()
        )
        # who sits elsewhere now, by hall table numbers: the players' own pages mark it
        moved = {"changes": [c.as_dict() for c in changes]}
        log_action(tournament, user, MOVED, competition, None, moved)
        schedule_backup(tournament)
    return SeatingSummary(plan, quality, changes)


def plan_figures(
    plan: pairing.Plan,
    entrants: Sequence[pairing.Entrant],
    quality: pairing.Quality,
    played: int,
) -> dict[str, Any]:
    """The figures kept with a plan (a JSON document): the engine's quality figures, with the
    club figure C for every round instead of round 1 only, and how many rounds had been
    played."""
    clubs = pairing.clubs_by_round(plan, entrants, played)
    return {**quality.to_dict(), "C": [c.to_dict() for c in clubs], "played": played}


def _store_figures(competition: Competition, figures: dict[str, object]) -> None:
    competition.seating_figures = figures
    competition.save(update_fields=["seating_figures"])


@dataclass(frozen=True)
class PlanFigure:
    """One line of the seating page's quality table."""

    label: str
    value: int
    bound: int


FIGURE_LABELS = {
    "R": gettext_lazy("R: wiederholte Begegnungen"),
    "F": gettext_lazy("F: meiste Durchgänge am Vierertisch"),
    "S": gettext_lazy("S: Ausgleich von Geben und Schreiben"),
    "D": gettext_lazy("D: Plätze, die sich durch die Neuplanung geändert haben"),
}


def seating_figures(competition: Competition, played: int | None = None) -> list[PlanFigure] | None:
    """The quality figures of the competition's plan as they were measured when it was made
    (or re-planned); for a plan from before figures were kept, measured now with the
    ``played`` rounds (default: those locked) — one plan load. None without a plan."""
    figures: dict[str, Any] | None = competition.seating_figures
    if not figures:
        plan = plan_from_db(competition)
        if plan is None:
            return None
        entrants = engine_entrants(list(competition.entrants.all()))
        if played is None:
            played = started_rounds(competition.tournament)
        quality = pairing.check_plan(plan, entrants, played=played)
        figures = plan_figures(plan, entrants, quality, played)
    played = int(figures.get("played", 0))
    lines = [
        PlanFigure(str(FIGURE_LABELS[key]), figures[key]["value"], figures[key]["bound"])
        for key in ("R", "F", "S", "D")
        if key in figures
    ]
    for number, club in enumerate(figures["C"], start=1):
        label = (
            _("C: Vereinskollegen an einem Tisch im %(n)s. Durchgang (gespielt)")
            if number <= played
            else _("C: Vereinskollegen an einem Tisch im %(n)s. Durchgang")
        )
        lines.append(PlanFigure(label % {"n": number}, club["value"], club["bound"]))
    return lines


def plan_changes(plan: pairing.Plan, played: int, active: set[int]) -> tuple[list[int], list[int]]:
    """Who is seated in the rounds still to play but withdrew, and who is active but not seated
    there (late arrivals, and withdrawn entrants who came back)."""
    upcoming = [r for r in plan.rounds if r.number > played]
    if not upcoming:
        return [], []
    seated = {n for t in upcoming[0].tables for n in t.seats}
    return sorted(seated - active), sorted(active - seated)


@dataclass(frozen=True)
class PlanStatus:
    """Whether the plan of the rounds still to play matches the registrations."""

    withdrawn: list[int]
    missing: list[int]

    @property
    def out_of_date(self) -> bool:
        return bool(self.withdrawn or self.missing)


def plan_status(competition: Competition, played: int | None = None) -> PlanStatus:
    """Compare the first round still to play (after the ``played`` rounds, default: those
    locked) with the registrations: two small queries of start numbers, not the whole plan."""
    if played is None:
        played = started_rounds(competition.tournament)
    seated = set(
        Seat.objects.filter(
            table__competition=competition, table__round__number=played + 1
        ).values_list("entrant__start_number", flat=True)
    )
    if not seated:  # no plan, or no round left to play
        return PlanStatus([], [])
    active = set(
        competition.entrants.filter(withdrawn=False).values_list("start_number", flat=True)
    )
    return PlanStatus(sorted(seated - active), sorted(active - seated))


@dataclass(frozen=True)
class SeatInfo:
    round_number: int
    table_number: int
    position: int
    table_kind: str
    companions: tuple[str, ...]
    deals_first: bool = False  # the entrant (at a pair table: the named player) deals game 1
    keeps_score: bool = False  # the entrant (at a pair table: the partner) keeps the sheet

    @property
    def pair(self) -> bool:
        return table_shape(self.table_kind).partners


def seat_info(seat: Seat, companions: tuple[str, ...]) -> SeatInfo:
    """Where an entrant sits in one round, with the roles the engine gives that seat."""
    shape = table_shape(seat.table.kind)
    column = seat.position - 1
    return SeatInfo(
        seat.table.round.number,
        seat.table.number,
        seat.position,
        seat.table.kind,
        companions,
        deals_first=shape.deals_first(column),
        keeps_score=shape.scorer_column == column,
    )


MAX_QUERY = 100
WHERE_MAX_HITS = 20  # entrants listed for one search on "Wo sitze ich?"
START_NUMBER = re.compile(r"[0-9]{1,9}")


def where_do_i_sit(tournament: Tournament, query: str) -> list[tuple[Entrant, list[SeatInfo]]]:
    """Find entrants by start number or (part of a) name — "Muller", "Mueller" and "muller"
    find "Müller" (``names.fold``) — and list their seat in every round; an entrant who has
    withdrawn is found too, with the rounds they played."""
    query = query.strip()[:MAX_QUERY]
    if not query:
        return []
    entrants = tournament.entrants.all()
    if START_NUMBER.fullmatch(query):  # ASCII digits only: "²" is a digit to str.isdigit
        found = list(entrants.filter(start_number=int(query)))
    else:
        # folded in Python: the databases fold differently (and SQLite not at all beyond
        # ASCII); a tournament's names are a few hundred short strings
        # (a name not to be shown publicly is not found by name either: by start number)
        candidates = entrants.order_by("start_number").values_list(
            "pk", "name", "partner", "public_name"
        )
        typed = NameQuery(query)
        hits = [
            pk
            for pk, name, partner, shown in candidates
            if (shown or not names_hidden()) and typed.found_in(name, partner)
        ]
        found = list(entrants.filter(pk__in=hits[:WHERE_MAX_HITS]).order_by("start_number"))
    seats = (
        Seat.objects.filter(entrant__in=found)
        .select_related("table__round", "entrant")
        .prefetch_related(Prefetch("table__seats", Seat.objects.select_related("entrant")))
        .order_by("table__round__number")
    )
    gone = [e.pk for e in found if e.withdrawn]
    played = set(  # a withdrawn entrant's rounds are those their table handed in a sheet for
        ScoreSheet.objects.filter(table__seats__entrant__in=gone).values_list("table", flat=True)
        if gone
        else ()
    )
    by_entrant: dict[int, list[SeatInfo]] = defaultdict(list)
    for seat in seats:
        if seat.entrant.withdrawn and seat.table_id not in played:
            continue
        companions = tuple(str(s.entrant) for s in seat.table.seats.all() if s.pk != seat.pk)
        by_entrant[seat.entrant_id].append(seat_info(seat, companions))
    return [(e, by_entrant.get(e.pk, [])) for e in found]
