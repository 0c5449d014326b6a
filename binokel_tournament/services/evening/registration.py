"""Tournaments and registration: entrants with start numbers, unique within a tournament.
Every change checks the acting user's role (services.access)."""

from __future__ import annotations

import logging
import random
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring import RuleSet, ScoringError, get_preset

from ...models import (
    Category,
    Competition,
    Entrant,
    Membership,
    Mode,
    Role,
    Round,
    ScoreSheet,
    Seat,
    Tournament,
    Verein,
)
from .. import tenancy
from ..access import Action, Actor, account_id, require, require_create_tournament
from ..audit import audit_entry, log_action, log_many
from ..errors import DeskError, engine_error_text
from ..names import fold, folded_name

# Desk addresses beside the tournaments' own (/desk/neu/ ...): no tournament may take one as
# its short name, or its pages could not be reached (tests check this list against the URLs).
RESERVED_SLUGS = frozenset(
    {
        "neu",
        "sicherung-einspielen",
        "ergebnisdatei-einlesen",
        "spielerregister",
        "cup-serien",
        "verein",
        "vereinsserver",
        "kreis",
    }
)


def create_tournament(
    name: str,
    *,
    modes: Iterable[str] = (Mode.SINGLES, Mode.PAIRS),
    slug: str | None = None,
    creator: Actor = None,
    **fields: object,
) -> Tournament:
    """A new tournament of ``verein`` (a field; by default the creator's one Verein, or the
    installation's); its ``creator`` (an organiser of that Verein) becomes its organiser."""
    verein = fields.pop("verein", None) or tenancy.verein_for_new(creator)
    assert isinstance(verein, Verein)
    if creator is not None:
        require_create_tournament(creator, verein)
    fields["verein"] = verein
    base = slug or slugify(name) or "turnier"
    candidate, n = base, 1
    taken = Tournament.across_vereine  # a slug is the tournament's address on the server
    while candidate in RESERVED_SLUGS or taken.filter(slug=candidate).exists():
        n += 1
        candidate = f"{base}-{n}"
    with transaction.atomic():
        tournament = Tournament.objects.create(name=name, slug=candidate, **fields)
        for mode in modes:
            Competition.objects.create(tournament=tournament, mode=mode)
        if creator is not None:
            Membership.objects.create(
                tournament=tournament, user_id=account_id(creator), role=Role.ORGANISER
            )
            log_action(tournament, creator, "tournament.create", tournament, after={"name": name})
    return tournament


MAX_ROUNDS = 6


class SettingsRefused(DeskError):
    """Settings that break an invariant of the tournament; ``problems`` names each (the form
    shows them at their fields)."""

    def __init__(self, problems: list[DeskError]) -> None:
        super().__init__(" ".join(p.message for p in problems), problems[0].field)
        self.problems = problems


def settings_problems(
    tournament: Tournament | None, rules: RuleSet, rounds: int, modes: Iterable[str]
) -> list[DeskError]:
    """What is wrong with these settings (none: they may be saved). The invariants of a
    tournament's settings, in one place: 1–6 rounds; Paare only where the rule set has pair
    tables; and once it has begun — its scoring rules stay as they were when sheets exist
    (stored points would no longer match), its rounds cover the seating made, its
    competitions with entrants stay."""
    wanted = set(modes)
    problems = []
    if not 1 <= rounds <= MAX_ROUNDS:
        problems.append(DeskError(_("Zwischen 1 und 6 Durchgängen."), "rounds"))
    if Mode.PAIRS in wanted and "pairs" not in rules.table_kinds:
        problems.append(
            DeskError(
                _("Nach diesem Regelwerk gibt es keine Paartische: bitte nur Einzel wählen."),
                "competitions",
            )
        )
    if tournament is None or tournament.pk is None:
        return problems
    original = Tournament.objects.get(pk=tournament.pk)
    played = ScoreSheet.objects.filter(table__round__tournament=original).exists()
    if played and _scoring(rules) != _scoring(original.rules()):
        message = _(
            "Es sind schon Spielzettel erfasst: die Regeln können nicht mehr geändert werden."
        )
        problems.append(DeskError(message))
    seated = Round.objects.filter(tournament=original, tables__isnull=False).aggregate(
        top=Max("number")
    )["top"]
    if seated and rounds < seated:
        problems.append(
            DeskError(
                _("Es gibt schon einen Spielplan für %(n)s Durchgänge.") % {"n": seated}, "rounds"
            )
        )
    for competition in original.competitions.all():
        if competition.mode not in wanted and competition.entrants.exists():
            problems.append(
                DeskError(
                    _("Die Wertung %(name)s hat schon Teilnehmer.")
                    % {"name": competition.get_mode_display()},
                    "competitions",
                )
            )
    return problems


