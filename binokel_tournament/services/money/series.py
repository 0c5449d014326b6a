"""Series (cups) over several tournaments and the player register, the bridge to
``charity.series``. Entrants are linked to players explicitly (a returning player is found by
name, the desk links or creates); players can be merged, and deleted on request (their
tournaments keep the names they played under). Register and series are the installation's,
not one tournament's: changing them needs an account that may create tournaments; linking an
entrant needs REGISTER in its tournament."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from charity.series import (
    DEFAULT_CUP_POINTS,
    EveningResult,
    SeriesMethod,
    SeriesRow,
    SeriesRule,
    season_figures,
    series_ranking,
)

from ...models import Entrant, Mode, Player, Series, Tournament, Verein
from .. import tenancy
from ..access import Action, Actor, require, require_create_tournament
from ..audit import log_action
from ..errors import DeskError
from ..evening.standings import compute_standings
from ..names import fold, folded_name
from ..server import public_cache

PlayerKey = int | tuple[int, int]
SUGGESTIONS = 5  # players offered while a name is typed
SUGGEST_FROM = 3  # letters typed before the register is searched


class RegisterIndex:
    """The register's players by folded name (``names.fold``: case, spacing, accents, ß/ss
    and ä/ae do not matter), read once: a page that looks up every entrant of a tournament
    asks it, not the database once per name."""

    def __init__(self, verein: Verein | None = None) -> None:
        self.by_key: dict[str, list[Player]] = {}
        players = _register(verein).only("name", "club", "consent").order_by("name", "club", "id")
        for player in players:
            self.by_key.setdefault(folded_name(player.name), []).append(player)

    def candidates(self, name: str, limit: int = 5) -> list[Player]:
        """Players of the register with this name."""
        key = fold(name)
        return self.by_key.get(key, [])[:limit] if key else []


def _register(verein: Verein | None) -> QuerySet[Player]:
    """A Verein's register (None: what the scope sees -- the system sees every Verein's)."""
    return Player.objects.all() if verein is None else Player.objects.filter(verein=verein)


def suggestions(typed: str, limit: int = SUGGESTIONS, verein: Verein | None = None) -> list[Player]:
    """Players whose name holds every word typed so far (folded): what the registration
    form offers while the desk types a name. Exact names first, then the others, players of
    one name together. Asked on every pause in typing: the register is read as ids and
    names only (their folding is kept, ``folded_name``), and only the players offered are
    loaded."""
    folded = fold(typed)
    if len(folded) < SUGGEST_FROM:
        return []
    words = folded.split()
    by_key: dict[str, list[int]] = {}
    for pk, name in _register(verein).order_by("name", "club", "id").values_list("id", "name"):
        by_key.setdefault(folded_name(name), []).append(pk)
    found = [
        pk
        for key, pks in by_key.items()
        if key != folded and all(w in key for w in words)
        for pk in pks
    ]
    chosen = (by_key.get(folded, []) + found)[:limit]
    players = Player.objects.only("name", "club", "consent").in_bulk(chosen)
    return [players[pk] for pk in chosen if pk in players]  # one may be gone since


def candidates(name: str, limit: int = 5, verein: Verein | None = None) -> list[Player]:
    """Players of the register with this name (case, spaces, accents, ß/ss aside)."""
    return RegisterIndex(verein).candidates(name, limit)


@dataclass(frozen=True)
class LinkSummary:
    linked: int  # entrants (or partners) linked to the one player of their name
    created: int  # new register entries made for names the register did not know
    ambiguous: list[str]  # names with several players of that name: the desk decides


def link_all(tournament: Tournament, user: Actor, *, create_new: bool) -> LinkSummary:
    """Link every entrant (and partner) not yet linked whose name has exactly one player in
    the register; with ``create_new``, make a register entry for each name the register does
    not know. Names that are not clear stay for the desk to decide, one by one: several
    players of that name, the one player already linked in this tournament, the one player
    of that name with another club, or the name twice among this tournament's unlinked
    entrants."""
    require(user, tournament, Action.LINK_PLAYERS)
    with transaction.atomic():  # all clear names or none
        return _link_all(tournament, user, create_new)


def _link_all(tournament: Tournament, user: Actor, create_new: bool) -> LinkSummary:
    index = RegisterIndex(tournament.verein)
    entrants = list(tournament.entrants.order_by("start_number"))
    used = {e.player_id for e in entrants} | {e.partner_player_id for e in entrants}
    open_people = [
        (entrant, partner, name)
        for entrant in entrants
        for partner, name, player_id in (
            (False, entrant.name, entrant.player_id),
            (True, entrant.partner, entrant.partner_player_id),
        )
        if player_id is None and name
    ]
    twice = Counter(folded_name(name) for _e, _p, name in open_people)
    linked = created = 0
    ambiguous: list[str] = []
    for entrant, partner, name in open_people:
        key = folded_name(name)
        found = index.by_key.get(key, [])
        other_club = bool(
            found and entrant.club and found[0].club and fold(entrant.club) != fold(found[0].club)
        )  # one name, two people: the desk decides
        if twice[key] > 1 or len(found) > 1 or (found and found[0].pk in used) or other_club:
            ambiguous.append(name)
        elif found:
            link_player(entrant, found[0], user, partner=partner)
            used.add(found[0].pk)
            linked += 1
        elif create_new:
            used.add(link_player(entrant, None, user, partner=partner).pk)
            created += 1
    return LinkSummary(linked, created, ambiguous)


def link_chosen(entrant: Entrant, player_id: int, user: Actor, *, partner: bool = False) -> bool:
    """Link the entrant (or partner) to the register's player ``player_id``, chosen at
    registration; False when that entry has been deleted meanwhile."""
    player = Player.objects.filter(pk=player_id, verein=entrant.tournament.verein).first()
    if player is None:
        return False
    link_player(entrant, player, user, partner=partner)
    return True


def _snapshot(entrant: Entrant) -> dict[str, object]:
    return {"player": entrant.player_id, "partner_player": entrant.partner_player_id}


def _store_link(entrant: Entrant, player: Player | None, user: Actor, partner: bool) -> None:
    """Set the entrant's (or the partner's) register entry, saved and audited."""
    field = "partner_player" if partner else "player"
    before = _snapshot(entrant)
    setattr(entrant, field, player)
    entrant.save(update_fields=[field])
    log_action(entrant.tournament, user, "entrant.player", entrant, before, _snapshot(entrant))


def link_player(
    entrant: Entrant, player: Player | None, user: Actor, *, partner: bool = False
) -> Player:
    """Link the entrant (or the partner of a pair) to ``player``, or to a new register entry
    made from its name and club when ``player`` is None."""
    require(user, entrant.tournament, Action.LINK_PLAYERS)
    with transaction.atomic():
        fresh = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if player is None:
            name = fresh.partner if partner else fresh.name
            if not name:
                raise DeskError(_("Dieses Paar hat keinen Partner eingetragen."))
            player = Player.objects.create(
                verein_id=entrant.tournament.verein_id, name=name, club=fresh.club
            )
        elif player.verein_id != entrant.tournament.verein_id:
            raise DeskError(_("Dieser Eintrag gehört zum Spielerregister eines anderen Vereins."))
        _store_link(fresh, player, user, partner)
    entrant.player_id, entrant.partner_player_id = fresh.player_id, fresh.partner_player_id
    return player


def unlink_player(entrant: Entrant, user: Actor, *, partner: bool = False) -> None:
    require(user, entrant.tournament, Action.LINK_PLAYERS)
    _store_link(entrant, None, user, partner)


def roots(verein: Verein | None = None) -> dict[int, int]:
    """Every register entry's person: itself, or the entry it was found to be the same
    person as (followed to its end; one query)."""
    into: dict[int, int] = {
        pk: target
        for pk, target in _register(verein)
        .filter(merged_into__isnull=False)
        .values_list("pk", "merged_into")
        if target is not None
    }

    def root(pk: int) -> int:
        seen = {pk}
        while pk in into and into[pk] not in seen:
            pk = into[pk]
            seen.add(pk)
        return pk

    return {pk: root(pk) for pk in into}


def merge_players(keep: Player, other: Player, user: Actor) -> Player:
    """The same person twice in the register: ``other`` counts as ``keep`` from now on (cups
    add their evenings up as one). Nothing is moved, so ``split_player`` undoes it."""
    require_create_tournament(user, keep.verein)
    if keep.verein_id != other.verein_id:
        raise DeskError(_("Zusammenführen lassen sich nur Einträge desselben Registers."))
    person = roots(keep.verein)
    if person.get(keep.pk, keep.pk) == person.get(other.pk, other.pk):
        raise DeskError(_("Zum Zusammenführen bitte zwei verschiedene Personen wählen."))
    target = Player.objects.get(pk=person.get(keep.pk, keep.pk))
    with transaction.atomic():
        Player.objects.filter(pk=other.pk).update(merged_into=target)
        target.distinct_from.remove(other)
        log_action(
            None,
            user,
            "player.merge",
            other,
            {"merged_into": None},
            {"merged_into": str(target.uid), "name": target.name, "club": target.club},
        )
    return target


def split_player(player: Player, user: Actor) -> None:
    """Undo a merge: the entry is a person of its own again (and is not offered again as
    the same person as the one it was merged into)."""
    require_create_tournament(user, player.verein)
    if player.merged_into_id is None:
        return
    with transaction.atomic():
        before = player.merged_into
        Player.objects.filter(pk=player.pk).update(merged_into=None)
        if before is not None:
            player.distinct_from.add(before)
        log_action(
            None,
            user,
            "player.split",
            player,
            {"merged_into": str(before.uid) if before else None},
            {"merged_into": None},
        )


def keep_apart(player: Player, other: Player, user: Actor) -> None:
    """Two entries are two people (one name, two people): never offered as one again."""
    require_create_tournament(user, player.verein)
    if player.verein_id != other.verein_id:
        raise DeskError(_("Zusammenführen lassen sich nur Einträge desselben Registers."))
    player.distinct_from.add(other)
    log_action(None, user, "player.distinct", player, None, {"other": str(other.uid)})


def delete_player(player: Player, user: Actor) -> None:
    """Deletion on request: the register entry goes, the entrants keep their names."""
    require_create_tournament(user, player.verein)
    log_action(None, user, "player.delete", player, {"uid": str(player.uid)}, None)
    player.delete()


def set_consent(player: Player, consent: bool, user: Actor) -> None:
    require_create_tournament(user, player.verein)
    player.consent = consent
    player.save(update_fields=["consent"])
    log_action(None, user, "player.consent", player, None, {"consent": consent})


def register_rows(
    query: str = "", limit: int = 200, verein: Verein | None = None
) -> list[tuple[Player, int]]:
    """Players (with their number of entries), filtered by a name or club."""
    players = _register(verein).select_related("merged_into")
    if query.strip():
        q = query.strip()[:60]
        players = players.filter(Q(name__icontains=q) | Q(club__icontains=q))
    shown = list(players.order_by("name", "club", "id")[:limit])
    ids = {p.pk for p in shown}
    # every entry of the players shown, in one query (an entry counts once, as player or
    # partner or both)
    counts: Counter[int] = Counter()
    linked = Entrant.objects.filter(Q(player__in=ids) | Q(partner_player__in=ids)).order_by()
    for player, partner in linked.values_list("player_id", "partner_player_id"):
        counts.update({player, partner} & ids)
    return [(p, counts[p.pk]) for p in shown]


# --- series ----------------------------------------------------------------------------------


def series_rule(series: Series) -> SeriesRule:
    cup = tuple(int(v) for v in (series.cup_points or [])) or DEFAULT_CUP_POINTS
    return SeriesRule(SeriesMethod(series.method), series.best, cup, series.require_all)


def create_series(name: str, user: Actor, verein: Verein | None = None, **fields: object) -> Series:
    """A new cup of ``verein`` (by default the creator's one Verein, or the installation's)."""
    verein = verein or tenancy.verein_for_new(user)
    require_create_tournament(user, verein)
    name = name.strip()
    if not name:
        raise DeskError(_("Bitte einen Namen angeben."), "name")
    base = slugify(name) or "cup"
    slug, n = base, 1
    while Series.across_vereine.filter(slug=slug).exists():  # its public address
        n += 1
        slug = f"{base}-{n}"
    series = Series.objects.create(verein=verein, name=name, slug=slug, **fields)
    log_action(None, user, "series.create", series, None, {"name": name})
    return series


def update_series(
    series: Series, user: Actor, fields: dict[str, object], tournaments: list[Tournament]
) -> Series:
    require_create_tournament(user, series.verein)
    for t in tournaments:
        if t.verein_id != series.verein_id:  # a district's cup takes its own copies
            raise DeskError(_("„%(name)s“ gehört einem anderen Verein.") % {"name": t.name})
        if t not in set(series.tournaments.all()):
            require(user, t, Action.VIEW)  # only tournaments one belongs to can be added
    with transaction.atomic():
        for key, value in fields.items():
            setattr(series, key, value)
        series.save()
        series.tournaments.set(tournaments)
        log_action(
            None,
            user,
            "series.edit",
            series,
            None,
            {**{k: v for k, v in fields.items()}, "tournaments": [t.slug for t in tournaments]},
        )
    return series


@dataclass
class SeriesLine:
    row: SeriesRow
    name: str
    consent: bool  # the register agrees, and no counted evening said "no name in public"


@dataclass
class SeriesStandings:
    series: Series
    tournaments: list[Tournament]
    lines: list[SeriesLine]
    unlinked: int  # entrants of the counted tournaments without a register entry


def evening_key(
    entrant: Entrant, pairs: bool, person: dict[int, int] | None = None
) -> PlayerKey | None:
    """The cup's key of an entrant: its register entry's person (``roots``), or the pair's."""
    person = person or {}
    if entrant.player_id is None:
        return None
    first = person.get(entrant.player_id, entrant.player_id)
    if not pairs:
        return first
    if entrant.partner_player_id is None:
        return None
    a, b = sorted((first, person.get(entrant.partner_player_id, entrant.partner_player_id)))
    return (a, b)


