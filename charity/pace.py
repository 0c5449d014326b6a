"""The pace of the evening, pure Python: from the times the tables' games arrive (phones) and
the sheets come in (paper), forecast when each table and the round will finish and when the
prize-giving can start.

The model, in three steps:

1. **The hall's pace** (minutes per game): every game seen so far — a phone's games one by one,
   a paper sheet as its games over the time from the round's start to the sheet — measured
   against the planned pace (a setting), which counts as ``prior_games`` games: before any data
   the forecast is the plan, and the more games arrive the more it is the hall.
2. **Each table**: its pace over the hall's, on a grid (0.55 to 3 times), starts from what
   the hall knows before it plays -- ordinary tables spread around the hall's pace (measured
   from the tables of the rounds played), and a few tables wait for a much slower player
   (about 1.55 times slower): the chance of that is the chance one of its players is slow,
   from the tables they sat at in the rounds played (a table 1.7 times slower in round 1 makes
   each of its three players suspect in round 2; twice slow, and it is sure). A table entering
   on a phone weighs this by its own games (how long they took, and how long the game under
   way has taken so far); a paper table says nothing until it hands in its sheet, except that
   it has not yet. Its end is the mixture over those paces of its remaining games (gamma
   distributed, each game's time varying by ``GAME_SPREAD``), after now; the round ends with
   its *slowest* table: the median of the latest end.
3. **The rest of the evening**: each round still to come lasts as long as the rounds played
   took (or, before any finished, its games at the hall's pace for its slowest table), with the
   break between rounds before it and before the prize-giving.

Tables far behind their own pace (their forecast end well after the end their own number of
games at the hall's pace gives) are flagged for the desk: a table of 16 games is not behind
the tables of 12 because it has more to play.

``simulate_evening`` makes recorded evenings with known finishing times (players with their
own paces seated anew each round, a few much slower ones, game times that vary), so the
forecast can be measured against the truth (tests/charity/test_pace.py, benchmarks/pace.py);
the forecast sees only what the hall sees (``SimulatedRound.seen_at``)."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

MINUTE = timedelta(minutes=1)


@dataclass(frozen=True)
class TableClock:
    """One table in one round: its sheet's number of games, when each game arrived so far
    (a phone; empty for a paper table), and when it finished (the last game arrived, or the
    paper sheet came in; None while it plays)."""

    number: int
    games: int
    arrived: tuple[datetime, ...] = ()
    finished_at: datetime | None = None
    players: tuple[int, ...] = ()  # who sits there, by the same keys in every round

    @property
    def done(self) -> int:
        return self.games if self.finished_at is not None else len(self.arrived)


@dataclass(frozen=True)
class RoundClock:
    number: int
    started_at: datetime | None  # None: not started yet
    tables: tuple[TableClock, ...] = ()

    @property
    def finished_at(self) -> datetime | None:
        """When the last table finished (None while any plays, or before the start)."""
        if self.started_at is None or not self.tables:
            return None
        ends = [t.finished_at for t in self.tables]
        return None if any(e is None for e in ends) else max(e for e in ends if e is not None)

    @property
    def games(self) -> int:
        return max((t.games for t in self.tables), default=0)


@dataclass(frozen=True)
class PacePlan:
    """What the organiser planned: minutes per game (before any data), the break between two
    rounds and before the prize-giving; how many games the plan weighs."""

    minutes_per_game: float = 4.0
    break_minutes: float = 15.0
    prior_games: float = 12.0
    behind_minutes: float = 15.0  # a table this much after its own expected end is flagged
    # No game of Binokel (deal, meld, a dozen tricks, write) is played in under a minute: a
    # table or round faster than this was not timed by its play (a round typed in after the
    # evening, a sheet entered twice over, the demo) and tells nothing of the pace.
    fastest_minutes_per_game: float = 1.0


@dataclass(frozen=True)
class TableForecast:
    number: int
    done: int
    games: int
    end: datetime
    behind: bool = False  # far behind its own expected pace: the desk should look


@dataclass(frozen=True)
class Forecast:
    """The round being played (or the next to start), when it ends, when the prize-giving can
    start, and the basis: the pace in minutes per game and how many games it was measured
    from (0: the plan alone)."""

    round: int
    round_end: datetime
    prize_giving: datetime
    minutes_per_game: float
    games_seen: int
    tables: tuple[TableForecast, ...] = field(default_factory=tuple)

    @property
    def behind(self) -> tuple[TableForecast, ...]:
        return tuple(t for t in self.tables if t.behind)


def _minutes(delta: timedelta) -> float:
    return delta.total_seconds() / 60


@dataclass(frozen=True)
class _Seen:
    """What was measured: minutes and games per table (phones and finished paper tables)."""

    per_table: tuple[tuple[float, int], ...]

    @property
    def games(self) -> int:
        return sum(g for _m, g in self.per_table)

    @property
    def minutes(self) -> float:
        return sum(m for m, _g in self.per_table)


def _seen(rounds: Sequence[RoundClock], fastest: float = 0.0) -> _Seen:
    out = []
    for r in rounds:
        if r.started_at is None:
            continue
        for t in r.tables:
            if t.finished_at is not None:
                out.append((_minutes(t.finished_at - r.started_at), t.games))
            elif t.arrived:
                out.append((_minutes(t.arrived[-1] - r.started_at), len(t.arrived)))
    return _Seen(tuple((m, g) for m, g in out if g > 0 and m > 0 and m >= fastest * g))


def hall_pace(rounds: Sequence[RoundClock], plan: PacePlan) -> tuple[float, int]:
    """(minutes per game, games it was measured from): the games seen, drawn towards the
    planned pace as if the plan were ``prior_games`` games."""
    seen = _seen(rounds, plan.fastest_minutes_per_game)
    weight = plan.prior_games
    pace = (weight * plan.minutes_per_game + seen.minutes) / (weight + seen.games)
    return pace, seen.games


GAME_SPREAD = 0.45  # a single game's time around its table's pace (coefficient of variation)
GAME_SHAPE = 1 / GAME_SPREAD**2  # ... as the shape of a gamma distribution
TABLE_SPREAD = 0.15  # ordinary tables' paces around the hall's (sd of the log), before tables tell
SLOW_SHARE = 0.03  # the share of players much slower than the rest: their table waits for them
SLOW_FACTOR = 1.55  # a table with such a player plays about this much slower ...
SLOW_SPREAD = 0.12  # ... give or take this (sd of the log)
# a table's pace over the hall's, as the logarithm: 0.55 to 3 times, in steps of 5 %
GRID = tuple(-0.6 + 0.05 * i for i in range(35))
TINY = 1e-4  # a pace this unlikely is left out of a table's mixture


def _log_pdf(x: float, mean: float, sd: float) -> float:
    z = (x - mean) / sd
    return -0.5 * z * z - math.log(sd)


def _log_gamma_q(a: float, x: float) -> float:
    """The logarithm of the regularized upper incomplete gamma function Q(a, x): the chance that
    a gamma variable of shape ``a`` (scale 1) exceeds ``x``."""
    if x <= 0:
        return 0.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # the series of P, then Q = 1 - P
        term = total = 1 / a
        n = a
        for _ in range(200):
            n += 1
            term *= x / n
            total += term
            if term < total * 1e-12:
                break
        p = math.exp(log_front) * total
        return math.log1p(-p) if p < 1 else -745.0
    # the continued fraction of Q (Lentz)
    b = x + 1 - a
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 200):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = d if abs(d) > 1e-300 else 1e-300
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-12:
            break
    return log_front + math.log(h)


def _gamma_cdf(x: float, shape: float, scale: float) -> float:
    """P(X <= x) for a sum of games (gamma: ``shape``, ``scale``), by Wilson and Hilferty's
    cube root (a few games' sums are close to normal there)."""
    if x <= 0:
        return 0.0
    v = 1 / (9 * shape)
    z = ((x / (shape * scale)) ** (1 / 3) - (1 - v)) / math.sqrt(v)
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


Slowness = tuple[float, tuple[tuple[float, float, float], ...]]  # chance, (share, mean, sd)


@dataclass(frozen=True)
class _Priors:
    """What the hall knows of its tables before they play: how far ordinary tables' paces
    spread, and for each player the chance of being one of the slow ones and how slow (the
    logarithm's mean and variance), from the tables they sat at in the rounds played."""

    spread: float = TABLE_SPREAD
    slow: dict[int, float] = field(default_factory=dict)
    factor: dict[int, tuple[float, float]] = field(default_factory=dict)

    def slow_table(self, players: Sequence[int]) -> Slowness:
        """The chance that a table of these players has a slow one among them, and how much
        slower it is then: a mixture over who the slow one is (rounded, so that tables alike
        share their distribution)."""
        usual = (math.log(SLOW_FACTOR), SLOW_SPREAD**2)
        if not players:
            chance, parts = 1 - (1 - SLOW_SHARE) ** 3, [(1.0, *usual)]
        else:
            fast = 1.0
            parts = []
            for p in players:
                share = self.slow.get(p, SLOW_SHARE)
                fast *= 1 - share
                parts.append((share, *self.factor.get(p, usual)))
            chance = 1 - fast
            total = sum(w for w, _m, _v in parts)
            parts = [(w / total, m, v) for w, m, v in parts]
        merged: dict[tuple[float, float], float] = {}
        for w, m, v in parts:
            key = (round(m, 2), round(math.sqrt(self.spread**2 + v), 2))
            merged[key] = merged.get(key, 0.0) + w
        return round(chance, 2), tuple(
            sorted((round(w, 2), m, sd) for (m, sd), w in merged.items() if round(w, 2) > 0)
        )

    def weights(self, slowness: Slowness) -> list[float]:
        """The table's pace over the hall's before it plays, on ``GRID`` (unnormalised logs)."""
        slow, parts = slowness
        total = sum(w for w, _m, _sd in parts) or 1.0
        out = []
        for x in GRID:
            ordinary = (1 - slow) * math.exp(_log_pdf(x, 0.0, self.spread))
            slowly = sum(w * math.exp(_log_pdf(x, m, sd)) for w, m, sd in parts)
            out.append(math.log(max(ordinary + slow * slowly / total, 1e-300)))
        return out


def _priors(
    rounds: Sequence[RoundClock], current: int | None, pace: float, fastest: float
) -> _Priors:
    """The spread of ordinary tables and the players' chances of being slow, from the tables
    that finished in the rounds other than ``current`` (their whole round's minutes a game)."""
    seen: list[tuple[float, float, tuple[int, ...]]] = []  # log pace over the hall's, noise, who
    for r in rounds:
        if r.started_at is None or r.number == current:
            continue
        for t in r.tables:
            if t.finished_at is None or t.games <= 0:
                continue
            minutes = _minutes(t.finished_at - r.started_at)
            if minutes <= 0 or minutes < fastest * t.games:
                continue
            seen.append(
                (math.log(minutes / t.games / pace), GAME_SPREAD / math.sqrt(t.games), t.players)
            )
    if not seen:
        return _Priors()
    spread = TABLE_SPREAD
    if len(seen) >= 8:  # the spread of the ordinary tables (the median's distance: slow ones aside)
        logs = [x for x, _n, _p in seen]
        middle = statistics.median(logs)
        mad = statistics.median(abs(x - middle) for x in logs) * 1.4826
        noise = statistics.fmean(n * n for _x, n, _p in seen)
        spread = min(0.35, max(0.08, math.sqrt(max(mad * mad - noise, 0.0))))
    odds: dict[int, float] = {}
    factor: dict[int, tuple[float, float]] = {}
    start = SLOW_SHARE / (1 - SLOW_SHARE)
    for x, noise, players in seen:
        if not players:
            continue
        ordinary = math.exp(_log_pdf(x, 0.0, math.hypot(spread, noise)))
        slow = math.exp(_log_pdf(x, math.log(SLOW_FACTOR), math.hypot(spread, SLOW_SPREAD, noise)))
        others = 1 - (1 - SLOW_SHARE) ** (len(players) - 1)  # another slow one explains it too
        ratio = slow / max(others * slow + (1 - others) * ordinary, 1e-300)
        measured = spread**2 + noise**2
        for p in players:
            odds[p] = odds.get(p, start) * ratio
            # how slow, if it is them: the table's pace drawn towards the usual slow factor
            mean, var = factor.get(p, (math.log(SLOW_FACTOR), SLOW_SPREAD**2))
            after = 1 / (1 / var + 1 / measured)
            factor[p] = (after * (mean / var + x / measured), after)
    return _Priors(spread, {p: o / (1 + o) for p, o in odds.items()}, factor)


class _End:
    """A table's end in minutes after the round's start, as a distribution, known to lie after
    ``after`` (the table has not finished by now)."""

    def __init__(self, after: float) -> None:
        self.after = after
        self._below: float | None = None

    def raw(self, x: float) -> float:
        raise NotImplementedError

    def cdf(self, x: float) -> float:
        if x <= self.after:
            return 0.0
        if self._below is None:
            self._below = self.raw(self.after)
        if self._below >= 1.0 - 1e-9:  # overdue by far: it ends any moment
            return 1.0 if x >= self.after + 1.0 else 0.0
        return (self.raw(x) - self._below) / (1.0 - self._below)

    def median(self) -> float:
        return _solve(self.cdf, self.after, self.after + 60.0)


class _Fixed(_End):
    def __init__(self, at: float) -> None:
        super().__init__(0.0)
        self.at = at

    def cdf(self, x: float) -> float:
        return 1.0 if x >= self.at else 0.0

    def median(self) -> float:
        return self.at


class _Mixture(_End):
    """A table still playing: ``left`` games after ``base`` minutes, at one of the paces
    ``paces`` (minutes a game) with the chances ``weights``."""

    def __init__(
        self, base: float, left: int, paces: Sequence[tuple[float, float]], after: float
    ) -> None:
        super().__init__(after)
        self.base = base
        self.shape = max(left, 1) * GAME_SHAPE
        self.paces = paces

    def raw(self, x: float) -> float:
        x -= self.base
        return sum(w * _gamma_cdf(x, self.shape, m / GAME_SHAPE) for w, m in self.paces)


def _posterior(
    t: TableClock, elapsed: float, start: datetime, pace: float, prior: list[float]
) -> list[tuple[float, float]]:
    """The table's pace (minutes a game) as (chance, pace) pairs: its prior on ``GRID`` weighed
    by the games it sent (how long they took, and that the next has taken ``elapsed`` - the last
    so far), or for a table not seen playing, by its not having finished yet."""
    logs = list(prior)
    done = len(t.arrived)
    if done:
        last = _minutes(t.arrived[-1] - start)
        under_way = elapsed - last
        for i, x in enumerate(GRID):
            m = pace * math.exp(x)
            logs[i] += -GAME_SHAPE * last / m - done * GAME_SHAPE * math.log(m)
            if done < t.games:
                logs[i] += _log_gamma_q(GAME_SHAPE, GAME_SHAPE * under_way / m)
    elif elapsed > 0:
        for i, x in enumerate(GRID):
            m = pace * math.exp(x)
            logs[i] += _log_gamma_q(t.games * GAME_SHAPE, GAME_SHAPE * elapsed / m)
    top = max(logs)
    weights = [math.exp(v - top) for v in logs]
    total = sum(weights)
    kept = [(w, x) for w, x in zip(weights, GRID, strict=True) if w / total > TINY]
    mass = sum(w for w, _x in kept)  # the chances left out are spread over those kept: their
    # mixture reaches 1 (else a table far overdue never reaches its median, see _solve)
    return [(w / mass, pace * math.exp(x)) for w, x in kept]


SEARCH_LIMIT = 40  # widenings of the search: each at least doubles it (far beyond any evening)


def _solve(cdf: Callable[[float], float], low: float, high: float, p: float = 0.5) -> float:
    """The x in [low, high] where the increasing ``cdf`` reaches ``p`` (bisection). A ``cdf``
    that does not reach ``p`` within ``SEARCH_LIMIT`` widenings (rounding, a table overdue by
    hours) is answered with the widest end tried, not searched for ever."""
    if cdf(low) >= p:
        return low
    for _ in range(SEARCH_LIMIT):
        if cdf(high) >= p:
            break
        high += max(60.0, high - low)
    else:
        return high
    for _ in range(30):
        mid = (low + high) / 2
        if cdf(mid) < p:
            low = mid
        else:
            high = mid
    return high


def _table_end(
    t: TableClock,
    start: datetime,
    now: datetime,
    pace: float,
    priors: _Priors,
    unseen: dict[tuple[int, float, Slowness], _End] | None = None,
) -> _End:
    """One table's end in minutes after the round's start. Unseen tables of as many games and
    the same chance of a slow player share one distribution: kept in ``unseen``, it is made
    (and its median found) once."""
    elapsed = max(0.0, _minutes(now - start))
    if t.finished_at is not None:
        return _Fixed(_minutes(t.finished_at - start))
    slow = priors.slow_table(t.players)
    if not t.arrived:
        shared = unseen if unseen is not None else {}
        key = (t.games, elapsed, slow)
        if key not in shared:
            paces = _posterior(t, elapsed, start, pace, priors.weights(slow))
            shared[key] = _Mixture(0.0, t.games, paces, elapsed)
        return shared[key]
    paces = _posterior(t, elapsed, start, pace, priors.weights(slow))
    last = _minutes(t.arrived[-1] - start)
    return _Mixture(last, t.games - len(t.arrived), paces, max(elapsed, last))


def _round_end(ends: Sequence[_End]) -> float:
    """The median of the round's end (of the latest of its tables' ends), in minutes. The
    unseen tables of a round share one distribution: it is worked out once and counted as
    often as there are such tables."""
    if not ends:
        return 0.0
    low = max(min(e.after for e in ends), 0.0)
    groups: dict[int, tuple[_End, int]] = {}
    for e in ends:  # the unseen tables' one distribution counted as often as it stands
        first, count = groups.get(id(e), (e, 0))
        groups[id(e)] = (first, count + 1)

    def cdf(x: float) -> float:
        product = 1.0
        for e, count in groups.values():
            product *= e.cdf(x) ** count
            if product == 0.0:
                break
        return product

    return _solve(cdf, low, low + 120.0)


def forecast(
    rounds: Sequence[RoundClock], now: datetime, plan: PacePlan | None = None
) -> Forecast | None:
    """The forecast for the round being played (the last started round that has not finished)
    or, between rounds, for the next one (starting now); None before the first round started
    and after the last one finished."""
    plan = plan or PacePlan()
    ordered = sorted(rounds, key=lambda r: r.number)
    started = [r for r in ordered if r.started_at is not None]
    if not started:
        return None
    pace, games_seen = hall_pace(ordered, plan)
    finished = [r for r in started if r.finished_at is not None]
    playing = [r for r in started if r.finished_at is None]
    later = [r for r in ordered if r.started_at is None]
    durations = [  # the rounds played, as far as their play was timed
        minutes
        for r in finished
        if r.started_at is not None
        and (fin := r.finished_at) is not None
        and (minutes := _minutes(fin - r.started_at)) >= plan.fastest_minutes_per_game * r.games
    ]

    def round_minutes(r: RoundClock) -> float:
        if durations:  # as long as the rounds played took
            return statistics.fmean(durations)
        unseen = [TableClock(t.number, t.games, players=t.players) for t in r.tables]
        priors = _priors(ordered, r.number, pace, plan.fastest_minutes_per_game)
        shared: dict[tuple[int, float, Slowness], _End] = {}
        return _round_end([_table_end(t, now, now, pace, priors, shared) for t in unseen])

    tables: tuple[TableForecast, ...] = ()
    if playing:
        current = playing[-1]
        start = current.started_at
        assert start is not None
        priors = _priors(ordered, current.number, pace, plan.fastest_minutes_per_game)
        shared: dict[tuple[int, float, Slowness], _End] = {}
        ends = [(t, _table_end(t, start, now, pace, priors, shared)) for t in current.tables]
        round_end = start + _round_end([e for _t, e in ends]) * MINUTE
        median_of: dict[int, float] = {}  # the shared distributions' medians, found once
        for _t, e in ends:
            if id(e) not in median_of:
                median_of[id(e)] = e.median()
        medians = [start + median_of[id(e)] * MINUTE for _t, e in ends]
        tables = tuple(
            TableForecast(
                t.number,
                t.done,
                t.games,
                end,
                behind=t.finished_at is None
                and end - _expected_end(t, start, pace) > plan.behind_minutes * MINUTE,
            )
            for (t, _e), end in zip(ends, medians, strict=True)
        )
        number = current.number
    elif later:
        number = later[0].number  # between rounds: the next starts now
        round_end = now + round_minutes(later[0]) * MINUTE
        later = later[1:]
    else:
        return None
    end = round_end
    for r in later:
        end += (plan.break_minutes + round_minutes(r)) * MINUTE
    prize_giving = end + plan.break_minutes * MINUTE
    return Forecast(number, round_end, prize_giving, pace, games_seen, tables)


def _expected_end(t: TableClock, start: datetime, pace: float) -> datetime:
    """When the table would end at the hall's pace: its own number of games from the round's
    start. "Behind" is measured against this, so a table with more games to play (16 at a
    four-table with a sitting-out dealer) is not behind the tables of 12 for that alone."""
    return start + t.games * pace * MINUTE


# --- recorded rounds with known finishing times -------------------------------------------


@dataclass(frozen=True)
class SimulatedRound:
    """A round as it really went: every game's arrival time of every table (the truth), which
    tables enter on phones, who sat at each table, and when it started and ended."""

    number: int
    started_at: datetime
    games: tuple[tuple[datetime, ...], ...]  # per table, every game's time
    phones: tuple[bool, ...]  # per table: entered on a phone (else: paper, seen at its end)
    paces: tuple[float, ...] = ()  # per table: its true mean minutes per game (the truth)
    paper_delay: timedelta = timedelta(minutes=2)  # handing in and typing a paper sheet
    players: tuple[tuple[int, ...], ...] = ()  # per table: who sat there (empty: not known)

    @property
    def ended_at(self) -> datetime:
        return max(self.finish(i) for i in range(len(self.games)))

    def finish(self, table: int) -> datetime:
        last = self.games[table][-1]
        return last if self.phones[table] else last + self.paper_delay

    def seen_at(self, now: datetime) -> RoundClock:
        """What the hall knew at ``now``: the phones' games so far, the paper sheets in, and who
        sits where (the seating plan)."""
        tables = []
        for i, times in enumerate(self.games):
            finished = self.finish(i) if self.finish(i) <= now else None
            arrived = tuple(t for t in times if t <= now) if self.phones[i] else ()
            players = self.players[i] if self.players else ()
            tables.append(TableClock(i + 1, len(times), arrived, finished, players))
        return RoundClock(self.number, self.started_at, tuple(tables))

    def half_time(self) -> datetime:
        """When the typical table had played half its games."""
        middles = sorted(times[len(times) // 2 - 1] for times in self.games)
        return middles[len(middles) // 2]


@dataclass(frozen=True)
class SimulatedPlayer:
    """A player's own pace: the logarithm of their factor on their table's pace (a third of
    it, with three at a table), and for the few slow ones the factor their table waits for."""

    speed: float
    slow: float = 1.0


def simulate_players(
    rng: random.Random, count: int, spread: float = 0.2, slow_share: float = 0.0274
) -> tuple[SimulatedPlayer, ...]:
    """``count`` players whose paces spread by ``spread`` (sd of the log); a share of them
    (2.74 %: 8 % of tables of three have one) slow their table 1.3–1.8 times, every round."""
    return tuple(
        SimulatedPlayer(
            rng.gauss(0, spread), rng.uniform(1.3, 1.8) if rng.random() < slow_share else 1.0
        )
        for _ in range(count)
    )


def simulate_round(
    rng: random.Random,
    number: int,
    started_at: datetime,
    tables: int,
    minutes_per_game: float,
    phone_share: float,
    games: int = 12,
    table_spread: float = 0.15,
    slow_share: float = 0.08,
    game_spread: float = 0.45,
    seating: Sequence[tuple[int, ...]] = (),
    players: Sequence[SimulatedPlayer] = (),
) -> SimulatedRound:
    """A round of ``tables`` tables: each table's pace spread around the hall's
    (``table_spread``), a share of slow tables (1.3–1.8 × slower), each game's time drawn from
    a gamma distribution (coefficient of variation ``game_spread``). With a ``seating`` (per
    table, indexes into ``players``) a table's pace is its players' (the mean of their speeds,
    the slowest one's factor) and what is left of ``table_spread`` for the table itself."""
    shape = 1 / game_spread**2
    all_games = []
    phones = []
    paces = []
    for i in range(tables):
        if seating:
            seated = [players[p] for p in seating[i]]
            own = statistics.fmean(p.speed for p in seated)
            explained = statistics.pvariance([p.speed for p in players]) / len(seated)
            rest = math.sqrt(max(table_spread**2 - explained, 0.0))
            factor = math.exp(own + rng.gauss(0, rest)) * max(p.slow for p in seated)
        else:
            factor = rng.lognormvariate(0, table_spread)
            if rng.random() < slow_share:
                factor *= rng.uniform(1.3, 1.8)
        mean = minutes_per_game * factor
        paces.append(mean)
        t = started_at
        times = []
        for _g in range(games):
            t += rng.gammavariate(shape, mean / shape) * MINUTE
            times.append(t)
        all_games.append(tuple(times))
        phones.append(rng.random() < phone_share)
    return SimulatedRound(
        number,
        started_at,
        tuple(all_games),
        tuple(phones),
        tuple(paces),
        players=tuple(tuple(s) for s in seating),
    )


@dataclass(frozen=True)
class SimulatedEvening:
    rounds: tuple[SimulatedRound, ...]
    planned: float  # the organiser's planned minutes per game (the true pace differs)
    true_pace: float


def simulate_evening(
    seed: int, tables: int | None = None, rounds: int = 3, break_minutes: float = 15.0
) -> SimulatedEvening:
    """An evening of ``rounds`` rounds with a true pace of 3–5.5 minutes per game that the
    organiser's plan (4 minutes) may miss by much, 20–100 tables of three, 20–100 % of them on
    phones, the players seated anew each round; their own paces (``simulate_players``) make
    their tables' paces, so a table of players who were slow before is slow again."""
    rng = random.Random(seed)
    tables = tables or rng.randint(20, 100)
    true_pace = rng.uniform(3.0, 5.5)
    phone_share = rng.uniform(0.2, 1.0)
    players = simulate_players(rng, 3 * tables)
    start = datetime(2026, 11, 28, 19, 0)
    out = []
    for n in range(1, rounds + 1):
        order = list(range(len(players)))
        rng.shuffle(order)
        seating = [tuple(order[3 * i : 3 * i + 3]) for i in range(tables)]
        r = simulate_round(
            rng, n, start, tables, true_pace, phone_share, seating=seating, players=players
        )
        out.append(r)
        start = r.ended_at + break_minutes * MINUTE
    return SimulatedEvening(tuple(out), 4.0, true_pace)


def half_time_errors(evening: SimulatedEvening, plan: PacePlan | None = None) -> list[float]:
    """For each round: the forecast of its end made at its half-time, minus its real end,
    in minutes (what the hall knew then: earlier rounds complete, this one so far)."""
    plan = plan or PacePlan(minutes_per_game=evening.planned)
    errors = []
    for i, r in enumerate(evening.rounds):
        now = r.half_time()
        known = [done.seen_at(done.ended_at) for done in evening.rounds[:i]]
        result = forecast([*known, r.seen_at(now)], now, plan)
        assert result is not None and result.round == r.number
        errors.append(_minutes(result.round_end - r.ended_at))
    return errors