def _scoring(rules: RuleSet) -> dict[str, object]:
    """What scores the games (the number of rounds is the tournament's, checked apart)."""
    return {k: v for k, v in rules.to_dict().items() if k != "rounds"}


def rules_of(preset: str, rules_json: Mapping[str, object], rounds: int) -> RuleSet:
    """The rule set these settings make (the preset with the organiser's changes)."""
    return RuleSet.from_dict({**get_preset(preset).to_dict(), **rules_json, "rounds": rounds})


def update_settings(
    tournament: Tournament,
    user: Actor,
    fields: dict[str, object],
    rules_json: dict[str, object],
    modes: Iterable[str],
) -> Tournament:
    """Change a tournament's settings and rules and its competitions: wanted ones are added,
    unwanted ones without entrants go. Settings that break an invariant
    (``settings_problems``) are refused with ``SettingsRefused``, nothing changed."""
    require(user, tournament, Action.RULES)
    wanted = set(modes)
    preset = str(fields.get("preset", tournament.preset))
    rounds_value = fields.get("rounds", tournament.rounds)
    rounds = rounds_value if isinstance(rounds_value, int) else tournament.rounds
    try:
        rules = rules_of(preset, rules_json, rounds)
    except ScoringError as exc:
        raise SettingsRefused([DeskError(engine_error_text(exc))]) from exc
    before = {
        "preset": tournament.preset,
        "rules": tournament.rules().to_dict(),
        "rounds": tournament.rounds,
    }
    with transaction.atomic():
        problems = settings_problems(tournament, rules, rounds, wanted)
        if problems:
            raise SettingsRefused(problems)
        for key, value in fields.items():
            setattr(tournament, key, value)
        tournament.rules_json = rules_json
        tournament.save()
        for mode in wanted:
            Competition.objects.get_or_create(tournament=tournament, mode=mode)
        tournament.competitions.exclude(mode__in=wanted).filter(entrants__isnull=True).delete()
        log_action(
            tournament,
            user,
            "tournament.edit",
            tournament,
            before,
            {
                "preset": tournament.preset,
                "rules": tournament.rules().to_dict(),
                "rounds": tournament.rounds,
            },
        )
    return tournament


def next_start_number(tournament: Tournament) -> int:
    """The next registration's start number: a number freed by deleting a mistaken entry
    (the lowest), else one above the highest. Numbers left out on purpose (an import that
    numbers the pairs from 101) stay free."""
    freed = freed_start_numbers(tournament)
    if freed:
        return freed[0]
    top = tournament.entrants.aggregate(top=Max("start_number"))["top"]
    return (top or 0) + 1


def freed_start_numbers(tournament: Tournament) -> list[int]:
    """Start numbers of deleted entrants that nobody has taken since, lowest first."""
    deleted = tournament.audit_log.filter(action="entrant.delete").values_list("before", flat=True)
    numbers = {b["start_number"] for b in deleted if isinstance(b, dict) and "start_number" in b}
    taken = set(
        tournament.entrants.filter(start_number__in=numbers).values_list("start_number", flat=True)
    )
    return sorted(n for n in numbers - taken if isinstance(n, int))


logger = logging.getLogger("binokel.registration")

