"""The prize table, the bridge between the stored standings and ``charity.prizes``: prizes
per competition, the winners in rank order or by their choice (recorded live at the desk;
the beamer shows who chooses next), the special prizes. Prize table: MANAGE_CHARITY
(organisers); recording a choice: RECORD_PRIZE_CHOICES (desk helpers too)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from charity import prizes as rules

from ...models import Competition, Entrant, PartyResult, Prize, PrizeMode, Special, Tournament
from ..access import Action, Actor, require
from ..audit import log_action
from ..errors import DeskError
from ..evening.standings import compute_standings, counted_statuses

CHOICE_ERRORS = {
    "unknown_prize": lambda: _("Diesen Preis gibt es nicht zur Wahl."),
    "taken": lambda: _("Dieser Preis ist schon gewählt."),
    "all_chosen": lambda: _("Alle Preise sind schon gewählt."),
    "not_their_turn": lambda: _("Jetzt wählt jemand anderes."),
}


def prize_rule(prize: Prize) -> rules.Prize:
    return rules.Prize(
        prize.pk,
        prize.position,
        prize.description,
        prize.value_cents,
        rules.Special(prize.special),
        prize.withdrawn_may_win,
    )


# Who wins a special prize, in words: printed beside the prize (desk, beamer, certificates).
SPECIAL_RULES = {
    Special.LATERNE: lambda: _("der letzte Platz unter denen, die jeden Durchgang gespielt haben"),
    Special.TAUSENDER: lambda: _(
        "das höchste Spiel ab 1000 Punkten; bei Gleichstand der frühere Durchgang, dann die "
        "kleinere Startnummer"
    ),
    Special.BEST_WOMAN: lambda: _("die bestplatzierte Teilnehmerin der Kategorie Damen"),
}


def special_rule(prize: Prize) -> str:
    """How the prize's winner is found, with who may win it."""
    text = SPECIAL_RULES[Special(prize.special)]() if prize.special else ""
    if prize.withdrawn_may_win:
        extra = _("auch Abgemeldete")
    else:
        extra = _("ohne Abgemeldete und Teilnehmer außer Konkurrenz")
    if text and prize.tournament.one_prize_per_person:
        text = _("%(rule)s, unter denen ohne anderen Preis") % {"rule": text}
    return f"{text} ({extra})" if text else extra


def contenders(competition: Competition) -> tuple[list[rules.Contender], dict[int, Entrant]]:
    """The competition's ranked entrants who played, best first, with their best game (its
    points and earliest round), categories, whether they withdrew and played every round;
    and the entrants by id."""
    standings = compute_standings(competition)
    best: dict[int, tuple[int, int]] = {}  # entrant -> (points, round) of the best game
    for entrant_id, round_number, points in (
        PartyResult.objects.filter(
            entrant__competition=competition,
            game__sheet__status__in=counted_statuses(competition.tournament),
        )
        .values("entrant_id", "round_number")
        .annotate(best=Max("points"))
        .values_list("entrant_id", "round_number", "best")
        .order_by("round_number")
    ):
        known = best.get(entrant_id)
        if known is None or points > known[0]:
            best[entrant_id] = (points, round_number)
    ranking = [
        rules.Contender(
            row.entrant.pk,
            row.place,
            best.get(row.entrant.pk, (0, 0))[0],
            frozenset(row.entrant.categories or []),
            start_number=row.entrant.start_number,
            best_round=best.get(row.entrant.pk, (0, 0))[1],
            withdrawn=row.entrant.withdrawn,
            every_round=all(p is not None for p in row.round_points),
        )
        for row in standings.rows
        if row.place is not None and row.games > 0
    ]
    return ranking, {row.entrant.pk: row.entrant for row in standings.rows}


@dataclass(frozen=True)
class AwardRow:
    prize: Prize
    entrant: Entrant | None
    place: int | None

    @property
    def rule(self) -> str:
        """Who may win it and, for a special prize, how the winner is found."""
        return special_rule(self.prize)


@dataclass
class PrizeTable:
    competition: Competition
    mode: str
    rows: list[AwardRow]
    next_chooser: Entrant | None
    next_place: int | None
    open_prizes: list[Prize]  # place prizes still to choose