def _evenings(
    series: Series,
) -> tuple[
    list[Tournament],
    list[list[EveningResult]],
    int,
    set[PlayerKey],
    dict[PlayerKey, list[int | None]],
]:
    """The series' evenings in order and each one's results by the cup's keys; how many
    results have no register entry; who declined public naming on an evening; each key's
    start number per evening."""
    pairs = series.mode == Mode.PAIRS
    tournaments = sorted(series.tournaments.all(), key=lambda t: (t.date is None, t.date, t.name))
    person = roots(series.verein)
    evenings: list[list[EveningResult]] = []
    unlinked = 0
    declined: set[PlayerKey] = set()  # said "not my name on public pages" on an evening
    numbers: dict[PlayerKey, list[int | None]] = {}
    for index, t in enumerate(tournaments):
        results: list[EveningResult] = []
        competition = t.competitions.filter(mode=series.mode).first()
        if competition is not None:
            for row in compute_standings(competition).rows:
                if row.games == 0:
                    continue
                key = evening_key(row.entrant, pairs, person)
                if key is None:
                    unlinked += 1
                    continue
                if not row.entrant.public_name:
                    declined.add(key)
                results.append(EveningResult(key, row.place, row.total))
                numbers.setdefault(key, [None] * len(tournaments))[index] = row.entrant.start_number
        evenings.append(results)
    return tournaments, evenings, unlinked, declined, numbers