SEED_LIMIT = 1_000_000  # a random draw's logged seed is below this (short enough to type)
MAX_START_NUMBER = 99_999  # far beyond any hall; keeps every number a plain integer everywhere
NAME_MAX = Entrant._meta.get_field("name").max_length or 120
CLUB_MAX = Entrant._meta.get_field("club").max_length or 120


def check_entrant(competition: Competition, name: str, partner: str, club: str) -> None:
    """The registration rules, for a new entrant and for an edit alike."""
    if not name:
        raise DeskError(_("Bitte einen Namen eingeben."), "name")
    if competition.is_pairs and not partner:
        raise DeskError(_("Ein Paar braucht zwei Namen."), "partner")
    if not competition.is_pairs and partner:
        raise DeskError(_("In der Einzelwertung spielt jede/r für sich: nur ein Name."), "partner")
    for field_name, value, limit in (
        ("name", name, NAME_MAX),
        ("partner", partner, NAME_MAX),
        ("club", club, CLUB_MAX),
    ):
        if len(value) > limit:
            raise DeskError(
                _("Höchstens %(limit)s Zeichen (jetzt %(length)s).")
                % {"limit": limit, "length": len(value)},
                field_name,
            )


def checked_names(
    competition: Competition, name: str, partner: str, club: str
) -> tuple[str, str, str]:
    """The names as registered (stripped), checked under the registration rules."""
    name, partner, club = name.strip(), partner.strip(), club.strip()
    check_entrant(competition, name, partner, club)
    return name, partner, club


def _number_taken(number: int | None) -> DeskError:
    return DeskError(
        _("Die Startnummer %(number)s ist in diesem Turnier schon vergeben.") % {"number": number},
        "start_number",
    )


def register_entrant(
    competition: Competition,
    name: str,
    partner: str = "",
    club: str = "",
    *,
    start_number: int | None = None,
    unranked: bool = False,
    late: bool = False,
    categories: Sequence[str] = (),
    user: Actor = None,
) -> Entrant:
    """Register one entrant; a pair needs two names, a single player exactly one.

    Without ``start_number`` the next free number is taken; when another desk took it at the
    same moment, the next one is tried (the database's unique constraint decides)."""
    require(user, competition.tournament, Action.REGISTER)
    return _register(
        competition,
        name,
        partner,
        club,
        start_number=start_number,
        unranked=unranked,
        late=late,
        categories=categories,
        user=user,
    )


def _register(
    competition: Competition,
    name: str,
    partner: str,
    club: str,
    *,
    start_number: int | None,
    unranked: bool,
    late: bool,
    categories: Sequence[str] = (),
    fee_paid: bool = False,
    user: Actor,
) -> Entrant:
    name, partner, club = checked_names(competition, name, partner, club)
    if start_number is not None and not 1 <= start_number <= MAX_START_NUMBER:
        raise DeskError(
            _("Startnummern gehen von 1 bis %(max)s.") % {"max": MAX_START_NUMBER}, "start_number"
        )
    tournament = competition.tournament
    for _attempt in range(10):
        number = start_number or next_start_number(tournament)
        try:
            with transaction.atomic():
                entrant = Entrant.objects.create(
                    tournament=tournament,
                    competition=competition,
                    start_number=number,
                    name=name,
                    partner=partner,
                    club=club,
                    unranked=unranked,
                    late=late,
                    categories=checked_categories(categories),
                    fee_paid=fee_paid,
                )
        except IntegrityError as exc:
            if start_number is not None:
                raise _number_taken(start_number) from exc
            continue
        log_action(tournament, user, "entrant.register", entrant, after=entrant_snapshot(entrant))
        return entrant
    raise _number_taken(number)


