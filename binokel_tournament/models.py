"""Data model: Tournament → Competition → Entrant; Tournament → Round → Table → Seat;
Table → ScoreSheet → Game → PartyResult; Tournament → Membership (user, role). Points are
stored when a sheet is saved; standings aggregate stored points in SQL and never re-score games
per request. Timestamps that a backup carries are plain defaults (not auto_now_add), so a
restore keeps them."""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from functools import cached_property, lru_cache
from typing import Any, ClassVar, Self

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_scopes import ScopedManager

from scoring import GameKind as EngineGameKind
from scoring import RuleSet, get_preset


# The enumerations are defined once in the engines (pairing.Mode, scoring.tables.TableKind,
# scoring.GameKind); these choices mirror them with German labels (a test checks they match).
class Mode(models.TextChoices):
    SINGLES = "singles", _("Einzel")
    PAIRS = "pairs", _("Paare")


class TableKind(models.TextChoices):
    THREE = "three", _("Dreiertisch")
    PAIRS = "pairs", _("Paartisch")
    FOUR_SITOUT = "four_sitout", _("Vierertisch (Geber setzt aus)")


class GameKind(models.TextChoices):
    PLAYED = "played", _("gespielt")
    CONCEDED = "conceded", _("abgeschrieben")
    DURCH = "durch", _("Durch")
    DURCH_AUFGELEGT = "aufgelegt", _("Durch aufgelegt")
    BETTEL = "bettel", _("Bettel")


# The letter that stands for a kind of game: typed at the desk, printed on the paper sheet
# (the engine's ``GameKind.letter``).
GAME_KIND_KEYS: dict[str, str] = {kind.value: kind.letter for kind in EngineGameKind}


class PrizeMode(models.TextChoices):
    RANK = "rank", _("Plätze bekommen die Preise der Reihe nach")
    CHOICE = "choice", _("Gewinner wählen in der Reihenfolge der Plätze")


class Special(models.TextChoices):
    NONE = "", _("Platzpreis")
    LATERNE = "laterne", _("Rote Laterne (letzter Platz)")
    TAUSENDER = "tausender", _("Tausender (höchstes Spiel ab 1000)")
    BEST_WOMAN = "best_woman", _("Beste Dame")


# a special prize's short name, for labels beside the organiser's own description ("Grablicht
# (Rote Laterne)"): the choice's label explains the rule and holds brackets of its own
SPECIAL_NAMES = {
    Special.LATERNE: _("Rote Laterne"),
    Special.TAUSENDER: _("Tausender"),
    Special.BEST_WOMAN: _("Beste Dame"),
}


class Category(models.TextChoices):
    DAMEN = "damen", _("Damen")
    JUGEND = "jugend", _("Jugend")
    SENIOREN = "senioren", _("Senioren")
    GAESTE = "gaeste", _("Gäste")