def series_standings(series: Series) -> SeriesStandings:
    tournaments, evenings, unlinked, declined, _numbers = _evenings(series)
    rows = series_ranking(evenings, series_rule(series))
    ids: set[int] = set()
    for r in rows:
        ids.update(r.player if isinstance(r.player, tuple) else (r.player,))
    players = Player.objects.in_bulk(ids)
    lines = []
    for r in rows:
        keys = r.player if isinstance(r.player, tuple) else (r.player,)
        people = [players[k] for k in keys if k in players]
        lines.append(
            SeriesLine(
                r,
                " / ".join(p.name for p in people),
                all(p.consent for p in people) and bool(people) and r.player not in declined,
            )
        )
    return SeriesStandings(series, tournaments, lines, unlinked)


# --- cups across clubs ---------------------------------------------------------------------
def add_result_file(series: Series, data: bytes, user: Actor) -> Tournament:
    """An evening of any club, as its result file: checked and taken in (read-only), counted
    in this cup, and its players linked to the register -- by the file's register ids, else
    by name where that is clear; the rest becomes new entries, offered below as candidates."""
    from ..imports import ResultRefused, import_result

    require_create_tournament(user, series.verein)
    with transaction.atomic():
        done = import_result(data, user, verein=series.verein)
        if done.kind != "results":
            raise ResultRefused(_("Für einen Cup bitte eine Ergebnisdatei mit Ergebnissen."))
        series.tournaments.add(done.tournament)
        link_all(done.tournament, user, create_new=True)
        for entrant in done.tournament.entrants.filter(
            Q(player__isnull=True) | (Q(partner_player__isnull=True) & ~Q(partner=""))
        ):  # names that were not clear: a person of their own until the desk decides
            if entrant.player_id is None:
                link_player(entrant, None, user)
            if entrant.partner and entrant.partner_player_id is None:
                link_player(entrant, None, user, partner=True)
        log_action(
            None,
            user,
            "series.add_file",
            series,
            None,
            {"tournament": done.tournament.slug, "event": done.tournament.event_id},
        )
    return done.tournament