def register_entrants(
    competition: Competition,
    people: Sequence[tuple[str, str, str]],
    *,
    late: bool = False,
    user: Actor = None,
) -> list[Entrant]:
    """Register many entrants at once — (name, partner, club) each, under the same rules as
    ``register_entrant`` — with the next free start numbers in the given order: all or
    nothing, in a few queries whatever their number (a big field for a rehearsal, an import
    that is known to be clean). When another desk takes a number at the same moment, the
    whole batch moves on to the next free ones."""
    require(user, competition.tournament, Action.REGISTER)
    rows = [checked_names(competition, name, partner, club) for name, partner, club in people]
    tournament = competition.tournament
    for _attempt in range(10):
        first = next_start_number(tournament)
        try:
            with transaction.atomic():
                entrants = Entrant.objects.bulk_create(
                    Entrant(
                        tournament=tournament,
                        competition=competition,
                        start_number=first + i,
                        name=name,
                        partner=partner,
                        club=club,
                        late=late,
                    )
                    for i, (name, partner, club) in enumerate(rows)
                )
                log_many(
                    tournament,
                    (
                        audit_entry(
                            tournament, user, "entrant.register", e, after=entrant_snapshot(e)
                        )
                        for e in entrants
                    ),
                )
        except IntegrityError:
            continue
        return entrants
    raise _number_taken(first)


def checked_categories(categories: Iterable[str]) -> list[str]:
    """The known categories among ``categories``, in their fixed order."""
    wanted = set(categories)
    return [c for c in Category.values if c in wanted]


def entrant_snapshot(entrant: Entrant) -> dict[str, object]:
    return {
        "categories": list(entrant.categories or []),
        "start_number": entrant.start_number,
        "name": entrant.name,
        "partner": entrant.partner,
        "club": entrant.club,
        "withdrawn": entrant.withdrawn,
        "late": entrant.late,
        "unranked": entrant.unranked,
        "fee_paid": entrant.fee_paid,
        "donation_paid": entrant.donation_paid,
    }


def update_entrant(entrant: Entrant, user: Actor = None, **changes: object) -> Entrant:
    """Edit an entrant under the registration rules; the start number is fixed once the
    entrant has a seat (printed plans use it)."""
    require(user, entrant.tournament, Action.EDIT_ENTRANTS)
    before = entrant_snapshot(entrant)
    if "start_number" in changes and changes["start_number"] != entrant.start_number:
        if entrant.seats.exists():
            raise DeskError(
                _("Die Startnummer steht schon im Spielplan und kann nicht mehr geändert werden."),
                "start_number",
            )
        number = changes["start_number"]
        if not isinstance(number, int) or not 1 <= number <= MAX_START_NUMBER:
            raise DeskError(
                _("Startnummern gehen von 1 bis %(max)s.") % {"max": MAX_START_NUMBER},
                "start_number",
            )
    for key, value in changes.items():
        if isinstance(value, str):
            value = value.strip()
        if key == "categories":
            value = checked_categories(value)  # type: ignore[arg-type]
        setattr(entrant, key, value)
    check_entrant(entrant.competition, entrant.name, entrant.partner, entrant.club)
    try:
        with transaction.atomic():
            entrant.save()
    except IntegrityError as exc:
        raise _number_taken(entrant.start_number) from exc
    log_action(
        entrant.tournament, user, "entrant.update", entrant, before, entrant_snapshot(entrant)
    )
    return entrant


def delete_entrant(entrant: Entrant, user: Actor = None) -> None:
    """Remove an entrant registered by mistake — only while it has no seat and no result."""
    require(user, entrant.tournament, Action.DELETE)
    if entrant.seats.exists() or entrant.results.exists():
        raise DeskError(_("Wer schon im Spielplan steht, wird abgemeldet statt gelöscht."))
    log_action(entrant.tournament, user, "entrant.delete", entrant, entrant_snapshot(entrant))
    entrant.delete()


class NumberingScheme:
    REGISTRATION = "registration"
    RANDOM = "random"
    CLUBS_SPLIT = "clubs"
    CHOICES = (REGISTRATION, RANDOM, CLUBS_SPLIT)


