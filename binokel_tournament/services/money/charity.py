"""The charity evening's money, the bridge between the stored games and ``charity.money``:
Startgeld and paid/open per entrant, lost-game donations counted from the stored games, extra
donations by hand, and the evening's total. Recording payments needs RECORD_PAYMENTS (desk
helpers too); fees, the donation rule and the purpose need MANAGE_CHARITY (organisers)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import transaction
from django.db.models import QuerySet, Sum
from django.utils.translation import gettext as _

from charity.money import (
    DonationRule,
    EveningTotal,
    FeeRule,
    GameOutcome,
    Statement,
    evening_total,
    statement,
)

from ...models import Entrant, ExtraDonation, Mode, PartyResult, Tournament, display_name
from ...numbers import euro as euro_text
from ..access import Action, Actor, require
from ..audit import log_action
from ..errors import DeskError
from ..evening.standings import counted_statuses

CHARITY_FIELDS = (
    "charity_purpose",
    "entry_fee_cents",
    "fee_per_player",
    "donation_tiers",
    "donation_counts_conceded",
    "prize_mode",
    "one_prize_per_person",
    "club_best",
)
MAX_CENTS = 10_000_000  # 100.000 € — more is a typing mistake


def fee_rule(tournament: Tournament) -> FeeRule:
    return FeeRule(tournament.entry_fee_cents, tournament.fee_per_player)


def donation_rule(tournament: Tournament) -> DonationRule:
    return DonationRule.from_pairs(
        tournament.donation_tiers or [], tournament.donation_counts_conceded
    )


def describe_donation(tournament: Tournament) -> str:
    """The tournament's donation rule in words, "0,50 € je verlorenem Spiel, ab dem 5. 1,00 €",
    for the desk and the slips (from the one rule: ``donation_rule``)."""
    rule = donation_rule(tournament)
    if not rule.active:
        return _("keine Spende je verlorenem Spiel")
    parts = []
    for tier in rule.tiers:
        if tier.from_lost == 1:
            parts.append(_("%(amount)s je verlorenem Spiel") % {"amount": euro_text(tier.cents)})
        else:
            parts.append(
                _("ab dem %(n)s. verlorenen Spiel %(amount)s")
                % {"n": tier.from_lost, "amount": euro_text(tier.cents)}
            )
    text = ", ".join(parts)
    if rule.count_conceded:
        text += " " + _("(abgeschriebene Spiele zählen mit)")
    return text


def has_money(tournament: Tournament) -> bool:
    """Whether the tournament collects anything (a fee, a donation rule or extra donations)."""
    return bool(
        tournament.entry_fee_cents
        or donation_rule(tournament).active
        or tournament.extra_donations.exists()
    )


def declared_games(tournament: Tournament) -> dict[int, list[GameOutcome]]:
    """The games each entrant declared and lost on a counted sheet, by entrant id. Only a
    declarer can lose a game and a won game is never lost (``charity.money.is_lost``), so the
    rest need not be loaded: the engine still decides which of these count (a conceded game,
    say)."""
    rows = PartyResult.objects.filter(
        entrant__tournament=tournament,
        is_declarer=True,
        game__won=False,
        game__sheet__status__in=counted_statuses(tournament),
    )
    out: dict[int, list[GameOutcome]] = defaultdict(list)
    for entrant_id, kind in rows.values_list("entrant_id", "game__kind"):
        out[entrant_id].append(GameOutcome(kind, is_declarer=True, won=False))
    return out


@dataclass(frozen=True)
class EntrantStatement:
    entrant: Entrant
    statement: Statement


def players_of_mode(mode: str) -> int:
    return 2 if mode == Mode.PAIRS else 1


@dataclass(frozen=True)
class Accounts:
    """What every statement of a tournament needs, read once: the fee and donation rules,
    the lost games by entrant, and which withdrawn entrants played."""

    fee: FeeRule
    rule: DonationRule
    games: dict[int, list[GameOutcome]]
    withdrawn_played: set[int]

    @classmethod
    def of(cls, tournament: Tournament) -> Accounts:
        played = PartyResult.objects.filter(entrant__tournament=tournament, entrant__withdrawn=True)
        return cls(
            fee_rule(tournament),
            donation_rule(tournament),
            declared_games(tournament),
            set(played.values_list("entrant_id", flat=True).distinct()),
        )

    def statement(
        self,
        entrant_id: int,
        start_number: int,
        name: str,
        mode: str,
        withdrawn: bool,
        fee_paid: bool,
        donation_paid: bool,
        unranked: bool = False,
    ) -> Statement | None:
        """The entrant's statement; None for a withdrawn entrant who never played (owes
        nothing and is not listed)."""
        if withdrawn and entrant_id not in self.withdrawn_played:
            return None
        return statement(
            start_number,
            name,
            players_of_mode(mode),
            self.games.get(entrant_id, ()),
            self.fee,
            self.rule,
            fee_paid,
            donation_paid,
            unranked,
        )

    def of_entrant(self, e: Entrant) -> Statement | None:
        return self.statement(
            e.pk,
            e.start_number,
            e.display_name,
            e.competition.mode,
            e.withdrawn,
            e.fee_paid,
            e.donation_paid,
            e.unranked,
        )


def statements(tournament: Tournament, mode: str | None = None) -> list[EntrantStatement]:
    """One statement per entrant (by start number): Startgeld, lost games and donation, what
    is paid. A withdrawn entrant who never played owes nothing and is not listed."""
    accounts = Accounts.of(tournament)
    # the two competitions once, shared by every entrant (not a copy joined into each row)
    entrants = tournament.entrants.prefetch_related("competition").order_by("start_number")
    if mode:
        entrants = entrants.filter(competition__mode=mode)
    out = []
    for e in entrants:
        s = accounts.of_entrant(e)
        if s is not None:
            out.append(EntrantStatement(e, s))
    return out


def donations_by_entrant(tournament: Tournament, mode: str) -> dict[int, int]:
    """Entrant id -> the donation so far, in cents, of one competition (the players' own
    pages), from plain values like ``_all_statements``."""
    return {
        pk: s.donation_cents
        for pk, s in _statements_of(tournament, tournament.entrants.filter(competition__mode=mode))
    }


def _all_statements(tournament: Tournament) -> Iterator[Statement]:
    """Every entrant's statement from plain values, without model instances: the dashboard
    and the beamer show the evening's total on every load, of every entrant of a big field."""
    for _pk, s in _statements_of(tournament, tournament.entrants.all()):
        yield s


