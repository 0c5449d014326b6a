"""The pace of the evening, pure Python: from the times the tables' games arrive (phones) and
the sheets come in (paper), forecast when each table and the round will finish and when the
prize-giving can start.

The model, in three steps:

1. **The hall's pace** (minutes per game): every game seen so far — a phone's games one by one,
   a paper sheet as its games over the time from the round's start to the sheet — measured
   against the planned pace (a setting), which counts as ``prior_games`` games: before any data
   the forecast is the plan, and the more games arrive the more it is the hall.
2. **Each table**: a table entering on a phone has its own pace (its games so far, again drawn
   towards the hall's pace while it has few); it ends after its remaining games. A paper table
   says nothing until it hands in its sheet: it is taken at the hall's pace, and because the
   round ends with its *slowest* table, the unseen tables are taken as the slow end of the
   tables seen (the spread of table paces, as a quantile for their number).
3. **The rest of the evening**: each round still to come lasts as long as the rounds played
   took (or, before any finished, its games at the hall's pace for its slowest table), with the
   break between rounds before it and before the prize-giving.

Tables far behind their own pace (their forecast end well after the end their own number of
games at the hall's pace gives) are flagged for the desk: a table of 16 games is not behind
the tables of 12 because it has more to play.

``simulate_round`` makes recorded rounds with known finishing times (table paces spread, a few
slow tables, game times that vary), so the forecast can be measured against the truth
(tests/charity/test_pace.py, benchmarks/pace.py)."""

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
TABLE_SPREAD = 0.25  # table paces around the hall's (sd of the log), before tables tell
PRIOR_TABLES = 4.0  # the assumed spread counts as this many tables seen
KERNEL = 0.06  # each seen table stands for paces within ±6 % of its own
KERNELS = 64  # the tables seen, as at most this many evenly spaced quantiles of their paces


def _quantiles(values: Sequence[float], count: int) -> list[float]:
    """``values`` themselves, or ``count`` evenly spaced quantiles of them when there are more."""
    if len(values) <= count:
        return list(values)
    ordered = sorted(values)
    step = (len(ordered) - 1) / (count - 1)
    return [ordered[round(i * step)] for i in range(count)]


def _ratios(
    rounds: Sequence[RoundClock], pace: float, now: datetime, fastest: float = 0.0
) -> list[float]:
    """Every table's pace relative to the hall's, as far as it is seen: a finished table's
    whole round; a phone still playing (2 games or more) by the time since the start over its
    games, the one under way counted half."""
    out = []
    for r in rounds:
        if r.started_at is None:
            continue
        for t in r.tables:
            if t.finished_at is not None:
                minutes, games = _minutes(t.finished_at - r.started_at), float(t.games)
            elif len(t.arrived) >= 2:
                minutes, games = _minutes(now - r.started_at), len(t.arrived) + 0.5
            else:
                continue
            if minutes > 0 and minutes >= fastest * games:
                out.append(minutes / games / pace)
    return out


def _table_spread(ratios: Sequence[float]) -> float:
    if len(ratios) < 8:
        return TABLE_SPREAD
    logs = [math.log(r) for r in ratios if r > 0]
    return min(0.6, max(0.12, statistics.pstdev(logs)))


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


class _Normal(_End):
    def __init__(self, mean: float, sd: float, after: float) -> None:
        super().__init__(after)
        self.norm = statistics.NormalDist(mean, max(sd, 1e-6))

    def raw(self, x: float) -> float:
        return self.norm.cdf(x)


class _Unseen(_End):
    """A table nobody has seen play (paper): its end is the games at the pace of one of the
    tables seen (a kernel around each) or of the assumed spread (weighing ``PRIOR_TABLES``)."""

    def __init__(self, games: int, pace: float, ratios: Sequence[float], after: float) -> None:
        super().__init__(after)
        self.total = games * pace
        noise = GAME_SPREAD / math.sqrt(games)
        self.prior = statistics.NormalDist(self.total, self.total * math.hypot(TABLE_SPREAD, noise))
        self.kernels = [
            statistics.NormalDist(self.total * r, self.total * r * KERNEL)
            for r in _quantiles(ratios, KERNELS)
        ]
        self.seen = len(ratios)

    def raw(self, x: float) -> float:
        if not self.kernels:
            return self.prior.cdf(x)
        seen = statistics.fmean(k.cdf(x) for k in self.kernels)
        return (PRIOR_TABLES * self.prior.cdf(x) + self.seen * seen) / (PRIOR_TABLES + self.seen)