def prize_table(competition: Competition) -> PrizeTable:
    tournament = competition.tournament
    prizes = list(competition.prizes.order_by("position", "id"))
    by_id = {p.pk: p for p in prizes}
    ranking, entrants = contenders(competition)
    choices = {p.pk: p.chosen_by_id for p in prizes if p.chosen_by_id is not None}
    mode = rules.PrizeMode(tournament.prize_mode)
    awarded = rules.awards(
        [prize_rule(p) for p in prizes],
        ranking,
        mode,
        choices,
        one_per_person=tournament.one_prize_per_person,
    )
    for entrant_id in choices.values():
        if entrant_id not in entrants:  # chose, then withdrew or was corrected away
            entrants[entrant_id] = Entrant.objects.get(pk=entrant_id)
    rows = [
        AwardRow(
            by_id[a.prize.id],
            entrants.get(a.entrant_id) if a.entrant_id is not None else None,
            a.place,
        )
        for a in awarded
    ]
    turn = rules.next_to_choose([prize_rule(p) for p in prizes], ranking, choices)
    open_prizes = [p for p in prizes if p.special == Special.NONE and p.pk not in choices]
    return PrizeTable(
        competition,
        tournament.prize_mode,
        rows,
        entrants.get(turn.entrant_id) if turn and mode == rules.PrizeMode.CHOICE else None,
        turn.place if turn and mode == rules.PrizeMode.CHOICE else None,
        open_prizes,
    )


def add_prize(
    competition: Competition,
    user: Actor,
    description: str,
    value_cents: int = 0,
    special: str = Special.NONE,
    *,
    withdrawn_may_win: bool = False,
) -> Prize:
    tournament = competition.tournament
    require(user, tournament, Action.MANAGE_CHARITY)
    description = description.strip()
    if not description:
        raise DeskError(_("Bitte den Preis beschreiben."), "description")
    if special not in Special.values:
        raise DeskError(_("Diese Art von Preis gibt es nicht."), "special")
    if special and competition.prizes.filter(special=special).exists():
        raise DeskError(_("Diesen Sonderpreis gibt es in der Wertung schon."), "special")
    with transaction.atomic():
        last = competition.prizes.aggregate(m=Max("position"))["m"] or 0
        prize = Prize.objects.create(
            tournament=tournament,
            competition=competition,
            position=last + 1,
            description=description,
            value_cents=value_cents,
            special=special,
            withdrawn_may_win=withdrawn_may_win,
        )
        log_action(
            tournament,
            user,
            "prize.add",
            prize,
            after={
                "description": description,
                "value_cents": value_cents,
                "special": special,
                "withdrawn_may_win": withdrawn_may_win,
            },
        )
    return prize


def remove_prize(prize: Prize, user: Actor) -> None:
    require(user, prize.tournament, Action.MANAGE_CHARITY)
    if prize.chosen_by_id is not None:
        raise DeskError(_("Dieser Preis ist schon gewählt: erst die Wahl zurücknehmen."))
    log_action(prize.tournament, user, "prize.remove", prize, {"description": prize.description})
    prize.delete()


def record_choice(prize: Prize, entrant: Entrant, user: Actor) -> Prize:
    """The entrant whose turn it is takes this prize (checked under a lock, so two desks
    recording at once cannot give one prize twice or skip a winner)."""
    tournament = prize.tournament
    require(user, tournament, Action.RECORD_PRIZE_CHOICES)
    if tournament.prize_mode != PrizeMode.CHOICE:
        raise DeskError(_("In diesem Turnier werden die Preise nach Platz vergeben."))
    competition = prize.competition
    try:
        with transaction.atomic():
            prizes = list(competition.prizes.select_for_update().order_by("position", "id"))
            ranking, _entrants = contenders(competition)
            choices = {p.pk: p.chosen_by_id for p in prizes if p.chosen_by_id is not None}
            problem = rules.check_choice(
                [prize_rule(p) for p in prizes], ranking, choices, prize.pk, entrant.pk
            )
            if problem is not None:
                raise DeskError(CHOICE_ERRORS[problem]())
            fresh = next(p for p in prizes if p.pk == prize.pk)
            fresh.chosen_by = entrant
            fresh.chosen_at = timezone.now()
            fresh.save(update_fields=["chosen_by", "chosen_at"])
            log_action(
                tournament,
                user,
                "prize.choose",
                fresh,
                None,
                {"prize": fresh.description, "entrant": entrant.start_number},
            )
    except IntegrityError as exc:
        raise DeskError(CHOICE_ERRORS["taken"]()) from exc
    return fresh


def undo_choice(prize: Prize, user: Actor) -> Prize:
    """Take a recorded choice back (a mistake at the desk); the entrant chooses again."""
    require(user, prize.tournament, Action.RECORD_PRIZE_CHOICES)
    with transaction.atomic():
        fresh = Prize.objects.select_for_update().get(pk=prize.pk)
        if fresh.chosen_by_id is None:
            return fresh
        before = {"prize": fresh.description, "entrant": fresh.chosen_by_id}
        fresh.chosen_by = None
        fresh.chosen_at = None
        fresh.save(update_fields=["chosen_by", "chosen_at"])
        log_action(prize.tournament, user, "prize.unchoose", fresh, before, None)
    return fresh


def tournament_prize_tables(tournament: Tournament) -> list[PrizeTable]:
    return [
        prize_table(c)
        for c in sorted(tournament.competitions.all(), key=lambda c: c.mode != "singles")
        if c.prizes.exists()
    ]
