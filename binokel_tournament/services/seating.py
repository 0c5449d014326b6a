"""The bridge between the ORM and the pairing engine: load, call, save (Tabbycat's DrawManager).

Table numbers in the hall run over the whole round: the Einzel tables first, then the pair
tables. A locked round (it has started) never changes."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Prefetch
from django.utils.translation import gettext as _

import pairing

from ..models import Competition, Entrant, Mode, Round, ScoreSheet, Seat, Table, Tournament
from .access import Action, Actor, require
from .audit import log_action
from .backup import schedule_backup
from .errors import DeskError, engine_error_text


def engine_entrants(entrants: Sequence[Entrant]) -> list[pairing.Entrant]:
    return [pairing.Entrant(e.start_number, e.club.strip().lower() or None) for e in entrants]


def active_entrants(competition: Competition) -> list[Entrant]:
    return list(competition.entrants.filter(withdrawn=False).order_by("start_number"))


def competition_tables(competition: Competition) -> list[Table]:
    return list(
        Table.objects.filter(competition=competition)
        .select_related("round")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("entrant")))
        .order_by("round__number", "number")
    )


def plan_from_db(competition: Competition) -> pairing.Plan | None:
    """The competition's current seating plan as an engine Plan (engine table numbers 1..T)."""
    tables = competition_tables(competition)
    if not tables:
        return None
    by_round: dict[int, list[Table]] = defaultdict(list)
    for table in tables:
        by_round[table.round.number].append(table)
    rounds = []
    for number in sorted(by_round):
        rounds.append(
            pairing.Round(
                number,
                tuple(
                    pairing.Table(
                        i,
                        pairing.TableKind(t.kind),
                        tuple(s.entrant.start_number for s in t.seats.all()),
                    )
                    for i, t in enumerate(by_round[number], start=1)
                ),
            )
        )
    return pairing.Plan(pairing.Mode(competition.mode), tuple(rounds))


def plan_snapshot(plan: pairing.Plan | None) -> dict[str, object] | None:
    return plan.to_dict() if plan is not None else None


@dataclass(frozen=True)
class SeatingSummary:
    plan: pairing.Plan
    quality: pairing.Quality


def locked_rounds(tournament: Tournament) -> int:
    """How many rounds have started (rounds 1..k locked)."""
    numbers = sorted(tournament.round_set.filter(locked=True).values_list("number", flat=True))
    played = 0
    for expected, number in enumerate(numbers, start=1):
        if number != expected:
            break
        played = number
    return played


def ensure_rounds(tournament: Tournament) -> list[Round]:
    for number in range(1, tournament.rounds + 1):
        Round.objects.get_or_create(tournament=tournament, number=number)
    return list(tournament.round_set.order_by("number"))


def _write_rounds(competition: Competition, plan: pairing.Plan, from_round: int) -> None:
    """Replace the competition's tables in rounds > from_round by the plan's, then renumber
    every affected round's tables in hall order (Einzel first, then pairs)."""
    tournament = competition.tournament
    rounds = {r.number: r for r in ensure_rounds(tournament)}
    entrants = {e.start_number: e for e in competition.entrants.all()}
    for engine_round in plan.rounds:
        if engine_round.number <= from_round:
            continue
        round_obj = rounds[engine_round.number]
        if round_obj.locked:
            raise DeskError(_("Der %(n)s. Durchgang ist gesperrt.") % {"n": round_obj.number})
        Table.objects.filter(round=round_obj, competition=competition).delete()
        top = max(round_obj.tables.values_list("number", flat=True), default=0)
        for table in engine_round.tables:
            t = Table.objects.create(
                round=round_obj,
                competition=competition,
                number=top + 1000 + table.number,
                kind=str(table.kind),
            )
            Seat.objects.bulk_create(
                Seat(table=t, entrant=entrants[n], position=pos)
                for pos, n in enumerate(table.seats, start=1)
            )
        _renumber_round(round_obj)


def _renumber_round(round_obj: Round) -> None:
    tables = list(round_obj.tables.select_related("competition").order_by("number"))
    tables.sort(key=lambda t: (t.competition.mode != Mode.SINGLES, t.number))
    big = 100000
    for i, t in enumerate(tables):
        t.number = big + i
    Table.objects.bulk_update(tables, ["number"])
    for i, t in enumerate(tables, start=1):
        t.number = i
    Table.objects.bulk_update(tables, ["number"])


def generate_seating(competition: Competition, seed: int = 0, user: Actor = None) -> SeatingSummary:
    """Plan every round of a competition from scratch (no round may have started)."""
    tournament = competition.tournament
    require(user, tournament, Action.SEATING)
    if locked_rounds(tournament) and plan_from_db(competition) is not None:
        raise DeskError(
            _(
                "Ein Durchgang hat schon begonnen: bitte „Neu planen“ verwenden, das lässt "
                "gespielte Durchgänge unverändert."
            )
        )
    entrants = active_entrants(competition)
    try:
        plan = pairing.make_plan(
            engine_entrants(entrants), pairing.Mode(competition.mode), tournament.rounds, seed
        )
    except pairing.PairingError as exc:
        raise DeskError(engine_error_text(exc)) from exc
    with transaction.atomic():
        before = plan_snapshot(plan_from_db(competition))
        _write_rounds(competition, plan, from_round=0)
        log_action(tournament, user, "seating.generate", competition, before, plan.to_dict())
        schedule_backup(tournament)
    return SeatingSummary(plan, pairing.check_plan(plan, engine_entrants(entrants)))


