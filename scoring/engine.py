"""Validating and scoring one game (docs/rules.md, "Scoring one game" and
"What an entry must satisfy").

``check_game`` returns every problem of an entry (errors, each addressed to its field) and what
deserves a second look (warnings: a bid no hand can make); it never raises. ``validate_game``
returns the errors only. ``score_game`` raises ``ScoringError`` with the errors, or returns the
points. ``read_game`` does the same for a game's JSON: problems of type and shape and problems of
the entry itself come in one answer (a field of the wrong type is reported once and its own
checks are skipped; every other field is still checked).

What varies between rule systems is the rule set's (scoring/rules.py): the kinds it plays, the
eyes (250 with the ejl cards, 240 Machtpunkte in Luxusfamilie), the hands and the Dabb, the
meld table, the trick point scale and the minus points.

Decisions beyond the ejl rulebook (docs/rules.md "Decisions"; each documented where it is made):

* An empty meld counts as 0; empty tricks of a played game or a Durch count as 0 (the trick sum
  must still be the rule set's eyes). A 0 where "nothing is entered" is required (tricks of a
  conceded game, melds of a special game, minus points where there are none) is accepted.
* The declarer's tricks always include the pressed cards (also in a Durch: there is no Durch
  without the Dapp, rule 14), so they are at least 8 eyes (4 Unter) with the ejl cards.
* A party "took a trick" when its tricks are > 0, unless marked: the declarer may be marked
  ``took_trick=False`` explicitly, then its tricks are only the pressed cards (8 to 44 eyes).
  ``took_trick`` on any party must agree with its tricks (True needs tricks > 0 where every
  trick holds eyes; False on an opponent needs 0).
* Rule 13 for a revoking opponent looks at the tricks it actually took: its tricks then count 0
  but its meld stays (rule 7).
* A Durch (also aufgelegt) is won when the declarer took every trick and did not revoke; a
  Bettel when the declarer is marked as having taken no trick and did not revoke.
* ``opponents_half_bid_on_lost`` (preisbinokel) applies to every lost game, a lost special game
  too.
* ``per_player`` conceded bonus: the players of the game are 3 for three parties (also the three
  active players of a 4-table whose dealer sits out: the classic rule gives 30 there too) and 4
  for two pairs.
* Minus points (Luxusfamilie) come off the eyes before they are scaled; where the rule set says
  ``penalty_before_scaling=false``, and in games without tricks, off the points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from types import MappingProxyType

from scoring import messages as M
from scoring.errors import FieldError, ScoringError
from scoring.kinds import GameKind
from scoring.melds import (
    achievable_pair_totals,
    achievable_totals,
    highest_total,
    nearest_totals,
)
from scoring.model import GameInput, GameRead, GameResult, PartyInput
from scoring.rules import EJL, RuleSet

MIN_PRESSED_EYES = 8  # ejl: 4 pressed cards, at least 4 Unter (RuleSet.pressed_eyes)
# Above this no trick minimum or pressed cards could object (an upper bound, for speed).
MAX_TRICK_MINIMUM = 60
PLAYERS = {3: 3, 2: 4}  # parties -> players in the game

# Problems of type or shape, by field (see GameRead): none for a game built in code.
_Problems = Mapping[str, Sequence[FieldError]]
_NO_PROBLEMS: _Problems = MappingProxyType({})


def round10(eyes: int) -> int:
    """To the nearest multiple of 10, a remainder of 5 rounds up (74 -> 70, 75 -> 80)."""
    return (eyes + 5) // 10 * 10


def ceil10(value: int) -> int:
    """Up to a multiple of 10 (85 -> 90, 80 -> 80)."""
    return -(-value // 10) * 10


def half_bid(bid: int) -> int:
    """Half the bid rounded up to 10 (rule 6): 170 -> 90."""
    return ceil10(-(-bid // 2))


# --- validation --------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameCheck:
    """What checking one game entry found: ``errors`` make it invalid (it cannot be scored),
    ``warnings`` only ask for a second look (e.g. a bid no hand can make: the desk must still be
    able to record what was really bid). Both are field-addressed and translatable."""

    errors: tuple[FieldError, ...] = ()
    warnings: tuple[FieldError, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.errors


def check_game(game: GameInput, rules: RuleSet = EJL) -> GameCheck:
    """Every problem of one game entry (errors) and everything worth a second look (warnings),
    each addressed to its field."""
    return _validate(game, rules, _NO_PROBLEMS)


def validate_game(game: GameInput, rules: RuleSet = EJL) -> list[FieldError]:
    """Every problem of one game entry, addressed to its field; an empty list when it is valid
    (warnings are not problems: see ``check_game``)."""
    return list(_validate(game, rules, _NO_PROBLEMS).errors)


def read_game(data: object, rules: RuleSet = EJL) -> GameInput:
    """A valid game from its JSON shape (see scoring/model.py), or ScoringError naming every
    problem: of type and shape, and of the entry itself, in field order."""
    read = GameInput.read(data)
    if read.game is None:
        raise ScoringError(read.errors)
    errors = _validate(read.game, rules, read.problems).errors
    if errors:
        raise ScoringError(errors)
    return read.game


def check_read(read: GameRead, rules: RuleSet = EJL) -> GameCheck:
    """Errors and warnings of a game as it was read (``GameInput.read``, or a score sheet that
    read the game and names the fields it could not read): each unreadable field's problems in
    place of its checks, and every check that does not need an unreadable value."""
    if read.game is None:
        return GameCheck(read.errors, ())
    return _validate(read.game, rules, read.problems)


def _validate(game: GameInput, rules: RuleSet, problems: _Problems) -> GameCheck:
    """The checks of ``check_game``. A field in ``problems`` could not be read: its problems
    are reported in its place, its own checks are skipped, and so is every check that needs its
    value; any problem left over (an unknown field) comes last."""
    errors: list[FieldError] = []
    warnings: list[FieldError] = []
    reported: set[str] = set()

    def unreadable(field: str) -> bool:
        if not problems or field not in problems:
            return False
        errors.extend(problems[field])
        reported.add(field)
        return True

    kind = game.kind
    if not unreadable("kind"):
        if kind is None:
            errors.append(FieldError.of("kind", M.REQUIRED))
        elif not rules.plays(kind):
            errors.append(FieldError.of("kind", _NOT_PLAYED[kind]))

    parties: Sequence[PartyInput] = game.parties
    count = len(parties)
    parties_known = not (problems and "parties" in problems)

    declarer: int | None = None
    if unreadable("declarer"):
        pass
    elif game.declarer is None:
        errors.append(FieldError.of("declarer", M.DECLARER_MISSING))
    elif not parties_known:
        pass  # the parties could not be read: the declarer's range is unknown
    elif not 0 <= game.declarer < count:
        errors.append(FieldError.of("declarer", M.DECLARER_RANGE, value=game.declarer, count=count))
    else:
        declarer = game.declarer

    revoked_known = not (problems and "revoked" in problems)
    revoked_errors: list[FieldError] = []
    revoked = (
        _check_revoked(game.revoked, count if parties_known else None, kind, revoked_errors)
        if revoked_known
        else None
    )

    if not unreadable("bid"):
        errors.extend(_check_bid(game, kind, declarer, revoked, rules))
        if parties_known:
            warnings.extend(_bid_warnings(game, rules))
    if not unreadable("parties"):
        if count not in PLAYERS:
            errors.append(FieldError.of("parties", M.PARTY_COUNT, count=count))
        elif rules.hand_size(count) is None:
            errors.append(FieldError.of("parties", M.NO_PAIR_TABLES))

    tricks_ok = parties_known
    trick_sum = 0
    for i, party in enumerate(parties):
        prefix = f"parties[{i}]"
        if unreadable(prefix):
            tricks_ok = False
            continue
        field = f"{prefix}.meld"
        if not unreadable(field):
            errors.extend(_check_meld(party.meld, field, kind, count, rules))
        field = f"{prefix}.tricks"
        tricks = party.tricks
        tricks_known = not unreadable(field)
        if not tricks_known:
            tricks_ok = False
        elif kind is GameKind.CONCEDED:
            if tricks:
                errors.append(FieldError.of(field, M.TRICKS_IN_CONCEDED))
        elif tricks is not None and not 0 <= tricks <= rules.total_eyes:
            errors.append(
                FieldError.of(field, M.TRICKS_RANGE, eyes=rules.total_eyes, tricks=tricks)
            )
            tricks_ok = tricks_known = False
        else:
            trick_sum += tricks or 0
            if kind is not None and declarer is not None:
                errors.extend(_check_trick_minimum(tricks or 0, field, i == declarer, count, rules))
        if not unreadable(f"{prefix}.took_trick"):
            errors.extend(_check_took_trick(party, i, kind, declarer, tricks_known, count, rules))
        if (party.penalty or problems) and not unreadable(f"{prefix}.penalty"):
            errors.extend(_check_penalty(party.penalty, f"{prefix}.penalty", rules))

    has_tricks = kind is not None and kind is not GameKind.CONCEDED
    if has_tricks and tricks_ok and trick_sum != rules.total_eyes:
        errors.append(
            FieldError.of("parties", M.TRICKS_SUM, eyes=rules.total_eyes, total=trick_sum)
        )
    if not unreadable("revoked"):
        errors.extend(revoked_errors)
    if problems:
        for field, left in problems.items():
            if field not in reported:
                errors.extend(left)
    return GameCheck(tuple(errors), tuple(warnings))


# Why a kind the rule set does not play is refused (preisbinokel refuses a Durch).
_NOT_PLAYED: Mapping[GameKind, str] = MappingProxyType(
    {
        GameKind.PLAYED: M.GAME_KINDS_WITHOUT_PLAYED,  # a rule set always plays played games
        GameKind.CONCEDED: M.NOT_PLAYED_CONCEDED,
        GameKind.DURCH: M.NOT_PLAYED_DURCH,
        GameKind.DURCH_AUFGELEGT: M.NOT_PLAYED_DURCH_AUFGELEGT,
        GameKind.BETTEL: M.NOT_PLAYED_BETTEL,
    }
)


def _check_penalty(penalty: int | None, field: str, rules: RuleSet) -> list[FieldError]:
    """Minus points are entered as a positive number, the sum of what the player was given
    (docs/rules.md "luxusfamilie": 20, 50, 100 each); only where the rule set has penalties."""
    if not penalty:
        return []
    values = rules.penalty_values
    if not values:
        return [FieldError.of(field, M.NO_PENALTIES)]
    if penalty < 0:
        return [FieldError.of(field, M.PENALTY_NEGATIVE, penalty=penalty)]
    if not _is_sum_of(penalty, values):
        listed = ", ".join(map(str, values))
        return [FieldError.of(field, M.PENALTY_NOT_A_SUM, values=listed, penalty=penalty)]
    return []


def _is_sum_of(total: int, values: Sequence[int]) -> bool:
    """Whether ``total`` is a sum of ``values`` (each as often as wanted)."""
    reachable = [True] + [False] * total
    for amount in range(1, total + 1):
        reachable[amount] = any(v <= amount and reachable[amount - v] for v in values)
    return reachable[total]


def _check_trick_minimum(
    tricks: int, field: str, is_declarer: bool, parties: int, rules: RuleSet
) -> list[FieldError]:
    """Plausibility (docs/rules.md "Plausibility"): the declarer's tricks hold the pressed cards (at
    least 8 eyes with 4 Unter); any other party that took a trick took at least the cheapest trick
    (6 eyes at a 3-table, 8 at a pair table)."""
    if parties not in PLAYERS or tricks >= MAX_TRICK_MINIMUM:
        return []  # the usual case: more than any trick or the pressed cards need
    if is_declarer:
        least = rules.pressed_eyes(parties)[0]
        if tricks >= least:
            return []
        if (rules.dabb_size(parties), least) == (4, MIN_PRESSED_EYES):
            return [FieldError.of(field, M.DECLARER_TRICKS_TOO_FEW, tricks=tricks)]
        return [
            FieldError.of(
                field,
                M.DECLARER_TRICKS_BELOW_PRESSED,
                cards=rules.dabb_size(parties),
                least=least,
                tricks=tricks,
            )
        ]
    least = rules.trick_min_eyes(parties)
    if 0 < tricks < least:
        return [
            FieldError.of(
                field, M.TRICKS_BELOW_ONE_TRICK, least=least, cards=PLAYERS[parties], tricks=tricks
            )
        ]
    return []


def _check_revoked(
    revoked: tuple[int, ...], count: int | None, kind: GameKind | None, errors: list[FieldError]
) -> frozenset[int]:
    """Report problems of ``revoked`` into ``errors``; return the valid party numbers in it
    (``count`` None: the parties could not be read, so no number is out of range)."""
    seen: set[int] = set()
    for value in revoked:
        if count is not None and not 0 <= value < count:
            errors.append(FieldError.of("revoked", M.REVOKED_UNKNOWN, value=value))
        elif value in seen:
            errors.append(FieldError.of("revoked", M.REVOKED_TWICE, value=value))
        else:
            seen.add(value)
    if kind is GameKind.CONCEDED and revoked:
        errors.append(FieldError.of("revoked", M.REVOKED_IN_CONCEDED))
    return frozenset(seen)


def _check_bid(
    game: GameInput,
    kind: GameKind | None,
    declarer: int | None,
    revoked: frozenset[int] | None,
    rules: RuleSet,
) -> list[FieldError]:
    bid = game.bid
    if bid is None:
        if kind is None:
            return []  # whether a bid is needed depends on the kind (a won Durch needs none)
        if kind.is_special:
            # A won special game needs no bid; a lost one costs a multiple of the bid.
            if declarer is not None and _special_won(game, kind, declarer, revoked, rules) is False:
                msgid = M.BID_MISSING_LOST_DURCH if kind.is_durch else M.BID_MISSING_LOST_BETTEL
                return [FieldError.of("bid", msgid, factor=rules.lost_factor_of(kind))]
            return []
        return [FieldError.of("bid", M.BID_MISSING)]
    errors = []
    if bid < rules.min_bid:
        errors.append(FieldError.of("bid", M.BID_TOO_LOW, min_bid=rules.min_bid, bid=bid))
    if bid % rules.bid_step:
        errors.append(FieldError.of("bid", M.BID_STEP, step=rules.bid_step, bid=bid))
    return errors


def _bid_warnings(game: GameInput, rules: RuleSet) -> list[FieldError]:
    """A bid no hand can make (the highest meld plus every eye) is likely a typo (2000 for
    200, which would cost the declarer 4000 points): a warning, not an error (docs/rules.md
    "What an entry must satisfy"), so
    that the desk can still record what was really bid."""
    bid = game.bid
    highest = _highest_makeable_bid(len(game.parties), rules)
    if bid is None or highest is None or bid <= highest:
        return []  # the usual case: nothing to warn about
    tricks = rules.trick_points(rules.total_eyes)
    return [FieldError.of("bid", M.BID_TOO_HIGH, highest=highest, tricks=tricks, bid=bid)]


def _highest_makeable_bid(parties: int, rules: RuleSet) -> int | None:
    """The highest bid any hand could make at this table: highest meld + every trick point
    (250 eyes with the ejl cards), computed once per rule set."""
    key = ("highest_makeable_bid", parties)
    if key not in rules.memo:
        cards = rules.hand_size(parties)
        tricks = rules.trick_points(rules.total_eyes)
        if cards is None:
            rules.memo[key] = None
        else:
            rules.memo[key] = highest_total(None if parties == 2 else cards, rules) + tricks
    highest = rules.memo[key]
    return None if highest is None else int(highest)


def _special_won(
    game: GameInput,
    kind: GameKind,
    declarer: int,
    revoked: Set[int] | None,
    rules: RuleSet,
) -> bool:
    """Whether the declarer won a special game: a Durch (also aufgelegt) took every trick, a
    Bettel took none. Decision: a Bettel player who took no trick is marked so (the sheet's
    "ohne Stich", ``took_trick`` false), as docs/rules.md "Scoring one game" asks of every declarer
    without a trick: the declarer's tricks hold the pressed cards, so they are not 0 even then."""
    party = game.parties[declarer]
    if revoked is not None and declarer in revoked:
        return False
    tricks = party.tricks or 0
    if kind.is_durch:
        return party.took_trick is not False and tricks == rules.total_eyes
    if party.took_trick is False:
        return True
    no_dabb = rules.dabb_size(len(game.parties)) == 0
    return no_dabb and tricks == 0 and rules.trick_min_eyes(len(game.parties)) > 0


