"""The demo tournament: realistic names and clubs, seating for every round, rounds 1..k scored
from really dealt hands (services.simulation). Deterministic for a given seed."""

from __future__ import annotations

import random
from datetime import date

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import (
    Category,
    Entrant,
    ExtraDonation,
    Membership,
    Mode,
    Player,
    PrizeMode,
    Role,
    Series,
    SeriesMethod,
    Special,
    Tournament,
    Verein,
)
from . import tenancy
from .errors import DeskError
from .evening.registration import create_tournament, register_entrants
from .evening.seating import generate_seating
from .evening.simulation import simulate_round
from .members import DEMO_PASSWORD
from .money.prizes import add_prize
from .rounds.writer import RoundChange, change_round

DEMO_SLUG = "benefizbinokel-demo"
DEMO_NAME = "Benefizbinokel Demo"
DEMO_SINGLES = 46  # one 4-table with a sitting-out dealer per round
DEMO_PAIRS = 12

FIRST_NAMES = [
    "Anna",
    "Bernd",
    "Christa",
    "Dieter",
    "Elke",
    "Fritz",
    "Gisela",
    "Hans",
    "Inge",
    "Jürgen",
    "Karin",
    "Lothar",
    "Margit",
    "Norbert",
    "Ottilie",
    "Peter",
    "Renate",
    "Siegfried",
    "Traudl",
    "Uwe",
    "Veronika",
    "Walter",
    "Ursula",
    "Günther",
    "Hildegard",
    "Manfred",
    "Rosemarie",
    "Eugen",
    "Liesel",
    "Gottlob",
    "Sabine",
    "Matthias",
    "Jörg",
    "Käthe",
    "Ömer",
    "Zoë",
]
SURNAMES = [
    "Müller",
    "Schäfer",
    "Häußler",
    "Bäuerle",
    "Schwöbel",
    "Kächele",
    "Maier",
    "Fischer",
    "Wößner",
    "Nägele",
    "Dürr",
    "Hölzle",
    "Schmid",
    "Weißhaar",
    "Böhringer",
    "Knödler",
    "Gölz",
    "Rößler",
    "Stäbler",
    "Zügel",
    "Ebinger",
    "Fröhlich",
    "Mäule",
    "Straßer",
]
WOMEN = frozenset(
    [
        "Anna",
        "Christa",
        "Elke",
        "Gisela",
        "Inge",
        "Karin",
        "Margit",
        "Ottilie",
        "Renate",
        "Traudl",
        "Veronika",
        "Ursula",
        "Hildegard",
        "Rosemarie",
        "Liesel",
        "Sabine",
        "Käthe",
        "Zoë",
    ]
)
DEMO_PRIZES = [
    ("Präsentkorb vom Dorfladen", 6000),
    ("Gutschein Gasthaus Krone", 4000),
    ("Kiste Apfelsaft", 2500),
    ("Binokel-Kartenspiel mit Widmung", 1200),
    ("Glas Honig vom Imker", 800),
]
CLUBS = [
    "CVJM Esslingen",
    "Posaunenchor Plochingen",
    "Kirchengemeinde Wendlingen",
    "Binokelfreunde Nürtingen",
    "EJ Köngen",
    "Sportverein Deizisau",
    "",
]