def replan_seating(competition: Competition, seed: int = 0, user: Actor = None) -> SeatingSummary:
    """Re-plan the rounds that have not started after withdrawals and late arrivals."""
    tournament = competition.tournament
    require(user, tournament, Action.SEATING)
    current = plan_from_db(competition)
    if current is None:
        return generate_seating(competition, seed, user)
    played = locked_rounds(tournament)
    entrants = active_entrants(competition)
    active = {e.start_number for e in entrants}
    withdraw, add_numbers = plan_changes(current, played, active)
    all_entrants = list(competition.entrants.order_by("start_number"))
    add = [e for e in engine_entrants(entrants) if e.start_number in add_numbers]
    try:
        plan = pairing.replan(
            current, played, engine_entrants(all_entrants), withdraw=withdraw, add=add, seed=seed
        )
    except pairing.PairingError as exc:
        raise DeskError(engine_error_text(exc)) from exc
    with transaction.atomic():
        _write_rounds(competition, plan, from_round=played)
        log_action(
            tournament, user, "seating.replan", competition, current.to_dict(), plan.to_dict()
        )
        schedule_backup(tournament)
    quality = pairing.check_plan(plan, engine_entrants(entrants), base=current, played=played)
    return SeatingSummary(plan, quality)


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


def plan_status(competition: Competition, plan: pairing.Plan | None = None) -> PlanStatus:
    plan = plan if plan is not None else plan_from_db(competition)
    if plan is None:
        return PlanStatus([], [])
    active = {e.start_number for e in active_entrants(competition)}
    withdrawn, missing = plan_changes(plan, locked_rounds(competition.tournament), active)
    return PlanStatus(withdrawn, missing)


def seating_quality(competition: Competition) -> pairing.Quality | None:
    plan = plan_from_db(competition)
    if plan is None:
        return None
    return pairing.check_plan(plan, engine_entrants(list(competition.entrants.all())))


def _round_has_results(round_obj: Round) -> bool:
    """Whether any sheet of the round holds a game (stored, or typed into a draft)."""
    sheets = ScoreSheet.objects.filter(table__round=round_obj)
    if sheets.filter(games__isnull=False).exists():
        return True
    typed = ("-meld", "-tricks", "-bid", "-declarer")
    return any(key.endswith(typed) for sheet in sheets.only("entries") for key in sheet.entries)


def set_round_locked(round_obj: Round, locked: bool, user: Actor = None) -> None:
    require(user, round_obj.tournament, Action.SEATING)
    if round_obj.locked == locked:
        return
    if not locked and _round_has_results(round_obj):
        raise DeskError(
            _("Für diesen Durchgang sind schon Ergebnisse erfasst; er bleibt gesperrt.")
        )
    round_obj.locked = locked
    round_obj.save(update_fields=["locked"])
    log_action(
        round_obj.tournament,
        user,
        "round.lock" if locked else "round.unlock",
        round_obj,  # type: ignore[arg-type]
        {"locked": not locked},
        {"locked": locked},
    )


@dataclass(frozen=True)
class SeatInfo:
    round_number: int
    table_number: int
    position: int
    table_kind: str
    companions: tuple[str, ...]


MAX_QUERY = 100
START_NUMBER = re.compile(r"[0-9]{1,9}")


def where_do_i_sit(tournament: Tournament, query: str) -> list[tuple[Entrant, list[SeatInfo]]]:
    """Find entrants by start number or (part of a) name and list their seat in every round."""
    query = query.strip()[:MAX_QUERY]
    if not query:
        return []
    entrants = tournament.entrants.filter(withdrawn=False)
    if START_NUMBER.fullmatch(query):  # ASCII digits only: "²" is a digit to str.isdigit
        entrants = entrants.filter(start_number=int(query))
    else:
        from django.db.models import Q

        entrants = entrants.filter(Q(name__icontains=query) | Q(partner__icontains=query))
    found = list(entrants.order_by("start_number")[:20])
    seats = (
        Seat.objects.filter(entrant__in=found)
        .select_related("table__round", "entrant")
        .prefetch_related(Prefetch("table__seats", Seat.objects.select_related("entrant")))
        .order_by("table__round__number")
    )
    by_entrant: dict[int, list[SeatInfo]] = defaultdict(list)
    for seat in seats:
        by_entrant[seat.entrant_id].append(
            SeatInfo(
                seat.table.round.number,
                seat.table.number,
                seat.position,
                seat.table.kind,
                tuple(str(s.entrant) for s in seat.table.seats.all() if s.pk != seat.pk),
            )
        )
    return [(e, by_entrant.get(e.pk, [])) for e in found]