def _check_meld(
    meld: int | None, field: str, kind: GameKind | None, count: int, rules: RuleSet
) -> list[FieldError]:
    if meld is None:
        return []
    if kind is not None and kind is not GameKind.PLAYED and kind is not GameKind.CONCEDED:
        if meld == 0:  # a special game: no melds
            return []
        return [FieldError.of(field, M.MELD_IN_DURCH if kind.is_durch else M.MELD_IN_BETTEL)]
    if meld < 0:
        return [FieldError.of(field, M.MELD_NEGATIVE, meld=meld)]
    if meld % 10:
        return [FieldError.of(field, M.MELD_STEP, meld=meld)]
    allowed = _allowed_melds(count, rules)
    if allowed is None or meld in allowed:
        return []
    is_pair = count == 2
    cards = rules.hand_size(count)
    below, above = nearest_totals(meld, None if is_pair else cards, rules)
    if above is None:
        msgid = M.MELD_IMPOSSIBLE_PAIR_MAX if is_pair else M.MELD_IMPOSSIBLE_HAND_MAX
        return [FieldError.of(field, msgid, meld=meld, highest=below, cards=cards)]
    msgid = M.MELD_IMPOSSIBLE_PAIR if is_pair else M.MELD_IMPOSSIBLE_HAND
    return [FieldError.of(field, msgid, meld=meld, below=below, above=above, cards=cards)]