def _statements_of(
    tournament: Tournament, entrants: QuerySet[Entrant]
) -> Iterator[tuple[int, Statement]]:
    accounts = Accounts.of(tournament)
    rows = entrants.values_list(
        "pk",
        "start_number",
        "name",
        "partner",
        "competition__mode",
        "withdrawn",
        "fee_paid",
        "donation_paid",
        "unranked",
    )
    for pk, number, name, partner, mode, withdrawn, fee_paid, donation_paid, unranked in rows:
        s = accounts.statement(
            pk,
            number,
            display_name(name, partner),
            mode,
            withdrawn,
            fee_paid,
            donation_paid,
            unranked,
        )
        if s is not None:
            yield pk, s


def extra_cents(tournament: Tournament) -> int:
    return int(tournament.extra_donations.aggregate(s=Sum("amount_cents"))["s"] or 0)


def evening(tournament: Tournament, items: list[EntrantStatement] | None = None) -> EveningTotal:
    """The evening's total: Startgeld + donations + extra donations, and what is paid."""
    extras = tournament.extra_donations.values_list("amount_cents", flat=True)
    if items is None:
        return evening_total(_all_statements(tournament), extras)
    return evening_total((i.statement for i in items), extras)


def set_paid(
    entrant: Entrant,
    user: Actor,
    *,
    fee_paid: bool | None = None,
    donation_paid: bool | None = None,
) -> Entrant:
    """Mark Startgeld and/or donation of an entrant as paid or open."""
    require(user, entrant.tournament, Action.RECORD_PAYMENTS)
    with transaction.atomic():
        fresh = Entrant.objects.select_for_update().get(pk=entrant.pk)
        before = {"fee_paid": fresh.fee_paid, "donation_paid": fresh.donation_paid}
        if fee_paid is not None:
            fresh.fee_paid = fee_paid
        if donation_paid is not None:
            fresh.donation_paid = donation_paid
        after = {"fee_paid": fresh.fee_paid, "donation_paid": fresh.donation_paid}
        if after != before:
            fresh.save(update_fields=["fee_paid", "donation_paid"])
            log_action(fresh.tournament, user, "entrant.payment", fresh, before, after)
    entrant.fee_paid, entrant.donation_paid = fresh.fee_paid, fresh.donation_paid
    return entrant


def add_extra_donation(
    tournament: Tournament, user: Actor, description: str, cents: int
) -> ExtraDonation:
    require(user, tournament, Action.RECORD_PAYMENTS)
    description = description.strip()
    if not description:
        raise DeskError(_("Bitte angeben, wofür oder von wem die Spende ist."), "description")
    if not 0 < cents <= MAX_CENTS:
        raise DeskError(_("Der Betrag muss größer als 0 sein."), "amount")
    donation = ExtraDonation.objects.create(
        tournament=tournament, description=description, amount_cents=cents
    )
    log_action(
        tournament,
        user,
        "donation.add",
        donation,
        after={"description": description, "amount_cents": cents},
    )
    return donation


def remove_extra_donation(donation: ExtraDonation, user: Actor) -> None:
    require(user, donation.tournament, Action.MANAGE_CHARITY)
    log_action(
        donation.tournament,
        user,
        "donation.remove",
        donation,
        {"description": donation.description, "amount_cents": donation.amount_cents},
    )
    donation.delete()


def update_charity_settings(
    tournament: Tournament, user: Actor, fields: dict[str, object]
) -> Tournament:
    """Fees, donation rule, purpose, prize mode, club ranking (organisers only)."""
    require(user, tournament, Action.MANAGE_CHARITY)
    unknown = set(fields) - set(CHARITY_FIELDS)
    if unknown:
        raise ValueError(f"not charity settings: {sorted(unknown)}")
    with transaction.atomic():
        fresh = Tournament.objects.select_for_update().get(pk=tournament.pk)
        before = {k: getattr(fresh, k) for k in CHARITY_FIELDS}
        for key, value in fields.items():
            setattr(fresh, key, value)
        fresh.save(update_fields=list(fields))
        after = {k: getattr(fresh, k) for k in CHARITY_FIELDS}
        log_action(fresh, user, "tournament.charity", fresh, before, after)
    return fresh