def _solve(cdf: Callable[[float], float], low: float, high: float, p: float = 0.5) -> float:
    """The x in [low, high] where the increasing ``cdf`` reaches ``p`` (bisection)."""
    if cdf(low) >= p:
        return low
    while cdf(high) < p:
        high += max(60.0, high - low)
    for _ in range(40):
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
    ratios: Sequence[float],
    unseen: dict[tuple[int, float], _End] | None = None,
) -> _End:
    """One table's end in minutes after the round's start. Unseen tables of as many games
    share one distribution: kept in ``unseen``, it is made (and its median found) once."""
    elapsed = max(0.0, _minutes(now - start))
    if t.finished_at is not None:
        return _Fixed(_minutes(t.finished_at - start))
    if not t.arrived:
        shared = unseen if unseen is not None else {}
        key = (t.games, elapsed)
        if key not in shared:
            shared[key] = _Unseen(t.games, pace, ratios, elapsed)
        return shared[key]
    # a phone: its own pace, drawn towards the hall's while it has few games
    done, left = len(t.arrived), t.games - len(t.arrived)
    last = _minutes(t.arrived[-1] - start)
    spread = _table_spread(ratios)
    weight = min(2.0, (GAME_SPREAD / spread) ** 2)  # the hall's pace weighs as many games
    mine = (weight * pace + last) / (weight + done)
    pace_sd = mine * spread * math.sqrt(weight / (weight + done))
    mean = last + left * mine
    sd = math.hypot(math.sqrt(left) * GAME_SPREAD * mine, left * pace_sd)
    return _Normal(mean, sd, max(elapsed, last))


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
    ratios = _ratios(ordered, pace, now, plan.fastest_minutes_per_game)
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
        unseen = [TableClock(t.number, t.games) for t in r.tables]
        shared: dict[tuple[int, float], _End] = {}
        return _round_end([_table_end(t, now, now, pace, ratios, shared) for t in unseen])

    tables: tuple[TableForecast, ...] = ()
    if playing:
        current = playing[-1]
        start = current.started_at
        assert start is not None
        shared: dict[tuple[int, float], _End] = {}
        ends = [(t, _table_end(t, start, now, pace, ratios, shared)) for t in current.tables]
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
    tables enter on phones, and when it started and ended."""

    number: int
    started_at: datetime
    games: tuple[tuple[datetime, ...], ...]  # per table, every game's time
    phones: tuple[bool, ...]  # per table: entered on a phone (else: paper, seen at its end)
    paces: tuple[float, ...] = ()  # per table: its true mean minutes per game (the truth)
    paper_delay: timedelta = timedelta(minutes=2)  # handing in and typing a paper sheet

    @property
    def ended_at(self) -> datetime:
        return max(self.finish(i) for i in range(len(self.games)))

    def finish(self, table: int) -> datetime:
        last = self.games[table][-1]
        return last if self.phones[table] else last + self.paper_delay

    def seen_at(self, now: datetime) -> RoundClock:
        """What the hall knew at ``now``: the phones' games so far, the paper sheets in."""
        tables = []
        for i, times in enumerate(self.games):
            finished = self.finish(i) if self.finish(i) <= now else None
            arrived = tuple(t for t in times if t <= now) if self.phones[i] else ()
            tables.append(TableClock(i + 1, len(times), arrived, finished))
        return RoundClock(self.number, self.started_at, tuple(tables))

    def half_time(self) -> datetime:
        """When the typical table had played half its games."""
        middles = sorted(times[len(times) // 2 - 1] for times in self.games)
        return middles[len(middles) // 2]


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
) -> SimulatedRound:
    """A round of ``tables`` tables: each table's pace spread around the hall's
    (``table_spread``), a share of slow tables (1.3–1.8 × slower), each game's time drawn from
    a gamma distribution (coefficient of variation ``game_spread``)."""
    shape = 1 / game_spread**2
    all_games = []
    phones = []
    paces = []
    for _ in range(tables):
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
    return SimulatedRound(number, started_at, tuple(all_games), tuple(phones), tuple(paces))


@dataclass(frozen=True)
class SimulatedEvening:
    rounds: tuple[SimulatedRound, ...]
    planned: float  # the organiser's planned minutes per game (the true pace differs)
    true_pace: float


def simulate_evening(
    seed: int, tables: int | None = None, rounds: int = 3, break_minutes: float = 15.0
) -> SimulatedEvening:
    """An evening of ``rounds`` rounds with a true pace of 3–5.5 minutes per game that the
    organiser's plan (4 minutes) may miss by much, 20–100 tables, 20–100 % of them on phones."""
    rng = random.Random(seed)
    tables = tables or rng.randint(20, 100)
    true_pace = rng.uniform(3.0, 5.5)
    phone_share = rng.uniform(0.2, 1.0)
    start = datetime(2026, 11, 28, 19, 0)
    out = []
    for n in range(1, rounds + 1):
        r = simulate_round(rng, n, start, tables, true_pace, phone_share)
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