def club_split_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Interleave clubs so that neighbouring start numbers come from different clubs:
    largest club first, round robin over clubs (entrants without a club fill the gaps)."""
    by_club: dict[str, list[Entrant]] = defaultdict(list)
    for e in entrants:
        by_club[e.club.strip().lower()].append(e)
    queues = sorted(by_club.values(), key=lambda q: (-len(q), q[0].pk))
    order: list[Entrant] = []
    while any(queues):
        for queue in queues:
            if queue:
                order.append(queue.pop(0))
    return order


def renumber(
    tournament: Tournament, scheme: str, seed: int | None = None, user: Actor = None
) -> int | None:
    """Give every entrant of the tournament (Einzel and Paare alike) a new start number 1..N,
    only before any seating exists, since printed plans use the numbers. Returns the seed of a
    random draw."""
    require(user, tournament, Action.EDIT_ENTRANTS)
    if Seat.objects.filter(table__round__tournament=tournament).exists():
        raise DeskError(
            _("Startnummern können nach der Auslosung der Tische nicht mehr geändert werden.")
        )
    if scheme not in NumberingScheme.CHOICES:
        raise DeskError(_("Unbekanntes Verfahren für die Startnummern."), "scheme")
    entrants = list(tournament.entrants.order_by("created_at", "pk"))
    if scheme == NumberingScheme.RANDOM:
        if seed is None:  # a fresh draw; the seed is logged so the draw can be repeated
            seed = random.SystemRandom().randrange(1, SEED_LIMIT)
        random.Random(seed).shuffle(entrants)
    elif scheme == NumberingScheme.CLUBS_SPLIT:
        entrants = club_split_order(entrants)
    before = {e.pk: e.start_number for e in entrants}
    with transaction.atomic():
        offset = (max(before.values(), default=0) or 0) + len(entrants) + 1
        for i, e in enumerate(entrants):  # step 1: out of the way of the unique constraint
            e.start_number = offset + i
        Entrant.objects.bulk_update(entrants, ["start_number"])
        for i, e in enumerate(entrants, start=1):
            e.start_number = i
        Entrant.objects.bulk_update(entrants, ["start_number"])
    log_action(
        tournament,
        user,
        "entrants.renumber",
        tournament,
        before={str(k): v for k, v in before.items()},
        after={"scheme": scheme, "seed": seed, **{str(e.pk): e.start_number for e in entrants}},
    )
    return seed


@dataclass(frozen=True)
class ImportRow:
    line: int
    name: str
    partner: str = ""
    club: str = ""
    start_number: int | None = None
    categories: tuple[str, ...] = ()
    fee_paid: bool = False

    def key(self) -> tuple[str, str]:
        return (folded_name(self.name), folded_name(self.partner))


@dataclass(frozen=True)
class Duplicate:
    """A row that may be someone registered already (or another row of the file): stored only
    after the desk decided -- skip it, take it as a new entrant, or merge it into the match."""

    row: ImportRow
    match: str  # the entrant or row it matches, in words
    entrant_id: int | None  # the matching entrant (None: another row of the file)


@dataclass
class ImportReport:
    created: list[Entrant]
    rejected: list[tuple[int, str]]  # (line, reason)
    # columns read (their header as in the file) and columns not used, with why
    recognised: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    # rows waiting for the desk's decision: while any wait, nothing was stored
    pending: list[Duplicate] = field(default_factory=list)
    merged: list[Entrant] = field(default_factory=list)


DECISIONS = ("skip", "new", "merge")


ENTRANT_SHEETS = {"teilnehmer", "entrants", "anmeldungen"}

HEADER_ALIASES = {
    "name": {"name", "spieler", "spielerin", "spieler/in", "vorname nachname", "player", "name 1"},
    "partner": {"partner", "partnerin", "partner/in", "name 2", "spieler 2", "player 2"},
    "club": {"verein", "club", "ort", "gruppe"},
    "start_number": {"startnummer", "start-nr", "start-nr.", "nr", "nr.", "start number"},
    # a name split over two columns is joined: "Vorname Nachname"
    "first_name": {"vorname", "first name", "firstname", "vorname 1"},
    "last_name": {"nachname", "familienname", "last name", "surname", "nachname 1"},
    "partner_first_name": {"vorname 2", "partner vorname", "vorname partner/in"},
    "partner_last_name": {"nachname 2", "partner nachname", "nachname partner/in"},
    "categories": {"kategorie", "kategorien", "category", "categories", "gruppe/kategorie"},
    "fee_paid": {"bezahlt", "startgeld bezahlt", "startgeld", "paid", "fee paid", "entry fee"},
    "email": {"e-mail", "email", "mail", "e-mail-adresse", "email address"},
}
# recognised, but not kept by this version: named as ignored, with the reason
NOT_KEPT = {"email"}
CATEGORY_WORDS = {
    "damen": {"damen", "dame", "frau", "frauen", "women", "woman", "ladies", "lady"},
    "jugend": {"jugend", "jugendliche", "youth", "junior", "junioren"},
    "senioren": {"senioren", "senior", "seniorin", "seniors"},
    "gaeste": {"gaste", "gast", "gaeste", "guest", "guests"},
}
YES = {"ja", "j", "yes", "y", "x", "1", "true", "wahr", "bezahlt", "paid", "✓", "✔"}
NO = {"", "nein", "n", "no", "0", "false", "falsch", "offen", "open", "-", "–"}


def map_columns(header: Sequence[object]) -> dict[str, int]:
    """Map a header row to our fields by common German/English column names."""
    mapping: dict[str, int] = {}
    for index, cell in enumerate(header):
        label = str(cell or "").strip().lower()
        for field_name, aliases in HEADER_ALIASES.items():
            if label in aliases and field_name not in mapping:
                mapping[field_name] = index
                break
    if "name" not in mapping and "last_name" not in mapping:
        raise DeskError(
            _(
                "Die Tabelle braucht eine Spalte „Name“ oder „Vorname“ und „Nachname“ "
                "(gefunden: %(columns)s)."
            )
            % {"columns": ", ".join(str(c) for c in header if c)},
            "file",
        )
    return mapping


def ignored_columns(header: Sequence[object], mapping: Mapping[str, int]) -> list[str]:
    """The header's columns the import does not use, each with why."""
    used = {index for name, index in mapping.items() if name not in NOT_KEPT}
    out = []
    for index, cell in enumerate(header):
        label = str(cell or "").strip()
        if index in used or not label:
            continue
        if mapping.get("email") == index:
            out.append(_("%(column)s (erkannt, wird aber nicht gespeichert)") % {"column": label})
        else:
            out.append(_("%(column)s (unbekannte Spalte)") % {"column": label})
    return out


