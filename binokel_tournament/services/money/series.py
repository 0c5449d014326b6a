"""Series (cups) over several tournaments and the player register, the bridge to
``charity.series``. Entrants are linked to players explicitly (a returning player is found by
name, the desk links or creates); players can be merged, and deleted on request (their
tournaments keep the names they played under). Register and series are the installation's,
not one tournament's: changing them needs an account that may create tournaments; linking an
entrant needs REGISTER in its tournament."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from charity.series import (
    DEFAULT_CUP_POINTS,
    EveningResult,
    SeriesMethod,
    SeriesRow,
    SeriesRule,
    series_ranking,
)

from ...models import Entrant, Mode, Player, Series, Tournament
from ..access import Action, Actor, require, require_create_tournament
from ..audit import log_action
from ..errors import DeskError
from ..evening.standings import compute_standings
from ..names import fold, folded_name

PlayerKey = int | tuple[int, int]
SUGGESTIONS = 5  # players offered while a name is typed
SUGGEST_FROM = 3  # letters typed before the register is searched


class RegisterIndex:
    """The register's players by folded name (``names.fold``: case, spacing, accents, ß/ss
    and ä/ae do not matter), read once: a page that looks up every entrant of a tournament
    asks it, not the database once per name."""

    def __init__(self) -> None:
        self.by_key: dict[str, list[Player]] = {}
        for player in Player.objects.only("name", "club", "consent").order_by("name", "club", "id"):
            self.by_key.setdefault(folded_name(player.name), []).append(player)

    def candidates(self, name: str, limit: int = 5) -> list[Player]:
        """Players of the register with this name."""
        key = fold(name)
        return self.by_key.get(key, [])[:limit] if key else []


def suggestions(typed: str, limit: int = SUGGESTIONS) -> list[Player]:
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
    for pk, name in Player.objects.order_by("name", "club", "id").values_list("id", "name"):
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


def candidates(name: str, limit: int = 5) -> list[Player]:
    """Players of the register with this name (case, spaces, accents, ß/ss aside)."""
    return RegisterIndex().candidates(name, limit)


@dataclass(frozen=True)
class LinkSummary:
    linked: int  # entrants (or partners) linked to the one player of their name
    created: int  # new register entries made for names the register did not know
    ambiguous: list[str]  # names with several players of that name: the desk decides


def link_all(tournament: Tournament, user: Actor, *, create_new: bool) -> LinkSummary:
    """Link every entrant (and partner) not yet linked whose name has exactly one player in
    the register; with ``create_new``, make a register entry for each name the register does
    not know. Names that are not clear stay for the desk to decide, one by one: several
    players of that name, the one player already linked in this tournament, or the name twice
    among this tournament's unlinked entrants."""
    require(user, tournament, Action.REGISTER)
    with transaction.atomic():  # all clear names or none
        return _link_all(tournament, user, create_new)


def _link_all(tournament: Tournament, user: Actor, create_new: bool) -> LinkSummary:
    index = RegisterIndex()
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
        if twice[key] > 1 or len(found) > 1 or (found and found[0].pk in used):
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
    player = Player.objects.filter(pk=player_id).first()
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
    require(user, entrant.tournament, Action.REGISTER)
    with transaction.atomic():
        fresh = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if player is None:
            name = fresh.partner if partner else fresh.name
            if not name:
                raise DeskError(_("Dieses Paar hat keinen Partner eingetragen."))
            player = Player.objects.create(name=name, club=fresh.club)
        _store_link(fresh, player, user, partner)
    entrant.player_id, entrant.partner_player_id = fresh.player_id, fresh.partner_player_id
    return player


def unlink_player(entrant: Entrant, user: Actor, *, partner: bool = False) -> None:
    require(user, entrant.tournament, Action.REGISTER)
    _store_link(entrant, None, user, partner)


def merge_players(keep: Player, other: Player, user: Actor) -> Player:
    """The same person twice in the register: ``other``'s entries move to ``keep``."""
    require_create_tournament(user)
    if keep.pk == other.pk:
        raise DeskError(_("Zum Zusammenführen bitte zwei verschiedene Einträge wählen."))
    with transaction.atomic():
        Entrant.objects.filter(player=other).update(player=keep)
        Entrant.objects.filter(partner_player=other).update(partner_player=keep)
        keep.consent = keep.consent or other.consent
        keep.save(update_fields=["consent"])
        log_action(None, user, "player.merge", keep, {"merged": str(other.uid)}, None)
        other.delete()
    return keep


def delete_player(player: Player, user: Actor) -> None:
    """Deletion on request: the register entry goes, the entrants keep their names."""
    require_create_tournament(user)
    log_action(None, user, "player.delete", player, {"uid": str(player.uid)}, None)
    player.delete()


def set_consent(player: Player, consent: bool, user: Actor) -> None:
    require_create_tournament(user)
    player.consent = consent
    player.save(update_fields=["consent"])
    log_action(None, user, "player.consent", player, None, {"consent": consent})


def register_rows(query: str = "", limit: int = 200) -> list[tuple[Player, int]]:
    """Players (with their number of entries), filtered by a name or club."""
    players = Player.objects.all()
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


def create_series(name: str, user: Actor, **fields: object) -> Series:
    require_create_tournament(user)
    name = name.strip()
    if not name:
        raise DeskError(_("Bitte einen Namen angeben."), "name")
    base = slugify(name) or "cup"
    slug, n = base, 1
    while Series.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    series = Series.objects.create(name=name, slug=slug, **fields)
    log_action(None, user, "series.create", series, None, {"name": name})
    return series


def update_series(
    series: Series, user: Actor, fields: dict[str, object], tournaments: list[Tournament]
) -> Series:
    require_create_tournament(user)
    for t in tournaments:
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


def evening_key(entrant: Entrant, pairs: bool) -> PlayerKey | None:
    if entrant.player_id is None:
        return None
    if not pairs:
        return entrant.player_id
    if entrant.partner_player_id is None:
        return None
    a, b = sorted((entrant.player_id, entrant.partner_player_id))
    return (a, b)


def series_standings(series: Series) -> SeriesStandings:
    pairs = series.mode == Mode.PAIRS
    tournaments = sorted(series.tournaments.all(), key=lambda t: (t.date is None, t.date, t.name))
    evenings: list[list[EveningResult]] = []
    unlinked = 0
    declined: set[PlayerKey] = set()  # said "not my name on public pages" on an evening
    for t in tournaments:
        results: list[EveningResult] = []
        competition = t.competitions.filter(mode=series.mode).first()
        if competition is not None:
            for row in compute_standings(competition).rows:
                if row.games == 0:
                    continue
                key = evening_key(row.entrant, pairs)
                if key is None:
                    unlinked += 1
                    continue
                if not row.entrant.public_name:
                    declined.add(key)
                results.append(EveningResult(key, row.place, row.total))
        evenings.append(results)
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