class Verein(models.Model):  # type: ignore[django-manager-missing]  # scoped managers
    """A club (or a district, Kreis/Verband) on a server for many clubs: it owns its
    tournaments, its player register and its cups; its members' roles apply to all its
    tournaments. A laptop has one Verein and never shows it (``services.tenancy``)."""

    name = models.CharField(_("Name"), max_length=200)
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True)
    club_server = models.URLField(
        _("Vereinsserver"),
        blank=True,
        help_text=_("Die Adresse des Vereinsservers, von dem dieser Laptop Anmeldungen holt."),
    )
    district = models.BooleanField(
        _("Kreis/Verband"),
        default=False,
        help_text=_("Sein Cup nimmt Abende der Mitgliedsvereine an."),
    )
    member_of = models.ManyToManyField(
        "self",
        symmetrical=False,
        related_name="member_clubs",
        blank=True,
        limit_choices_to={"district": True},
        verbose_name=_("Mitglied im Kreis/Verband"),
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("Verein")
        verbose_name_plural = _("Vereine")

    def __str__(self) -> str:
        return self.name


DEFAULT_VEREIN_NAME = "Mein Verein"


def the_one_verein() -> int | None:
    """Where what is made without naming a Verein goes (the default of every ``verein``
    field): the installation's one Verein, made on first use. An installation of several has
    none (a form's empty instance is still made; saving it without a Verein is refused by the
    database): there, the Verein is always named (services/tenancy.py)."""
    first_two = list(Verein.objects.order_by("pk").values_list("pk", flat=True)[:2])
    if len(first_two) == 1:
        return first_two[0]
    if first_two:
        return None
    verein, _made = Verein.objects.get_or_create(
        slug="mein-verein", defaults={"name": DEFAULT_VEREIN_NAME}
    )
    return verein.pk


class Player(models.Model):  # type: ignore[django-manager-missing]  # scoped manager
    """The player register: a person who plays (and may return) across tournaments, so a
    series can follow them. Entrants are linked to players explicitly at the desk; a
    player's entry is deleted on request (their tournaments keep the names they played
    under). ``uid`` names the player in backups across installations."""

    verein = models.ForeignKey(
        Verein, on_delete=models.PROTECT, related_name="players", default=the_one_verein
    )
    uid = models.UUIDField(default=uuid.uuid4, editable=False)
    name = models.CharField(_("Name"), max_length=120)
    club = models.CharField(_("Verein"), max_length=120, blank=True)
    consent = models.BooleanField(
        _("Einverstanden mit Spielerregister und Cup-Wertung"), default=False
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # the same person as another entry (decided at the desk, e.g. after an evening of another
    # club came in): cups count both as that one; undone by clearing it (nothing else moves)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged"
    )
    # entries decided to be different people (one name, two people): never offered again
    distinct_from = models.ManyToManyField("self", blank=True, symmetrical=True)

    objects: ClassVar[models.Manager[Self]] = ScopedManager(verein="verein")  # services/tenancy
    across_vereine = models.Manager()  # noqa: DJ012  # the system (commands, backups, checks)

    class Meta:
        ordering = ["name", "club", "id"]
        constraints = [  # a register id names one person in each Verein's register
            models.UniqueConstraint(fields=["verein", "uid"], name="one_uid_per_register")
        ]
        verbose_name = _("Spieler/in")
        verbose_name_plural = _("Spielerregister")

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name


def new_event_id() -> str:
    """An evening's id in its result files: the same across re-exports (a UUID URN)."""
    return uuid.uuid4().urn


class Tournament(models.Model):
    verein = models.ForeignKey(
        Verein, on_delete=models.PROTECT, related_name="tournaments", default=the_one_verein
    )
    name = models.CharField(_("Name"), max_length=200)
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True)
    date = models.DateField(_("Datum"), null=True, blank=True)
    venue = models.CharField(_("Ort"), max_length=200, blank=True)
    town = models.CharField(_("Gemeinde"), max_length=120, blank=True)
    organiser_club = models.CharField(_("Veranstalter (Verein)"), max_length=200, blank=True)
    # the evening's id in its result files (docs/result-format.md), kept across re-exports
    event_id = models.CharField(max_length=100, default=new_event_id, editable=False)
    # an evening taken in from a result file: read-only here; what the file held beyond the
    # games (corrections, how each table entered, other programs' extensions)
    read_only = models.BooleanField(_("aus einer Ergebnisdatei übernommen"), default=False)
    # (JSON kept as text: the file's order survives, which PostgreSQL's jsonb would sort)
    imported = models.TextField(default="", blank=True, editable=False)
    preset = models.CharField(_("Regelwerk"), max_length=40, default="ejl")
    rules_json = models.JSONField(_("Regeln"), default=dict, blank=True)
    rounds = models.PositiveSmallIntegerField(_("Durchgänge"), default=3)
    double_check = models.BooleanField(
        _("Vier-Augen-Prinzip"),
        default=False,
        help_text=_(
            "Ein Spielzettel muss von einer zweiten Person bestätigt werden: sie vergleicht "
            "jedes Spiel mit dem Papier und kreuzt es an."
        ),
    )
    blind_second_entry = models.BooleanField(
        _("Zweite Eingabe blind"),
        default=False,
        help_text=_(
            "Mit dem Vier-Augen-Prinzip: die zweite Person tippt auch einen Papierzettel blind "
            "in ein leeres Formular (wie bei Tischen mit Handy) und entscheidet nur, wo die "
            "beiden Eingaben abweichen."
        ),
    )
    public_pages = models.BooleanField(_("Öffentliche Seiten"), default=True)
    table_entry = models.BooleanField(
        _("Tische erfassen am Handy"),
        default=True,
        help_text=_(
            "Jeder Tisch bekommt einen eigenen Link (QR-Code auf Tischkarte und Spielzettel) "
            "und trägt seine Spiele selbst ein. Aus: alle Tisch-Links sind sofort ungültig."
        ),
    )
    provisional_table_sheets = models.BooleanField(
        _("Vom Tisch bestätigte Zettel vorläufig werten"),
        default=False,
        help_text=_(
            "Rangliste und Beamer zählen Zettel schon, wenn der Tisch sie bestätigt hat "
            "(als vorläufig markiert), nicht erst nach der Bestätigung am Turniertisch."
        ),
    )
    show_interim = models.BooleanField(
        _("Zwischenstand zeigen"),
        default=True,
        help_text=_(
            "Während eines Durchgangs zeigen Rangliste, Beamer und die Seiten der Spieler den "
            "Stand aus den schon eingetragenen Spielen (als vorläufig markiert, mit der Zahl "
            "der Spiele); ist der Durchgang fertig, den bestätigten Stand. Aus: nur "
            "bestätigte Durchgänge zählen."
        ),
    )
    # the pace forecast (charity.pace): the plan until the tables' games tell the real pace
    pace_minutes = models.DecimalField(
        _("Geplante Minuten je Spiel"),
        max_digits=3,
        decimal_places=1,
        default=Decimal("4.0"),
        validators=[MinValueValidator(Decimal("1.0")), MaxValueValidator(Decimal("15.0"))],
        help_text=_("Für die Vorhersage, bis die ersten Spiele zeigen, wie schnell gespielt wird."),
    )
    break_minutes = models.PositiveSmallIntegerField(
        _("Pause zwischen den Durchgängen (Minuten)"),
        default=15,
        validators=[MaxValueValidator(120)],
        help_text=_("Auch vor der Siegerehrung."),
    )
    # the charity evening (charity.money, charity.prizes, charity.rankings): amounts in cents
    charity_purpose = models.CharField(
        _("Spendenzweck"),
        max_length=200,
        blank=True,
        help_text=_("Für wen gespielt wird, z. B. „die Jugendarbeit der Kirchengemeinde“."),
    )
    entry_fee_cents = models.PositiveIntegerField(_("Startgeld (Cent)"), default=0)
    fee_per_player = models.BooleanField(
        _("Paare zahlen pro Person"),
        default=False,
        help_text=_("Aus: ein Paar zahlt das Startgeld einmal."),
    )
    # [[from the n-th lost game, cents per lost game], …]
    donation_tiers = models.JSONField(_("Spende je verlorenem Spiel"), default=list, blank=True)
    donation_counts_conceded = models.BooleanField(
        _("Abgeschriebene Spiele zählen als verloren"), default=False
    )
    prize_mode = models.CharField(
        _("Preisvergabe"), max_length=10, choices=PrizeMode.choices, default=PrizeMode.RANK
    )
    one_prize_per_person = models.BooleanField(
        _("ein Preis je Person"),
        default=False,
        help_text=_(
            "An: wer einen Platzpreis gewinnt (oder wählen darf), bekommt keinen Sonderpreis, "
            "und niemand bekommt zwei Sonderpreise – der Sonderpreis geht an den Nächsten. "
            "Aus: ein Platz und ein Sonderpreis sind möglich."
        ),
    )
    club_best = models.PositiveSmallIntegerField(
        _("Vereinswertung: beste"),
        default=3,
        help_text=_("So viele Beste eines Vereins zählen für die Vereinswertung (0: keine)."),
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects: ClassVar[models.Manager[Self]] = ScopedManager(verein="verein")  # services/tenancy
    across_vereine = models.Manager()  # noqa: DJ012  # the system (commands, backups, public)

    class Meta:
        ordering = ["-date", "name"]
        constraints = [  # a district holds its own copy of a member club's evening
            models.UniqueConstraint(fields=["verein", "event_id"], name="one_event_per_verein")
        ]
        verbose_name = _("Turnier")
        verbose_name_plural = _("Turniere")

    def __str__(self) -> str:
        return self.name

    @cached_property
    def imported_parts(self) -> dict[str, Any]:
        """What the result file this evening came from held beyond the games, in the file's
        order (empty for an evening played here)."""
        parts = json.loads(self.imported) if self.imported else {}
        return parts if isinstance(parts, dict) else {}

    def rules(self) -> RuleSet:
        """The tournament's rule set: the preset with any fields the organiser changed. The
        number of rounds is the tournament's own (one place: ``rounds``)."""
        changed = json.dumps(self.rules_json or {}, sort_keys=True)
        return _rule_set(self.preset, changed, self.rounds)


@lru_cache(maxsize=64)
def _rule_set(preset: str, changed: str, rounds: int) -> RuleSet:
    """A rule set read once per process and kept (rule sets are immutable): every request of
    the evening asks for the same few, and the engine remembers what it worked out for a rule
    set (e.g. the meld totals a hand can show) in the rule set itself."""
    merged: dict[str, Any] = {
        **get_preset(preset).to_dict(),
        **json.loads(changed),
        "rounds": rounds,
    }
    return RuleSet.from_dict(merged)


class Competition(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="competitions"
    )
    mode = models.CharField(_("Wertung"), max_length=10, choices=Mode.choices)
    # the quality figures of the seating plan as the pairing engine measured it when the plan
    # was made or re-planned (services.seating), so the seating page need not re-measure
    seating_figures = models.JSONField(null=True, blank=True, editable=False)
    # online registration (services/signup.py): the public form /t/<slug>/anmelden/
    registration_open = models.BooleanField(_("Online-Anmeldung offen"), default=False)
    capacity = models.PositiveIntegerField(
        _("Plätze"),
        null=True,
        blank=True,
        help_text=_("Höchstens so viele Anmeldungen (Paare zählen einmal); leer: unbegrenzt."),
    )
    waiting_list = models.BooleanField(
        _("Warteliste"),
        default=True,
        help_text=_(
            "Wenn alle Plätze vergeben sind, kommen weitere Anmeldungen auf die Warteliste."
        ),
    )
    registration_closes = models.DateTimeField(_("Anmeldeschluss"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "mode"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "mode"], name="one_competition_per_mode")
        ]
        verbose_name = _("Wertung")
        verbose_name_plural = _("Wertungen")

    def __str__(self) -> str:
        return f"{self.tournament} – {self.get_mode_display()}"

    @property
    def is_pairs(self) -> bool:
        return self.mode == Mode.PAIRS