def _categories(text: str) -> tuple[str, ...] | str:
    """The categories named in a cell ("Damen, Senioren"), or the word not understood."""
    found = []
    for word in re.split(r"[,;/+]| und | and ", text):
        folded = fold(word)
        if not folded:
            continue
        match = next((c for c, words in CATEGORY_WORDS.items() if folded in words), None)
        if match is None:
            return word.strip()
        found.append(match)
    return tuple(checked_categories(found))


def rows_to_import(rows: Sequence[Sequence[object]]) -> list[ImportRow | tuple[int, str]]:
    """Turn raw table rows (first row = header) into ImportRows or (line, reason)."""
    if not rows:
        raise DeskError(_("Die Datei ist leer."), "file")
    mapping = map_columns(rows[0])
    out: list[ImportRow | tuple[int, str]] = []
    for line, row in enumerate(rows[1:], start=2):

        def cell(key: str, row: Sequence[object] = row) -> str:
            index = mapping.get(key)
            if index is None or index >= len(row) or row[index] is None:
                return ""
            value = row[index]
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            return str(value).strip()

        if not any(str(c or "").strip() for c in row):
            continue
        if any("\x00" in str(c or "") for c in row):
            out.append((line, _("Die Zeile enthält ein unzulässiges Steuerzeichen (Nullzeichen).")))
            continue
        number_text = cell("start_number")
        number: int | None = None
        if number_text:
            try:
                number = int(number_text[:20])
                if not 1 <= number <= MAX_START_NUMBER:
                    raise ValueError
            except ValueError:
                out.append(
                    (
                        line,
                        _("Startnummer „%(value)s“ ist keine Zahl von 1 bis %(max)s.")
                        % {"value": number_text[:20], "max": MAX_START_NUMBER},
                    )
                )
                continue
        categories = _categories(cell("categories"))
        if isinstance(categories, str):
            out.append(
                (line, _("Kategorie „%(value)s“ gibt es nicht.") % {"value": categories[:40]})
            )
            continue
        paid_text = fold(cell("fee_paid"))
        if paid_text not in YES and paid_text not in NO:
            out.append(
                (
                    line,
                    _("„%(value)s“ in „bezahlt“: bitte ja oder nein.")
                    % {"value": cell("fee_paid")[:20]},
                )
            )
            continue
        name = cell("name") or " ".join(filter(None, (cell("first_name"), cell("last_name"))))
        partner = cell("partner") or " ".join(
            filter(None, (cell("partner_first_name"), cell("partner_last_name")))
        )
        out.append(
            ImportRow(line, name, partner, cell("club"), number, categories, paid_text in YES)
        )
    return out