def _alike(a: str, b: str) -> bool:
    """Two folded names spelled alike: the same, or a letter or two apart."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 2 or min(len(a), len(b)) < 6:
        return False
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1] <= 2


@dataclass(frozen=True)
class Candidate:
    """Two register entries of a cup's evenings that may be one person: the desk decides."""

    first: Player
    second: Player
    same_club: bool
    same_town: bool
    evenings: tuple[int, int]  # how many of the cup's evenings each has


def candidates_in(series: Series) -> list[Candidate]:
    """Entries of the cup's evenings with names spelled alike and the same club (or one
    without a club) or evenings in the same town, not yet decided: same person or two."""
    person = roots(series.verein)
    towns: dict[int, set[str]] = {}
    evenings: Counter[int] = Counter()
    for entrant in Entrant.objects.filter(tournament__in=series.tournaments.all()).select_related(
        "tournament"
    ):
        for pk in (entrant.player_id, entrant.partner_player_id):
            if pk is None:
                continue
            key = person.get(pk, pk)
            towns.setdefault(key, set()).add(fold(entrant.tournament.town))
            evenings[key] += 1
    players = list(Player.objects.filter(pk__in=towns).prefetch_related("distinct_from"))
    apart = {(p.pk, q.pk) for p in players for q in p.distinct_from.all()}
    out = []
    for i, p in enumerate(players):
        for q in players[i + 1 :]:
            if (p.pk, q.pk) in apart or not _alike(folded_name(p.name), folded_name(q.name)):
                continue
            same_club = bool(p.club and q.club and fold(p.club) == fold(q.club))
            same_town = bool(towns[p.pk] & towns[q.pk] - {""})
            if same_club or same_town or not (p.club and q.club):
                out.append(Candidate(p, q, same_club, same_town, (evenings[p.pk], evenings[q.pk])))
    return out