def display_name(name: str, partner: str) -> str:
    """An entrant's name as shown everywhere: "Name", or "Name / Partner" for a pair (also
    for pages that read names as plain values, without model instances)."""
    return f"{name} / {partner}" if partner else name


_HIDE_NAMES: ContextVar[bool] = ContextVar("hide_names", default=False)


def names_hidden() -> bool:
    """Whether what is rendered now is public (a public page, the static site): entrants who
    did not agree to show their name appear as "Startnummer 17"."""
    return _HIDE_NAMES.get()


@contextmanager
def public_names() -> Iterator[None]:
    """Render public output: the names of entrants without consent are hidden inside."""
    token = _HIDE_NAMES.set(True)
    try:
        yield
    finally:
        _HIDE_NAMES.reset(token)


def hidden_name(start_number: int) -> str:
    return gettext("Startnummer %(number)s") % {"number": start_number}


def shown_name(name: str, partner: str, public_name: bool, start_number: int) -> str:
    """``display_name`` for pages that read names as plain values: hidden on public output
    for an entrant without consent."""
    if names_hidden() and not public_name:
        return hidden_name(start_number)
    return display_name(name, partner)


class Entrant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entrants")
    start_number = models.PositiveIntegerField(_("Startnummer"))
    name = models.CharField(_("Name"), max_length=120)
    partner = models.CharField(_("Partner/in"), max_length=120, blank=True)
    club = models.CharField(_("Verein"), max_length=120, blank=True)
    withdrawn = models.BooleanField(_("abgemeldet"), default=False)
    late = models.BooleanField(_("nachgemeldet"), default=False)
    unranked = models.BooleanField(_("außer Konkurrenz"), default=False)
    fee_paid = models.BooleanField(_("Startgeld bezahlt"), default=False)
    donation_paid = models.BooleanField(_("Spende bezahlt"), default=False)
    categories = models.JSONField(_("Kategorien"), default=list, blank=True)  # Category values
    # consent to show the name on public pages (online registration asks; the desk's entrants
    # have it): without it the public pages say "Startnummer 17"
    public_name = models.BooleanField(_("Name öffentlich zeigen"), default=True)
    email = models.EmailField(_("E-Mail"), blank=True)
    online = models.BooleanField(_("online angemeldet"), default=False)
    # the key the registration form was sent with: the same form sent again (the reply was
    # lost) is recognised as the same registration
    signup_key = models.CharField(max_length=64, blank=True, editable=False)
    # checked in at the door (the check-in page); "Nicht erschienen" withdraws those of whom
    # nobody came. A pair's two people arrive each on their own: ``checked_in_at`` is the
    # first name's (the player's), ``partner_checked_in_at`` the partner's; the pair is
    # complete when both arrived (services/evening/checkin.py)
    checked_in_at = models.DateTimeField(_("angekommen"), null=True, blank=True)
    partner_checked_in_at = models.DateTimeField(_("Partner/in angekommen"), null=True, blank=True)
    # the player register (series across tournaments): the player, and the partner of a pair
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries"
    )
    partner_player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="partner_entries"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["competition", "start_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "start_number"], name="unique_start_number_per_tournament"
            )
        ]
        verbose_name = _("Teilnehmer")
        verbose_name_plural = _("Teilnehmer")

    def __str__(self) -> str:
        return f"{self.start_number} {self.display_name}"

    @property
    def display_name(self) -> str:
        if names_hidden() and not self.public_name:  # (a field left out of a query stays so)
            return hidden_name(self.start_number)
        return display_name(self.name, self.partner)

    @property
    def named(self) -> bool:
        """Whether this page may name the entrant (not on public pages without consent)."""
        return self.public_name or not names_hidden()

    @property
    def listed_club(self) -> str:
        """The club beside a listed name: not beside "Startnummer 17" (a small club and a
        number would name the person who asked not to be named)."""
        return self.club if self.named else ""

    @property
    def listed_name(self) -> str:
        """The name wherever places are listed (standings, beamer, prizes, printouts): a
        withdrawn entrant is marked, never passed off as a plain place."""
        if self.withdrawn:
            return gettext("%(name)s (abgemeldet)") % {"name": self.display_name}
        return self.display_name


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("Durchgang"))
    # Started: the desk started the round (or saved its first sheet); its seating no longer
    # changes and its table links take games (services/rounds/).
    locked = models.BooleanField(_("gesperrt"), default=False)
    started_at = models.DateTimeField(_("gestartet"), null=True, blank=True)
    # when its last sheet was confirmed (None while one is open): services/rounds/writer.py
    finished_at = models.DateTimeField(_("beendet"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")
        ]
        verbose_name = _("Durchgang")
        verbose_name_plural = _("Durchgänge")

    def __str__(self) -> str:
        return gettext("%(tournament)s – %(number)s. Durchgang") % {
            "tournament": self.tournament,
            "number": self.number,
        }


def new_entry_token() -> str:
    """A table link's key: 128 random bits (22 characters in the link)."""
    return secrets.token_urlsafe(16)


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("Tisch"))
    kind = models.CharField(_("Tischart"), max_length=12, choices=TableKind.choices)
    # The table's own link for entering its games on a phone (unguessable; re-issuing it makes
    # the old link useless at once).
    entry_token = models.CharField(
        max_length=64, unique=True, default=new_entry_token, editable=False
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number")
        ]
        verbose_name = _("Tisch")
        verbose_name_plural = _("Tische")

    def __str__(self) -> str:
        return gettext("%(round)s – Tisch %(number)s") % {
            "round": self.round,
            "number": self.number,
        }


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(_("Platz"))

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="unique_seat_position")
        ]

    def __str__(self) -> str:
        return gettext("%(table)s – Platz %(position)s: %(entrant)s") % {
            "table": self.table,
            "position": self.position,
            "entrant": self.entrant,
        }