def _same_club(a: str, b: str) -> bool:
    return not a.strip() or not b.strip() or fold(a) == fold(b)


def find_duplicates(competition: Competition, items: Sequence[ImportRow]) -> list[Duplicate]:
    """Rows whose folded name (and partner) match an entrant of the tournament or an earlier
    row, where the clubs do not tell them apart."""
    known: dict[tuple[str, str], list[Entrant]] = defaultdict(list)
    for e in competition.tournament.entrants.filter(competition=competition):
        known[(folded_name(e.name), folded_name(e.partner))].append(e)
    seen: dict[tuple[str, str], list[ImportRow]] = defaultdict(list)
    out = []
    for item in items:
        entrant = next((e for e in known[item.key()] if _same_club(e.club, item.club)), None)
        earlier = next((r for r in seen[item.key()] if _same_club(r.club, item.club)), None)
        if entrant is not None:
            text = _("schon angemeldet: Nr. %(number)s %(name)s%(club)s") % {
                "number": entrant.start_number,
                "name": entrant.display_name,
                "club": f", {entrant.club}" if entrant.club else "",
            }
            out.append(Duplicate(item, text, entrant.pk))
        elif earlier is not None:
            text = _("wie Zeile %(line)s dieser Datei") % {"line": earlier.line}
            out.append(Duplicate(item, text, None))
        seen[item.key()].append(item)
    return out