def _allowed_melds(parties: int, rules: RuleSet) -> frozenset[int] | None:
    """The melds a party can show in a game of ``parties`` parties (None: no such game)."""
    key = ("allowed_melds", parties)
    if key not in rules.memo:
        cards = rules.hand_size(parties) if parties in PLAYERS else None
        if cards is None:
            rules.memo[key] = None
        elif parties == 2:
            rules.memo[key] = achievable_pair_totals(rules)
        else:
            rules.memo[key] = achievable_totals(cards, rules)
    allowed = rules.memo[key]
    assert allowed is None or isinstance(allowed, frozenset)
    return allowed


def _check_took_trick(
    party: PartyInput,
    index: int,
    kind: GameKind | None,
    declarer: int | None,
    tricks_known: bool,
    parties: int,
    rules: RuleSet,
) -> list[FieldError]:
    took = party.took_trick
    field = f"parties[{index}].took_trick"
    if took is None:
        return []
    if kind is GameKind.CONCEDED:
        return [FieldError.of(field, M.TOOK_TRICK_IN_CONCEDED)]
    if not tricks_known:
        return []  # the tricks could not be read, or are reported already
    eyes = party.tricks or 0
    if took and eyes == 0 and parties in PLAYERS and rules.trick_min_eyes(parties) > 0:
        return [FieldError.of(field, M.TOOK_TRICK_BUT_NO_EYES)]
    if not took:
        if declarer is None or parties not in PLAYERS:
            return []
        most = rules.pressed_eyes(parties)[1]
        if index == declarer and eyes > most:
            cards = rules.dabb_size(parties)
            return [
                FieldError.of(field, M.TOOK_TRICK_PRESSED_ONLY, cards=cards, most=most, tricks=eyes)
            ]
        if index != declarer and eyes > 0:
            return [FieldError.of(field, M.NO_TRICK_BUT_EYES, tricks=eyes)]
    return []