class SheetStatus(models.TextChoices):
    DRAFT = "draft", _("Entwurf")
    TABLE = "table", _("vom Tisch bestätigt")  # the opponents confirmed it on the phone
    CONFIRMED = "confirmed", _("bestätigt")


class ScoreSheet(models.Model):
    """The paper score sheet of one table in one round, as typed at the desk.

    ``entries`` keeps exactly what was typed (strings), so a draft with errors loses nothing;
    valid games are also stored as Game/PartyResult rows with their points."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="sheet")
    status = models.CharField(max_length=10, choices=SheetStatus.choices, default=SheetStatus.DRAFT)
    version = models.PositiveIntegerField(default=1)
    entries = models.JSONField(default=dict, blank=True)
    error_count = models.PositiveIntegerField(default=0)
    complete = models.BooleanField(default=False)
    scorer_mismatch = models.BooleanField(_("Abweichung vom Listenführer"), default=False)
    # Who changed each game last: {"4": "desk"}, {"5": "table"}, "paper", "simulation" …; a
    # phone that sees a game change it did not send says who changed it ("Die Turnierleitung
    # hat Spiel 4 geändert"). Part "0" is the scorer's written totals.
    game_sources = models.JSONField(default=dict, blank=True)
    # ... and the desk person's username ({"4": "anna"}; null: the table's phone or a tool):
    # the four-eyes check asks for someone else.
    game_authors = models.JSONField(default=dict, blank=True)
    # The entries when the desk last confirmed the sheet: a correction shows what changed.
    confirmed_entries = models.JSONField(default=dict, blank=True)
    # The four-eyes check by the paper: the paper sheet typed blind at the desk, its own record
    # ({"entries": {...}, "by": username, "at": time}), and for each game where paper and sheet
    # differ what the desk decided ({"2": {"paper": stamp, "sheet": stamp, "took": "paper",
    # "by": username}}).
    paper = models.JSONField(default=dict, blank=True)
    decisions = models.JSONField(default=dict, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("Spielzettel")
        verbose_name_plural = _("Spielzettel")

    def __str__(self) -> str:
        return gettext("%(table)s – %(status)s, Version %(version)s") % {
            "table": self.table,
            "status": self.get_status_display(),
            "version": self.version,
        }


class TableEntry(models.Model):
    """What a table did through its own link: checked who sits where, confirmed its sheet
    (the opponents typed their start numbers), called the desk for help."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="entry")
    seats_checked_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_numbers = models.JSONField(default=list, blank=True)
    help_requested_at = models.DateTimeField(null=True, blank=True)
    # the desk saw the call and is on its way ("Turnierleitung kommt"); cleared with the call
    help_acknowledged_at = models.DateTimeField(null=True, blank=True)
    last_activity_at = models.DateTimeField(null=True, blank=True)
    # the sheet as the table last entered it: where the desk's typing from the paper differs,
    # the board shows it
    entries = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return str(self.table)