def import_entrants(
    competition: Competition,
    rows: Sequence[Sequence[object]],
    user: Actor = None,
    decisions: Mapping[int, str] | None = None,
) -> ImportReport:
    """Import rows, all or report: every row is checked, rows that break a registration rule
    are listed with the reason and the others registered — in one transaction, so an import
    that fails on the way (the database refuses a value) leaves nothing half-imported and says
    so. Rows that ask for a start number are registered first, so an automatic number never
    takes one of theirs.

    A row that may be someone already registered (or another row) waits for ``decisions``
    (line -> skip, new or merge): while one has none, nothing at all is stored and the
    report lists them (``pending``). Every column is used or named as ignored."""
    require(user, competition.tournament, Action.EDIT_ENTRANTS)
    late = competition.tournament.round_set.filter(locked=True).exists()
    items = rows_to_import(rows)
    mapping = map_columns(rows[0])
    report = ImportReport(created=[], rejected=[])
    report.recognised = [
        str(rows[0][i]).strip()
        for name, i in sorted(mapping.items(), key=lambda m: m[1])
        if name not in NOT_KEPT
    ]
    report.ignored = ignored_columns(rows[0], mapping)
    report.rejected.extend(i for i in items if isinstance(i, tuple))
    good = [i for i in items if isinstance(i, ImportRow)]
    decisions = decisions or {}
    duplicates = {d.row.line: d for d in find_duplicates(competition, good)}
    report.pending = [d for line, d in duplicates.items() if decisions.get(line) not in DECISIONS]
    if report.pending:
        report.rejected.sort()
        return report  # nothing stored before the desk decided
    chosen: list[tuple[ImportRow, int | None]] = []
    for item in good:
        decision = decisions.get(item.line) if item.line in duplicates else "new"
        if decision == "skip":
            report.rejected.append((item.line, _("übersprungen (doppelt)")))
        elif decision == "merge" and duplicates[item.line].entrant_id is None:
            report.rejected.append((item.line, _("mit der gleichen Zeile zusammengeführt")))
        elif decision == "merge":
            chosen.append((item, duplicates[item.line].entrant_id))
        else:
            chosen.append((item, None))
    wanted = [c for c in chosen if c[1] is None and c[0].start_number is not None]
    automatic = [c for c in chosen if c[1] is None and c[0].start_number is None]
    merges = [(item, pk) for item, pk in chosen if pk is not None]
    try:
        with transaction.atomic():
            for item, _none in wanted + automatic:
                try:
                    entrant = _register(
                        competition,
                        item.name,
                        item.partner,
                        item.club,
                        start_number=item.start_number,
                        unranked=False,
                        late=late,
                        categories=item.categories,
                        fee_paid=item.fee_paid,  # stored and audited in the one step
                        user=user,
                    )
                    report.created.append(entrant)
                except DeskError as exc:
                    report.rejected.append((item.line, exc.message))
            for item, entrant_id in merges:
                report.merged.append(_merge(Entrant.objects.get(pk=entrant_id), item, user))
    except DatabaseError as exc:
        logger.exception("import into %s stopped", competition)
        raise DeskError(
            _("Der Import wurde abgebrochen, es wurde niemand übernommen: %(reason)s")
            % {"reason": str(exc)[:200]},
            "file",
        ) from exc
    report.rejected.sort()
    return report


def _merge(entrant: Entrant, item: ImportRow, user: Actor) -> Entrant:
    """What the row adds to an entrant already registered: a club it lacked, its categories,
    a Startgeld paid. Nothing the desk typed is overwritten."""
    changes: dict[str, object] = {}
    if item.club and not entrant.club:
        changes["club"] = item.club
    categories = checked_categories([*(entrant.categories or []), *item.categories])
    if categories != list(entrant.categories or []):
        changes["categories"] = categories
    if item.fee_paid and not entrant.fee_paid:
        changes["fee_paid"] = True
    return update_entrant(entrant, user, **changes) if changes else entrant


def read_table_file(filename: str, data: bytes) -> list[list[object]]:
    """Read a CSV (UTF-8 or Windows-1252, ``;`` or ``,``) or .xlsx upload into rows."""
    import csv
    import io

    if filename.lower().endswith(".xlsx"):
        from openpyxl import load_workbook

        try:
            workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises many kinds for a broken file
            raise DeskError(_("Die Excel-Datei kann nicht gelesen werden."), "file") from exc
        # our own rankings workbook has the entrants on a sheet of their own
        named = [ws for ws in workbook.worksheets if ws.title.strip().lower() in ENTRANT_SHEETS]
        sheet = named[0] if named else workbook.worksheets[0]
        return [list(r) for r in sheet.iter_rows(values_only=True)]
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:  # pragma: no cover - cp1252 decodes nearly everything
        raise DeskError(_("Die Datei ist keine Textdatei."), "file")
    try:
        dialect = csv.Sniffer().sniff(text[:2048], delimiters=";,\t")
    except csv.Error:
        dialect = csv.excel
    try:
        return [list(r) for r in csv.reader(io.StringIO(text), dialect)]
    except csv.Error as exc:  # e.g. a field longer than the csv module's limit
        raise DeskError(
            _("Die CSV-Datei kann nicht gelesen werden: %(reason)s") % {"reason": exc}, "file"
        ) from exc
