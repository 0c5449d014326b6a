"""The pace forecast (charity.pace): the plan before any data, the hall's pace from the games
that arrive, tables far behind, between rounds, and the forecast measured against recorded
evenings with known finishing times (the simulation, slow tables included)."""

from __future__ import annotations

import statistics
import threading
from datetime import datetime, timedelta

import pytest

from charity.pace import (
    Forecast,
    PacePlan,
    RoundClock,
    TableClock,
    forecast,
    half_time_errors,
    simulate_evening,
)

START = datetime(2026, 11, 28, 19, 0)
MIN = timedelta(minutes=1)


def tables_at(pace: float, done: int, count: int = 20, games: int = 12) -> tuple[TableClock, ...]:
    """``count`` phone tables, each with ``done`` games at exactly ``pace`` minutes a game."""
    return tuple(
        TableClock(n, games, tuple(START + (i + 1) * pace * MIN for i in range(done)))
        for n in range(1, count + 1)
    )


def test_nothing_before_the_first_round_and_nothing_after_the_last():
    assert forecast([RoundClock(1, None, tables_at(4, 0))], START) is None
    finished = tuple(TableClock(n, 12, (), START + 50 * MIN) for n in range(1, 4))
    assert forecast([RoundClock(1, START, finished)], START + 60 * MIN) is None


def test_before_any_game_the_plan_and_the_breaks_make_the_forecast():
    plan = PacePlan(minutes_per_game=4.0, break_minutes=15)
    rounds = [RoundClock(1, START, tables_at(4, 0)), RoundClock(2, None, tables_at(4, 0))]
    result = forecast(rounds, START, plan)
    assert result is not None and result.round == 1 and result.games_seen == 0
    assert result.minutes_per_game == pytest.approx(4.0)
    length = (result.round_end - START) / MIN
    # 12 games at 4 minutes, and the slowest of 20 tables some way behind the typical one
    # (among 20 tables, one with a much slower player is likely: 1.55 times 48 minutes)
    assert 48 < length < 90
    # round 2 as long as round 1, a break before it and before the prize-giving
    between = (result.prize_giving - result.round_end) / MIN
    assert between == pytest.approx(15 + length + 15, abs=1.0)


def test_the_games_that_arrive_outweigh_the_plan():
    plan = PacePlan(minutes_per_game=4.0)
    now = START + 30.5 * MIN
    result = forecast([RoundClock(1, START, tables_at(5.0, 6))], now, plan)
    assert result is not None and result.games_seen == 120
    assert 4.7 < result.minutes_per_game < 5.0  # 120 games at 5, the plan weighs 12
    # each table goes on at its 5 minutes a game: six more games, ending about 60 minutes in;
    # the round ends with the last of 20 tables whose games vary, some minutes later
    typical = statistics.median((t.end - START) / MIN for t in result.tables)
    assert typical == pytest.approx(60, abs=1.5)
    assert 60 < (result.round_end - START) / MIN < 75


def test_a_table_far_behind_is_flagged_and_decides_the_round():
    tables = list(tables_at(4.0, 6))
    slow = TableClock(7, 12, tuple(START + (i + 1) * 8 * MIN for i in range(3)))
    tables[6] = slow
    now = START + 25 * MIN
    result = forecast([RoundClock(1, START, tuple(tables))], now, PacePlan())
    assert result is not None
    assert [t.number for t in result.behind] == [7]
    slowest = max(t.end for t in result.tables)
    assert slowest == result.tables[6].end
    assert slowest <= result.round_end < slowest + 2 * MIN  # the others hardly move it
    others = [t.end for t in result.tables if t.number != 7]
    assert result.round_end - max(others) > 20 * MIN


def test_a_table_with_more_games_is_not_behind_for_that_alone():
    """Behind means behind its own expected pace: a four-table with a sitting-out dealer has
    16 games to the others' 12 and ends later, but is not behind while it keeps the pace."""
    tables = [*tables_at(4.0, 0, count=9), TableClock(10, 16)]
    result = forecast([RoundClock(1, START, tuple(tables))], START + 2 * MIN, PacePlan())
    assert result is not None
    assert max(t.end for t in result.tables) == result.tables[-1].end  # it does end last
    assert result.behind == ()
    # half way, every table at 4 minutes a game (the 16-game table too): nobody is behind
    tables = [*tables_at(4.0, 6, count=9), TableClock(10, 16, tables_at(4.0, 6, 1, 16)[0].arrived)]
    result = forecast([RoundClock(1, START, tuple(tables))], START + 25 * MIN, PacePlan())
    assert result is not None and result.behind == ()
    # the 16-game table at 8 minutes a game is behind
    slow = TableClock(10, 16, tuple(START + (i + 1) * 8 * MIN for i in range(3)))
    result = forecast([RoundClock(1, START, (*tables[:9], slow))], START + 25 * MIN, PacePlan())
    assert result is not None and [t.number for t in result.behind] == [10]


def test_between_rounds_the_next_starts_now_and_lasts_like_the_rounds_played():
    finished = tuple(TableClock(n, 12, (), START + (44 + n) * MIN) for n in range(1, 11))
    now = START + 70 * MIN
    rounds = [RoundClock(1, START, finished), RoundClock(2, None, finished)]
    result = forecast(rounds, now, PacePlan(break_minutes=10))
    assert result is not None and result.round == 2
    assert (result.round_end - now) / MIN == pytest.approx(54, abs=0.01)  # round 1 took 54
    assert (result.prize_giving - result.round_end) / MIN == pytest.approx(10)