# --- scoring -----------------------------------------------------------------------------------
def score_game(game: GameInput, rules: RuleSet = EJL) -> GameResult:
    """The points of every party; raises ScoringError (every problem) if the entry is invalid."""
    errors = validate_game(game, rules)
    if errors:
        raise ScoringError(errors)
    return _score_valid(game, rules)


def _score_valid(game: GameInput, rules: RuleSet) -> GameResult:
    """The points of a game ``validate_game`` found valid."""
    parties = game.parties
    declarer = game.declarer
    kind = game.kind
    assert declarer is not None and kind is not None
    count = len(parties)
    melds = [party.meld or 0 for party in parties]
    tricks = [party.tricks or 0 for party in parties]
    bid = game.bid or 0

    # Minus points (Luxusfamilie): off the eyes before they are scaled (``before``), or off
    # the points (``after``); empty where the rule set has none.
    before: list[int] = []
    after: list[int] = []
    if rules.penalty_values:
        penalties = [party.penalty or 0 for party in parties]
        if rules.penalty_before_scaling and kind is not GameKind.CONCEDED:
            before = penalties
        else:
            after = penalties

    if kind is GameKind.CONCEDED:
        if rules.conceded_opponent_mode == "per_player":
            bonus = rules.conceded_bonus_per_player * PLAYERS[count]
        elif rules.conceded_opponent_mode == "per_opponent":
            bonus = rules.conceded_bonus_per_opponent
        else:
            bonus = half_bid(bid)
        points = [meld + bonus for meld in melds]
        points[declarer] = -rules.conceded_declarer_factor * bid
        return GameResult(_minus(points, after), False)

    counted = round10 if rules.trick_rounding == "round10" else _exact
    revoked = frozenset(game.revoked)
    # Trick points: a revoking opponent's tricks count 0 (rule 7); the eyes scaled where the
    # rule set says so (Luxusfamilie), exact (they decide won or lost, rule 11), then rounded.
    exact = [0 if i in revoked else eyes for i, eyes in enumerate(tricks)]
    if before:
        exact = [eyes - minus for eyes, minus in zip(exact, before, strict=True)]
    if rules.trick_scaling:
        exact = [rules.trick_points(eyes) for eyes in exact]
    trick_points = [counted(points) for points in exact]
    lost_bonus = half_bid(bid) if rules.opponents_half_bid_on_lost else 0

    if kind is not GameKind.PLAYED:  # a special game (conceded games are done above)
        won = _special_won(game, kind, declarer, revoked, rules)
        if won:
            points = [0] * count
            points[declarer] = rules.won_value(kind)
        else:
            points = [p + lost_bonus for p in trick_points]
            points[declarer] = -rules.lost_factor_of(kind) * bid
        return GameResult(_minus(points, after), won)

    # A party took a trick when it has eyes, unless marked otherwise: the declarer's eyes hold
    # the pressed cards, and with some counting variants a trick can hold no eyes.
    took_trick = [s > 0 for s in tricks]
    for i, party in enumerate(parties):
        if party.took_trick is not None:
            took_trick[i] = party.took_trick
    # Rule 13: a party that took no trick loses its meld.
    kept = [
        meld if took or not rules.meld_needs_trick else 0
        for meld, took in zip(melds, took_trick, strict=True)
    ]
    # Rule 11: won or lost is decided on the exact eyes; rule 7: a revoking declarer loses.
    # docs/rules.md "luxusfamilie": the declarer's melds and trick points (after the minus points)
    # reach the bid.
    reached = kept[declarer] + exact[declarer] - (after[declarer] if after else 0)
    won = declarer not in revoked and reached >= bid
    points = [kept[i] + trick_points[i] + (0 if won else lost_bonus) for i in range(count)]
    points[declarer] = (
        kept[declarer] + trick_points[declarer]
        if won
        else -(rules.lost_factor * bid + rules.lost_extra)
    )
    return GameResult(_minus(points, after), won)


def _minus(points: Sequence[int], penalties: Sequence[int]) -> tuple[int, ...]:
    """The points less the minus points taken off them (none: ``penalties`` is empty)."""
    if not penalties:
        return tuple(points)
    return tuple(p - m for p, m in zip(points, penalties, strict=True))


def _exact(eyes: int) -> int:
    return eyes