class SheetDraft(models.Model):
    """What one desk person has typed into a sheet and not saved as a version yet: kept while
    they type (autosave), so a closed tab or a dropped connection loses nothing. Drafts are
    private to their author, are not versions, and never reach the audit log or the standings;
    saving the sheet turns the draft into a version and removes it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="drafts")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # "sheet": the sheet itself (a correction, a paper sheet typed first); "paper": the paper
    # typed blind for the four-eyes check
    kind = models.CharField(max_length=10, default="sheet")
    entries = models.JSONField(default=dict)
    # The browser's sequence number of the typing state: an older autosave that arrives late
    # never replaces a newer one.
    seq = models.BigIntegerField(default=0)
    base_version = models.PositiveIntegerField(default=0)  # the sheet version it was typed on
    # each part's stamp in that version ({"1": "ab12…"}): a save compares with them
    base_stamps = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "user", "kind"], name="one_draft_per_table_user_and_kind"
            )
        ]

    def __str__(self) -> str:
        return gettext("%(table)s – Entwurf %(seq)s von Konto %(user)s") % {
            "table": self.table,
            "seq": self.seq,
            "user": self.user_id,
        }


class SubmissionReceipt(models.Model):
    """A save that was carried out, by the key the page sent with it: a retried request (the
    reply was lost, the desk pressed again) is recognised as the same save, never as a
    conflict and never applied twice."""

    key = models.CharField(max_length=64, unique=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField()
    confirmed = models.BooleanField(default=False)
    notice = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return gettext("%(key)s → Version %(version)s") % {"key": self.key, "version": self.version}


class Game(models.Model):
    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("Spiel"))
    dealer = models.PositiveSmallIntegerField(_("Geber"))
    kind = models.CharField(_("Art"), max_length=10, choices=GameKind.choices)
    declarer = models.PositiveSmallIntegerField(_("Spielmacher"))
    bid = models.PositiveIntegerField(_("Reizwert"), null=True, blank=True)
    won = models.BooleanField(default=False)

    class Meta:
        ordering = ["sheet", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="unique_game_number")
        ]

    def __str__(self) -> str:
        return gettext("%(sheet)s – Spiel %(number)s") % {
            "sheet": self.sheet,
            "number": self.number,
        }


class PartyResult(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="parties")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="results")
    round_number = models.PositiveSmallIntegerField()
    meld = models.IntegerField(null=True, blank=True)
    tricks = models.IntegerField(null=True, blank=True)
    revoked = models.BooleanField(default=False)
    is_declarer = models.BooleanField(default=False)
    sits_out = models.BooleanField(default=False)
    points = models.IntegerField()

    class Meta:
        indexes = [
            models.Index(fields=["entrant", "round_number"]),
            # the games each entrant declared (a third of the rows): the evening's donations
            # read only these, on every load of the dashboard and the beamer
            models.Index(
                fields=["entrant", "game"],
                condition=models.Q(is_declarer=True),
                name="partyresult_declarer_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} – {self.entrant}: {self.points}"


class ExtraDonation(models.Model):
    """Money given on the evening beyond Startgeld and lost games, entered by hand."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="extra_donations"
    )
    description = models.CharField(_("Wofür / von wem"), max_length=200)
    amount_cents = models.PositiveIntegerField(_("Betrag (Cent)"))
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("Spende")
        verbose_name_plural = _("Spenden")

    def __str__(self) -> str:
        return f"{self.description}: {self.amount_cents}"