def test_paper_tables_finish_no_earlier_than_now():
    paper = tuple(TableClock(n, 12) for n in range(1, 6))
    now = START + 90 * MIN  # long past the plan's end, and no sheet in
    result = forecast([RoundClock(1, START, paper)], now, PacePlan())
    assert result is not None and result.round_end >= now


@pytest.mark.slow
def test_at_half_time_the_forecast_of_the_round_end_is_mostly_within_ten_minutes():
    """Recorded evenings (``simulate_evening``: 20–100 tables, a true pace of 3–5.5 minutes a
    game that the plan of 4 minutes may miss, players with their own paces seated anew each
    round, 8 % of tables slow, 20–100 % of tables on phones):
    the forecast made at each round's half-time against the round's real end. The figures
    (benchmarks/pace.py prints them for 300 evenings) are held here as a floor."""
    errors = [e for seed in range(100) for e in half_time_errors(simulate_evening(seed))]
    within = sum(abs(e) <= 10 for e in errors) / len(errors)
    assert within >= 0.55  # 60 % here (the engine before issue 35: 53 % over 300 evenings)
    assert abs(statistics.median(errors)) <= 4
    assert statistics.fmean(abs(e) for e in errors) <= 12


def test_rounds_typed_in_at_once_tell_nothing_of_the_pace():
    """A round whose sheets all came in seconds after its start (typed in after the evening,
    the demo) was not timed by its play: the plan makes the forecast, and the next rounds last
    as the plan says, not a few seconds."""
    plan = PacePlan(minutes_per_game=4.0, break_minutes=15)
    instant = tuple(TableClock(n, 12, (), START + 0.2 * MIN) for n in range(1, 11))
    now = START + MIN
    rounds = [
        RoundClock(1, START, instant),
        RoundClock(2, now, tables_at(4, 0, count=10)),
        RoundClock(3, None, tables_at(4, 0, count=10)),
    ]
    result = forecast(rounds, now, plan)
    assert result is not None and result.round == 2 and result.games_seen == 0
    assert result.minutes_per_game == pytest.approx(4.0)
    length = (result.round_end - now) / MIN
    assert 48 < length < 80  # round 2 at the plan's pace
    between = (result.prize_giving - result.round_end) / MIN
    assert between > 15 + 48  # round 3 at the plan's pace too, not as long as round 1 took
    # one game a minute is still play: such a round counts
    timed = tuple(TableClock(n, 12, (), START + 13 * MIN) for n in range(1, 11))
    rounds[0] = RoundClock(1, START, timed)
    counted = forecast(rounds, START + 14 * MIN, plan)
    assert counted is not None and counted.games_seen == 120


def test_players_slow_in_an_earlier_round_make_their_new_table_slow():
    """Issue 35, item 8: a table's pace is much its players' pace. When round 1's table 1 took
    1.7 times as long as the others, the round-2 table where those three sit again (all on
    paper, nothing in yet) is expected to end late, and the round with it; the same round
    after a round 1 where their table kept the pace is expected to end much sooner."""
    ordinary = 12 * 4.0
    second = START + 90 * MIN
    now = second + 20 * MIN
    seats = [(3 * n - 2, 3 * n - 1, 3 * n) for n in range(1, 11)]
    round_two = RoundClock(
        2, second, tuple(TableClock(n, 12, (), None, seats[n - 1]) for n in range(1, 11))
    )

    def after(first_table: float) -> Forecast:
        ends = [first_table, *([ordinary] * 9)]
        round_one = tuple(
            TableClock(n, 12, (), START + ends[n - 1] * MIN, seats[n - 1]) for n in range(1, 11)
        )
        result = forecast([RoundClock(1, START, round_one), round_two], now, PacePlan())
        assert result is not None and result.round == 2
        return result

    slow, usual = after(1.7 * ordinary), after(ordinary)
    assert slow.round_end - usual.round_end > 10 * MIN
    ends = {t.number: t.end for t in slow.tables}
    assert ends[1] - max(e for n, e in ends.items() if n != 1) > 15 * MIN
    assert len({t.end for t in usual.tables}) == 1  # nothing tells those tables apart


@pytest.mark.parametrize("hours", [1, 3, 4.5, 8, 24, 24 * 30])
def test_a_round_long_overdue_without_a_game_seen_still_gets_a_forecast(hours):
    """Paper tables only, the round started hours ago (a demo loaded the next day, a beamer
    left on): the forecast is an end soon after now, found in a bounded search (its
    distribution once reached its median only in the limit, and the search never ended)."""
    from datetime import UTC, datetime, timedelta

    from charity.pace import Forecast, RoundClock, TableClock, forecast

    started = datetime(2026, 11, 27, 20, 9, tzinfo=UTC)
    tables = tuple(TableClock(n, 12, players=(3 * n, 3 * n + 1, 3 * n + 2)) for n in range(1, 17))
    rounds = [
        RoundClock(1, started - timedelta(hours=2), tuple(
            TableClock(t.number, 12, finished_at=started - timedelta(minutes=70), players=t.players)
            for t in tables
        )),
        RoundClock(2, started, tables),
    ]  # fmt: skip
    now = started + timedelta(hours=hours)
    answers: list[object] = []
    worker = threading.Thread(target=lambda: answers.append(forecast(rounds, now)), daemon=True)
    worker.start()
    worker.join(60)  # a forecast takes milliseconds; without an end it would hang the suite
    assert answers, "the forecast did not end"
    result = answers[0]
    assert isinstance(result, Forecast) and result.round == 2
    assert now <= result.round_end <= now + timedelta(hours=2)