def merged_in(series: Series) -> list[Player]:
    """Entries of the cup's evenings that count as another person (a merge to undo)."""
    ids = set(
        Entrant.objects.filter(tournament__in=series.tournaments.all()).values_list(
            "player_id", flat=True
        )
    ) | set(
        Entrant.objects.filter(tournament__in=series.tournaments.all()).values_list(
            "partner_player_id", flat=True
        )
    )
    return list(
        Player.objects.filter(pk__in=ids - {None}, merged_into__isnull=False).select_related(
            "merged_into"
        )
    )


@dataclass(frozen=True)
class FigureLine:
    name: str
    value: float  # evenings, an average place or points
    evening: str = ""  # the evening of a best single evening


FIGURE_NAMES = 5  # names shown for one figure; more tied for it are counted


@dataclass(frozen=True)
class Figure:
    lines: list[FigureLine]
    more: int = 0  # tied for it as well, not named


@dataclass(frozen=True)
class SeasonLines:
    """The season's figures as shown: most evenings, best average place, best evening,
    Pechvogel (each: the first few tied for it by name, the rest counted)."""

    most_evenings: Figure
    best_average: Figure
    best_evening: Figure
    pechvogel: Figure

    @property
    def any(self) -> bool:
        return bool(self.most_evenings.lines)