class Prize(models.Model):
    """A prize of a competition's prize table: a place prize (given in rank order, or chosen
    by the winners in rank order: ``chosen_by``) or a special prize."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="prizes")
    position = models.PositiveSmallIntegerField(_("Reihenfolge"))
    description = models.CharField(_("Preis"), max_length=200)
    value_cents = models.PositiveIntegerField(_("Wert (Cent)"), default=0)
    special = models.CharField(
        _("Art"), max_length=12, choices=Special.choices, default=Special.NONE, blank=True
    )
    # a withdrawn entrant may win it (default: no; out of competition never)
    withdrawn_may_win = models.BooleanField(_("auch Abgemeldete"), default=False)
    chosen_by = models.ForeignKey(
        Entrant,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="chosen_prizes",
    )
    chosen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["competition", "position", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "chosen_by"],
                condition=models.Q(chosen_by__isnull=False),
                name="one_chosen_prize_per_entrant",
            )
        ]
        verbose_name = _("Preis")
        verbose_name_plural = _("Preise")

    def __str__(self) -> str:
        return f"{self.position}. {self.description}"

    @property
    def label(self) -> str:
        """The description with the kind of special prize, once and without nested brackets:
        "Grablicht (Rote Laterne)"; a description that names it already stays as it is
        ("Rote Laterne: Grablicht")."""
        if not self.special:
            return self.description
        name = str(SPECIAL_NAMES[Special(self.special)])
        if name.casefold() in self.description.casefold():
            return self.description
        return f"{self.description} ({name})"


class SeriesMethod(models.TextChoices):
    POINTS = "points", _("Summe der Punkte")
    CUP = "cup", _("Cup-Punkte nach Platz")


class Series(models.Model):
    """A cup over several tournaments of one competition mode (charity.series)."""

    verein = models.ForeignKey(
        Verein, on_delete=models.PROTECT, related_name="series", default=the_one_verein
    )
    name = models.CharField(_("Name"), max_length=200)
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True)
    mode = models.CharField(_("Wertung"), max_length=10, choices=Mode.choices, default=Mode.SINGLES)
    method = models.CharField(
        _("Wertung der Abende"),
        max_length=10,
        choices=SeriesMethod.choices,
        default=SeriesMethod.POINTS,
    )
    best = models.PositiveSmallIntegerField(
        _("Beste Abende"), default=0, help_text=_("Nur die besten n Abende zählen (0: alle).")
    )
    cup_points = models.JSONField(_("Cup-Punkte je Platz"), default=list, blank=True)
    min_evenings = models.PositiveSmallIntegerField(
        _("Mindestzahl Abende für Durchschnittswertungen"),
        default=2,
        help_text=_("Bester Durchschnittsplatz und Pechvogel zählen erst ab so vielen Abenden."),
    )
    require_all = models.BooleanField(
        _("Nur wer an allen Abenden dabei war, wird platziert"), default=False
    )
    tournaments = models.ManyToManyField(Tournament, related_name="series", blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects: ClassVar[models.Manager[Self]] = ScopedManager(verein="verein")  # services/tenancy
    across_vereine = models.Manager()  # noqa: DJ012  # the system

    class Meta:
        ordering = ["name"]
        verbose_name = _("Cup-Serie")
        verbose_name_plural = _("Cup-Serien")

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    """What a member may do in a tournament (services.access lists the actions per role)."""

    ORGANISER = "organiser", _("Turnierleitung")
    HELPER = "helper", _("Helfer/in am Turniertisch")


class Membership(models.Model):
    """A user belongs to a tournament with a role; desk pages need a membership."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("Rolle"), max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["tournament", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_membership_per_user")
        ]
        verbose_name = _("Mitglied")
        verbose_name_plural = _("Mitglieder")

    def __str__(self) -> str:
        return f"{self.tournament} – {self.user} ({self.get_role_display()})"


