"""The demo tournament: realistic names and clubs, seating for every round, rounds 1..k scored
from really dealt hands (services.simulation). Deterministic for a given seed."""

from __future__ import annotations

import random
from datetime import date

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction

from ..models import Membership, Mode, Role, Tournament
from .registration import create_tournament, register_entrant
from .seating import generate_seating
from .simulation import simulate_round

DEMO_SLUG = "benefizbinokel-demo"
DEMO_PASSWORD = "binokel"

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
    return orga  # type: ignore[return-value]


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
    pool = [f"{f} {s}" for f in FIRST_NAMES for s in SURNAMES]
    rng.shuffle(pool)
    return pool[:count]


def create_demo(
    singles: int = 46,
    pairs: int = 12,
    scored_rounds: int = 2,
    seed: int = 2026,
    slug: str = DEMO_SLUG,
) -> tuple[Tournament, bool]:
    """Create the demo tournament unless it exists; returns (tournament, created)."""
    existing = Tournament.objects.filter(slug=slug).first()
    user = ensure_users()
    if existing is not None:
        ensure_demo_members(existing)
        return existing, False
    rng = random.Random(seed)
    with transaction.atomic():
        tournament = create_tournament(
            "Benefizbinokel Demo",
            slug=slug,
            date=date(2026, 11, 28),
            venue="Gemeindehaus St. Martin, Esslingen",
            modes=(Mode.SINGLES, Mode.PAIRS),
            creator=user,
        )
        ensure_demo_members(tournament)
        single_comp = tournament.competitions.get(mode=Mode.SINGLES)
        pair_comp = tournament.competitions.get(mode=Mode.PAIRS)
        names = _names(rng, singles + 2 * pairs)
        for name in names[:singles]:
            register_entrant(single_comp, name, club=rng.choice(CLUBS), user=user)
        rest = names[singles:]
        for i in range(pairs):
            register_entrant(pair_comp, rest[2 * i], rest[2 * i + 1], rng.choice(CLUBS), user=user)
        generate_seating(single_comp, seed=seed, user=user)
        generate_seating(pair_comp, seed=seed, user=user)
        for round_obj in tournament.round_set.order_by("number")[:scored_rounds]:
            simulate_round(round_obj, user, seed=seed)
    return tournament, True