def season_lines(series: Series, public: bool) -> SeasonLines:
    """The season's figures in words; a player who did not agree to be named is not named
    where it is public."""
    tournaments, evenings, _unlinked, declined, _numbers = _evenings(series)
    figures = season_figures(evenings, series.min_evenings)
    shown = {
        field: list(getattr(figures, field))[:FIGURE_NAMES]
        for field in ("most_evenings", "best_average", "best_evening", "pechvogel")
    }
    keys: set[int] = set()
    for records in shown.values():
        for r in records:
            keys.update(r.player if isinstance(r.player, tuple) else (r.player,))
    players = Player.objects.in_bulk(keys)

    def name(key: object) -> str:
        ids = key if isinstance(key, tuple) else (key,)
        people = [players[k] for k in ids if k in players]
        named = all(p.consent for p in people) and key not in declined
        if public and not named:
            return _("(ohne Namen)")
        return " / ".join(p.name for p in people)

    def figure(field: str) -> Figure:
        lines = [
            FigureLine(
                name(r.player),
                r.value,
                tournaments[r.evening].name if r.evening is not None else "",
            )
            for r in shown[field]
        ]
        return Figure(lines, len(getattr(figures, field)) - len(lines))

    return SeasonLines(
        figure("most_evenings"), figure("best_average"), figure("best_evening"), figure("pechvogel")
    )


@dataclass(frozen=True)
class SeasonEvening:
    tournament: Tournament
    place: int | None
    value: int | None  # what the evening gives in the cup (None: not played)
    counted: bool
    upcoming: bool = False  # not played yet: the evening is still to come


@dataclass(frozen=True)
class MySeason:
    series: Series
    evenings: list[SeasonEvening]
    total: int
    place: int | None
    shared: bool


SEASON_SECONDS = 600


Season = tuple[
    list[Tournament], list[list[EveningResult]], dict[int, int], dict[Hashable, SeriesRow]
]


def _season(series: Series) -> Season:
    """A cup's evenings, results, register roots and ranking rows by player: worked out once
    per change of the cup's counted sheets (or of anything else) and shared by every player's page
    that shows the season (each would otherwise rank every evening of the cup anew)."""

    def make() -> Season:
        tournaments, evenings, _u, _d, _n = _evenings(series)
        rows = {r.player: r for r in series_ranking(evenings, series_rule(series))}
        return tournaments, evenings, roots(series.verein), rows

    key = (
        f"binokel:season:{series.pk}:{public_cache.generation(public_cache.cup_scope(series.slug))}"
    )
    return public_cache.kept_or_previous(key, make, SEASON_SECONDS, f"season:{series.pk}")


def entrant_cups(entrant: Entrant) -> list[Series]:
    """The cups an entrant's evening counts in, in the entrant's mode."""
    return list(entrant.tournament.series.filter(mode=entrant.competition.mode))


def my_seasons(entrant: Entrant, cups: Sequence[Series] | None = None) -> list[MySeason]:
    """The cups of an entrant's evening that they play in: each evening's place and value,
    what counts (best n of m), the total and the place so far. ``cups``: the evening's cups in
    the entrant's mode (``entrant_cups``), if the caller holds them already."""
    if entrant.player_id is None:
        return []
    pairs = entrant.competition.mode == Mode.PAIRS
    today = timezone.localdate()
    out = []
    for series in entrant_cups(entrant) if cups is None else cups:
        tournaments, evenings, person, rows = _season(series)
        key = evening_key(entrant, pairs, person)
        row = rows.get(key)
        if row is None:
            continue
        places = [next((r.place for r in results if r.player == key), None) for results in evenings]
        out.append(
            MySeason(
                series,
                [
                    SeasonEvening(
                        t,
                        places[i],
                        row.values[i],
                        row.counted[i],
                        upcoming=row.values[i] is None and t.date is not None and t.date >= today,
                    )
                    for i, t in enumerate(tournaments)
                ],
                row.total,
                row.place,
                row.shared,
            )
        )
    return out