class VereinMember(models.Model):
    """A user belongs to a Verein with a role that applies to all its tournaments (a
    tournament may still add members of its own: ``Membership``)."""

    verein = models.ForeignKey(Verein, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="verein_memberships"
    )
    role = models.CharField(_("Rolle"), max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["verein", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["verein", "user"], name="one_role_per_verein")
        ]
        verbose_name = _("Vereinsmitglied")
        verbose_name_plural = _("Vereinsmitglieder")

    def __str__(self) -> str:
        return f"{self.verein} – {self.user} ({self.get_role_display()})"


class SubmissionStatus(models.TextChoices):
    PENDING = "pending", _("eingereicht")
    ACCEPTED = "accepted", _("angenommen")
    DECLINED = "declined", _("abgelehnt")
    WITHDRAWN = "withdrawn", _("zurückgezogen")


class CupSubmission(models.Model):
    """A member club's evening submitted to a district's cup (services/money/district.py): its
    result file, until the district's organiser accepts it (then the evening is taken into the
    district's Verein and counts in the cup, whatever the club does later) or declines it."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="submissions")
    club = models.ForeignKey(Verein, on_delete=models.CASCADE, related_name="cup_submissions")
    event_id = models.CharField(max_length=100)
    name = models.CharField(_("Abend"), max_length=200)
    data = models.TextField(editable=False)  # the result file as submitted
    status = models.CharField(
        max_length=10, choices=SubmissionStatus.choices, default=SubmissionStatus.PENDING
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    accepted = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-submitted_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "club", "event_id"], name="one_submission_per_evening_and_cup"
            )
        ]
        verbose_name = _("Einreichung")
        verbose_name_plural = _("Einreichungen")

    def __str__(self) -> str:
        return f"{self.club} → {self.series}: {self.name}"


class UploadKey(models.Model):
    """A Verein's key for its hall laptops (services/club_sync.py): with it a laptop fetches
    the registrations of the Verein's evenings and sends their results back. Made and revoked
    by the Verein's organisers; kept as its SHA-256 only (the key itself is shown once)."""

    verein = models.ForeignKey(Verein, on_delete=models.CASCADE, related_name="upload_keys")
    label = models.CharField(_("Bezeichnung"), max_length=120)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=8, editable=False)  # the key's first letters
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["verein", "-created_at"]
        verbose_name = _("Schlüssel für den Hallen-Laptop")
        verbose_name_plural = _("Schlüssel für die Hallen-Laptops")

    def __str__(self) -> str:
        return f"{self.verein} – {self.label} ({self.hint}…)"