def ensure_users() -> AbstractUser:
    """The demo desk users: orga (admin) and kasse (second person for the double check).
    Their password is published: the hall server refuses to start while it is still set."""
    User = get_user_model()
    orga, created = User.objects.get_or_create(
        username="orga", defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        orga.set_password(DEMO_PASSWORD)
        orga.save()
    kasse, created = User.objects.get_or_create(username="kasse")
    if created:
        kasse.set_password(DEMO_PASSWORD)
        kasse.save()
    return orga


def ensure_demo_members(tournament: Tournament) -> None:
    """orga organises the demo tournament, kasse helps at the desk (enters and confirms)."""
    User = get_user_model()
    for username, role in (("orga", Role.ORGANISER), ("kasse", Role.HELPER)):
        user = User.objects.filter(username=username).first()
        if user is not None:
            Membership.objects.get_or_create(
                tournament=tournament, user=user, defaults={"role": role}
            )


def _names(rng: random.Random, count: int) -> list[str]:
    """``count`` different names; beyond the first- and surname pairs (enough for the default
    demo), double-barrelled surnames."""
    pool = [f"{f} {s}" for f in FIRST_NAMES for s in SURNAMES]
    rng.shuffle(pool)
    if count > len(pool):
        more = [f"{f} {a}-{b}" for f in FIRST_NAMES for a in SURNAMES for b in SURNAMES if a != b]
        rng.shuffle(more)
        pool += more
    return pool[:count]


def demo_slug(singles: int = DEMO_SINGLES, pairs: int = DEMO_PAIRS) -> str:
    """The demo's short name: the classic demo's, or one that names the field's size."""
    if (singles, pairs) == (DEMO_SINGLES, DEMO_PAIRS):
        return DEMO_SLUG
    return f"{DEMO_SLUG}-{singles}-{pairs}"


def demo_name(singles: int = DEMO_SINGLES, pairs: int = DEMO_PAIRS) -> str:
    """The demo's name: the classic demo's, or one that names the field's size."""
    if (singles, pairs) == (DEMO_SINGLES, DEMO_PAIRS):
        return DEMO_NAME
    return _("%(name)s (%(singles)s Einzel, %(pairs)s Paare)") % {
        "name": DEMO_NAME,
        "singles": singles,
        "pairs": pairs,
    }


def create_demo(
    singles: int = DEMO_SINGLES,
    pairs: int = DEMO_PAIRS,
    scored_rounds: int = 2,
    seed: int = 2026,
    slug: str = DEMO_SLUG,
    name: str = DEMO_NAME,
    verein: Verein | None = None,
) -> tuple[Tournament, bool]:
    """Create the demo tournament unless it exists; returns (tournament, created). It goes
    into ``verein`` (by default the installation's one Verein), whose organiser orga becomes.

    Any size works: entrants are registered in one batch, the pairing engine seats every
    round, and rounds 1..``scored_rounds`` are filled from dealt hands and saved through the
    desk's sheet service (``simulation.simulate_round``); the round after them is started (its
    table links take games), the later ones are planned."""
    existing = Tournament.objects.filter(slug=slug).first()
    user = ensure_users()
    if existing is None and verein is not None:  # `demo --verein`: orga runs that Verein
        tenancy.set_member(verein, user, Role.ORGANISER, None)
    verein = verein or tenancy.default_verein()
    if existing is not None:
        ensure_demo_members(existing)
        return existing, False
    if singles < 0 or pairs < 0 or not singles + pairs:
        raise DeskError(_("Die Demo braucht Teilnehmer in mindestens einer Wertung."))
    rng = random.Random(seed)
    modes = [mode for mode, count in ((Mode.SINGLES, singles), (Mode.PAIRS, pairs)) if count]
    with transaction.atomic():
        tournament = create_tournament(
            name,
            slug=slug,
            date=date(2026, 11, 28),
            venue="Gemeindehaus St. Martin, Esslingen",
            modes=modes,
            creator=user,
            verein=verein,
        )
        ensure_demo_members(tournament)
        competitions = {c.mode: c for c in tournament.competitions.all()}
        names = _names(rng, singles + 2 * pairs)
        players = [(name, "", rng.choice(CLUBS)) for name in names[:singles]]
        rest = names[singles:]
        couples = [(rest[2 * i], rest[2 * i + 1], rng.choice(CLUBS)) for i in range(pairs)]
        for mode, people in ((Mode.SINGLES, players), (Mode.PAIRS, couples)):
            if people:
                register_entrants(competitions[mode], people, user=user)
        for mode in modes:
            generate_seating(competitions[mode], seed=seed, user=user)
        rounds = list(tournament.round_set.order_by("number"))
        for round_obj in rounds[:scored_rounds]:
            simulate_round(round_obj, user, seed=seed)
        if scored_rounds < len(rounds):  # the evening goes on: the next round has started
            change_round(rounds[max(scored_rounds, 0)], RoundChange.START, user, despite_open=True)
        add_charity(tournament, seed)
    return tournament, True


def add_charity(tournament: Tournament, seed: int) -> None:
    """A charity evening on top (its own random stream: seating and points stay as they
    were): Startgeld 8 € per entrant, 0,50 € per lost game and 1 € from the fifth, most have
    paid, categories by first name and a few ages, a cake sale, a prize table per competition
    that the winners choose from, the special prizes."""
    rng = random.Random(seed + 13)
    Tournament.objects.filter(pk=tournament.pk).update(
        charity_purpose="die Jugendarbeit der Kirchengemeinde",
        entry_fee_cents=800,
        donation_tiers=[[1, 50], [5, 100]],
        prize_mode=PrizeMode.CHOICE,
    )
    tournament.refresh_from_db()
    entrants = list(tournament.entrants.order_by("start_number"))
    for e in entrants:
        categories = []
        if e.name.split()[0] in WOMEN:
            categories.append(Category.DAMEN)
        age = rng.random()
        if age < 0.12:
            categories.append(Category.JUGEND)
        elif age > 0.75:
            categories.append(Category.SENIOREN)
        if not e.club and rng.random() < 0.5:
            categories.append(Category.GAESTE)
        e.categories = [c for c in Category.values if c in categories]
        e.fee_paid = rng.random() < 0.8
    # the player register: everyone linked, most agreed; a cup of this evening
    players = Player.objects.bulk_create(
        Player(verein=tournament.verein, name=name, club=e.club, consent=rng.random() < 0.9)
        for e in entrants
        for name in filter(None, (e.name, e.partner))
    )
    it = iter(players)
    for e in entrants:
        e.player = next(it)
        e.partner_player = next(it) if e.partner else None
    Entrant.objects.bulk_update(entrants, ["categories", "fee_paid", "player", "partner_player"])
    cup, _created = Series.objects.get_or_create(
        verein=tournament.verein,
        slug=f"{tournament.slug}-cup",
        defaults={"name": "Binokel-Cup 2026", "method": SeriesMethod.CUP, "best": 3},
    )
    cup.tournaments.add(tournament)
    ExtraDonation.objects.create(
        tournament=tournament, description="Kuchenverkauf", amount_cents=8550
    )
    for competition in tournament.competitions.all():
        count = len(DEMO_PRIZES) if competition.mode == Mode.SINGLES else 3
        for description, value in DEMO_PRIZES[:count]:
            add_prize(competition, None, description, value)
        if competition.mode == Mode.SINGLES:
            add_prize(competition, None, "Ein Kartenspiel zum Üben", 500, Special.LATERNE)
            add_prize(competition, None, "Eine Flasche Sekt", 900, Special.TAUSENDER)
            add_prize(competition, None, "Blumenstrauß", 1500, Special.BEST_WOMAN)