class AuditLogIsReadOnly(Exception):
    """An audit entry, once written, is never changed or deleted; it outlives its tournament
    and its account (each entry keeps their names)."""


class AuditLogQuerySet(models.QuerySet["AuditLog"]):
    def update(self, **kwargs: Any) -> int:
        raise AuditLogIsReadOnly("audit entries cannot be changed")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AuditLogIsReadOnly("audit entries cannot be deleted")


class WaitingRegistration(models.Model):
    """An online registration that came when every place was taken: it has no start number
    yet. The desk moves it up when a place frees ("Nachrücken"); then it becomes an entrant
    (``entrant``) with its start number and personal links, and its page shows them."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="waiting_registrations"
    )
    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="waiting_registrations"
    )
    token = models.CharField(max_length=64, unique=True, default=new_entry_token)
    name = models.CharField(_("Name"), max_length=120)
    partner = models.CharField(_("Partner/in"), max_length=120, blank=True)
    club = models.CharField(_("Verein"), max_length=120, blank=True)
    categories = models.JSONField(_("Kategorien"), default=list, blank=True)
    email = models.EmailField(_("E-Mail"), blank=True)
    public_name = models.BooleanField(_("Name öffentlich zeigen"), default=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    entrant = models.OneToOneField(
        Entrant, on_delete=models.SET_NULL, null=True, blank=True, related_name="waiting"
    )
    cancelled_at = models.DateTimeField(null=True, blank=True)
    signup_key = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        ordering = ["competition", "created_at", "id"]
        verbose_name = _("Wartelisten-Anmeldung")
        verbose_name_plural = _("Warteliste")

    def __str__(self) -> str:
        return display_name(self.name, self.partner)

    @property
    def display_name(self) -> str:
        return display_name(self.name, self.partner)


# A personal link's short code: typed at the door or scanned; no 0/O or 1/I/L to confuse.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


def new_personal_token() -> str:
    """A player's personal link: 128 random bits (22 characters in the link)."""
    return secrets.token_urlsafe(16)


def new_personal_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class PersonalLink(models.Model):
    """One person's own page of the evening (``/p/<token>/``): each partner of a pair has one
    of their own. Unguessable, and revocable: a revoked link shows nothing, and the person
    gets a new one."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="personal_links")
    partner = models.BooleanField(default=False)  # the pair's second name
    token = models.CharField(max_length=64, unique=True, default=new_personal_token)
    code = models.CharField(max_length=12, unique=True, default=new_personal_code)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["entrant", "partner"],
                condition=models.Q(revoked_at__isnull=True),
                name="one_open_personal_link_per_person",
            )
        ]

    def __str__(self) -> str:
        return self.person_name

    @property
    def person_name(self) -> str:
        return self.entrant.partner if self.partner else self.entrant.name


class AuditLog(models.Model):
    """Who did what, when, before and after. Events of the installation rather than of one
    tournament (logins, failed logins, lock-outs) have no tournament. The log outlives what it
    names: a deleted tournament leaves its entries (``tournament`` empty, its slug and name
    kept), a deleted account leaves its name on its entries."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, related_name="audit_log", null=True, blank=True
    )
    tournament_slug = models.CharField(max_length=80, blank=True, default="", editable=False)
    tournament_name = models.CharField(max_length=200, blank=True, default="", editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    username = models.CharField(max_length=150, blank=True, default="", editable=False)
    at = models.DateTimeField(default=timezone.now, editable=False)
    action = models.CharField(max_length=60)
    object_type = models.CharField(max_length=60)
    object_id = models.CharField(max_length=60)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    objects = AuditLogQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("Protokolleintrag")
        verbose_name_plural = _("Protokoll")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type} {self.object_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise AuditLogIsReadOnly("audit entries cannot be changed")
        self.name_what_it_names()
        super().save(*args, **kwargs)

    def name_what_it_names(self) -> AuditLog:
        """Keep the names of its tournament and account on the entry (they may be deleted
        one day; the entry stays). Called before every save, bulk saves included."""
        if self.tournament_id is not None and not self.tournament_slug:
            tournament = self.tournament
            assert tournament is not None
            self.tournament_slug, self.tournament_name = tournament.slug, tournament.name[:200]
        if self.user_id is not None and not self.username:
            user = self.user
            assert user is not None
            self.username = user.get_username()[:150]
        return self

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AuditLogIsReadOnly("audit entries cannot be deleted")
