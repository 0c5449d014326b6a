"""The open Binokel result file (``binokel-result``, docs/result-format.md) read and checked by the
engine alone, with no Django: ``python -m scoring check-result FILE``.

A file carries the rules and every game, so whoever reads it can score it again. The checker
validates the file against its JSON Schema (``scoring/schema/``), refuses a higher major version,
and then re-does the arithmetic with the file's own rule set: every game's points, each table's
totals, each entrant's points per round and in all (with the file's adjustments), the tie-break
values and the places, and -- where the file has a donation rule -- the donations and the
evening's total. It names the first differences (round, table, game, expected vs. written), in
German or English; a file is accepted only when everything agrees."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from scoring import messages as M
from scoring.donations import DonationRule, GameOutcome, lost_games
from scoring.errors import DEFAULT_LANGUAGE, FieldError, ScoringError
from scoring.ranking import Entry, places
from scoring.reading import load_json
from scoring.rules import RuleSet
from scoring.sheet import SheetInput, score_sheet
from scoring.tables import table_shape

FORMAT = "binokel-result"
MAJOR, MINOR = 1, 0
VERSION = f"{MAJOR}.{MINOR}"
SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / f"{FORMAT}-{MAJOR}.schema.json"
KINDS = ("invitation", "entries", "results")
COUNTED_DEFAULT = ("confirmed",)


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


def read(data: bytes | str) -> dict[str, Any]:
    """The document of a file: JSON of this format in a major version this reader knows.
    ScoringError (one problem) otherwise."""
    document = load_json(data.encode() if isinstance(data, str) else data)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ScoringError([FieldError.of("format", M.RESULT_NOT_THIS_FORMAT, format=FORMAT)])
    version = str(document.get("version", ""))
    major = version.split(".", 1)[0]
    if major.isdigit() and int(major) > MAJOR:
        raise ScoringError(
            [FieldError.of("version", M.RESULT_VERSION_TOO_NEW, version=version, known=VERSION)]
        )
    return document


def validate(document: Mapping[str, Any]) -> list[FieldError]:
    """Every place where the document breaks the schema (JSON Schema 2020-12, checked with the
    ``jsonschema`` package), first by position in the file."""
    import jsonschema  # only the checker needs it

    checker = jsonschema.Draft202012Validator(
        schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    errors = sorted(checker.iter_errors(document), key=lambda e: [str(p) for p in e.path])
    return [
        FieldError.of(_path(error.absolute_path), M.RESULT_SCHEMA, detail=error.message)
        for error in errors
    ]


def _path(parts: Iterable[object]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "$"


@dataclass
class Report:
    """What the check found: ``problems`` (empty: everything agrees) and what it re-added."""

    problems: list[FieldError] = field(default_factory=list)
    lang: str = DEFAULT_LANGUAGE  # of the messages quoted inside others (an engine's detail)
    rounds: int = 0
    tables: int = 0
    games: int = 0
    players: int = 0
    standings: int = 0
    donations: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, where: str, msgid: str, **params: object) -> None:
        self.problems.append(FieldError.of(where, msgid, **params))


@dataclass
class _Party:
    """One entrant's counted games: points per round, games won as declarer, outcomes."""

    rounds: dict[int, int] = field(default_factory=dict)
    wins: dict[int, int] = field(default_factory=dict)  # games won as declarer, per round
    outcomes: list[GameOutcome] = field(default_factory=list)
    played: bool = False  # a game of theirs is in the file (counted or not)


def check(document: Mapping[str, Any], lang: str = DEFAULT_LANGUAGE) -> Report:
    """Validate the document and, for a results file, re-score and re-add everything."""
    report = Report(lang=lang)
    report.problems.extend(validate(document))
    if report.problems or document.get("kind") != "results":
        report.players = len(document.get("players", []) or [])
        return report
    try:
        rules = RuleSet.from_dict(document["rules"]["set"])
    except ScoringError as exc:
        report.problems.extend(
            FieldError(f"rules.set.{e.field}", e.msgid, e.params) for e in exc.errors
        )
        return report
    players = _players(document, report)
    counted = _counted(document)
    parties = _games(document, rules, players, counted, report)
    _adjust(document, parties, report)
    _standings(document, rules, players, parties, report)
    _money(document, players, parties, report)
    return report


def _players(document: Mapping[str, Any], report: Report) -> dict[tuple[str, int], dict[str, Any]]:
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for i, player in enumerate(document["players"]):
        key = (player["competition"], player["start_number"])
        if key in out:
            report.add(f"players[{i}]", M.RESULT_PLAYER_TWICE, number=key[1])
        out[key] = player
    report.players = len(out)
    return out


def _counted(document: Mapping[str, Any]) -> frozenset[str]:
    """The sheet states the standings count (the file says; confirmed sheets by default)."""
    states = {s for st in document.get("standings", []) for s in st.get("counted", [])}
    return frozenset(states or COUNTED_DEFAULT)


def _games(
    document: Mapping[str, Any],
    rules: RuleSet,
    players: Mapping[tuple[str, int], Any],
    counted: frozenset[str],
    report: Report,
) -> dict[tuple[str, int], _Party]:
    """Every table's games scored again with the file's rules and compared with the points
    written; the counted games gathered per entrant."""
    parties: dict[tuple[str, int], _Party] = defaultdict(_Party)
    for r, round_doc in enumerate(document["rounds"]):
        number = round_doc["number"]
        report.rounds += 1
        for t, table in enumerate(round_doc["tables"]):
            report.tables += 1
            where = f"rounds[{r}].tables[{t}]"
            at = {"round": number, "table": table["number"]}
            shape = table_shape(table["kind"])
            seats = [(table["competition"], n) for n in table["seats"]]
            if len(seats) != shape.columns:
                report.add(f"{where}.seats", M.RESULT_SEATS, count=shape.columns, **at)
                continue
            for column, key in enumerate(seats):
                if key not in players:
                    report.add(
                        f"{where}.seats[{column}]", M.RESULT_UNKNOWN_PLAYER, number=key[1], **at
                    )
            games = table["games"]
            sheet = {
                "table": table["kind"],
                "games": [None if g is None else _engine_game(g) for g in games],
            }
            if table.get("written_totals"):
                sheet["written_totals"] = table["written_totals"]
            read_ = SheetInput.read(sheet)
            if read_.sheet is None:
                report.add(
                    where, M.RESULT_TABLE_UNREADABLE, detail=read_.errors[0].text("en"), **at
                )
                continue
            score = score_sheet(read_.sheet, rules, read_.problems)
            status = table.get("status", "confirmed")
            for g, written in enumerate(games):
                if written is None:
                    continue
                report.games += 1
                scored = score.games[g] if g < len(score.games) else None
                here = {**at, "game": g + 1}
                if scored is None or scored.points is None:
                    # an unfinished sheet may hold a game with a typo: it counts for nothing
                    # and has no points; a counted sheet may not
                    if status in counted or written.get("points") is not None:
                        error = (
                            scored.errors[0].text(report.lang) if scored and scored.errors else "?"
                        )
                        field_name = f"{where}.games[{g}]"
                        report.add(field_name, M.RESULT_GAME_INVALID, detail=error, **here)
                    continue
                if list(scored.points) != list(written.get("points") or []):
                    report.add(
                        f"{where}.games[{g}].points",
                        M.RESULT_GAME_POINTS,
                        expected=_numbers(scored.points),
                        written=_numbers(written.get("points") or []),
                        **here,
                    )
                if "won" in written and written["won"] is not None and written["won"] != scored.won:
                    report.add(f"{where}.games[{g}].won", M.RESULT_GAME_WON, **here)
                for column, key in enumerate(seats):
                    party = parties[key]
                    party.played = True
                    if status not in counted:
                        continue
                    declared = column == written.get("declarer")
                    party.rounds[number] = party.rounds.get(number, 0) + scored.points[column]
                    if declared and scored.won:
                        party.wins[number] = party.wins.get(number, 0) + 1
                    party.outcomes.append(GameOutcome(written["kind"], declared, bool(scored.won)))
            if status == "confirmed" and not score.complete:
                missing = next((g.number for g in score.games if not g.playing), 0)
                report.add(f"{where}.games", M.RESULT_GAME_MISSING, **{**at, "game": missing})
            if "totals" in table and list(table["totals"]) != list(score.totals):
                report.add(
                    f"{where}.totals",
                    M.RESULT_TABLE_TOTALS,
                    expected=_numbers(score.totals),
                    written=_numbers(table["totals"]),
                    **at,
                )
    return parties


def _engine_game(game: Mapping[str, Any]) -> dict[str, Any]:
    """A game of the file as the sheet engine reads it (the written points left out)."""
    return {k: v for k, v in game.items() if k not in ("points", "won")}


def _numbers(values: Iterable[int]) -> str:
    return " / ".join(str(v) for v in values)


def _cells(values: Iterable[int | None]) -> str:
    return " / ".join("–" if v is None else str(v) for v in values)


def _adjust(
    document: Mapping[str, Any], parties: dict[tuple[str, int], _Party], report: Report
) -> None:
    """Points given or taken outside the games (by the organiser), into their round."""
    for adjustment in document.get("adjustments", []):
        key = (adjustment["competition"], adjustment["start_number"])
        party = parties[key]
        number = adjustment.get("round") or max(party.rounds, default=1)
        party.rounds[number] = party.rounds.get(number, 0) + adjustment["points"]


def _tie_break(key: str, party: _Party, after: int) -> int:
    """A tie-break's value over rounds 1..``after`` (``scoring.ranking.TIE_BREAK_VALUES``)."""
    if key == "declarer_wins":
        return sum(wins for n, wins in party.wins.items() if n <= after)
    if key == "best_round":
        return max((p for n, p in party.rounds.items() if n <= after), default=0)
    raise ValueError(f"unknown tie-break {key!r}")  # the rule set validated the keys


def _standings(
    document: Mapping[str, Any],
    rules: RuleSet,
    players: Mapping[tuple[str, int], Mapping[str, Any]],
    parties: Mapping[tuple[str, int], _Party],
    report: Report,
) -> None:
    """Each ranking re-added: who is listed, points per round and in all, the tie-breaks and
    the places."""
    for s, standing in enumerate(document["standings"]):
        report.standings += 1
        mode = standing["competition"]
        after = (
            standing.get("after_round")
            or document["event"].get("rounds")
            or max((r["number"] for r in document["rounds"]), default=0)
        )
        where = f"standings[{s}]"
        expected_keys = [
            key
            for key, player in players.items()
            if key[0] == mode
            and (not player.get("withdrawn") or (key in parties and parties[key].rounds))
        ]
        written = {row["start_number"]: (i, row) for i, row in enumerate(standing["rows"])}
        for key in expected_keys:
            if key[1] not in written:
                report.add(f"{where}.rows", M.RESULT_STANDING_MISSING, number=key[1])
        for number in written:
            if (mode, number) not in expected_keys:
                report.add(f"{where}.rows", M.RESULT_STANDING_EXTRA, number=number)
        entries = []
        for key in expected_keys:
            party = parties.get(key, _Party())
            rounds = [party.rounds.get(n) for n in range(1, after + 1)]
            total = sum(v for v in rounds if v is not None)
            values = (total, *(_tie_break(k, party, after) for k in rules.tie_breaks))
            unranked = bool(players[key].get("unranked"))
            entries.append(Entry(key, key[1], values, unranked))
            if key[1] not in written:
                continue
            i, row = written[key[1]]
            at = f"{where}.rows[{i}]"
            if list(row["rounds"]) != rounds:
                report.add(
                    f"{at}.rounds",
                    M.RESULT_STANDING_ROUNDS,
                    number=key[1],
                    expected=_cells(rounds),
                    written=_cells(row["rounds"]),
                )
            if row["total"] != total:
                report.add(
                    f"{at}.total",
                    M.RESULT_STANDING_TOTAL,
                    number=key[1],
                    expected=total,
                    written=row["total"],
                )
            for name, value in zip(rules.tie_breaks, values[1:], strict=True):
                given = row.get("tie_breaks", {}).get(name)
                if given is not None and given != value:
                    report.add(
                        f"{at}.tie_breaks.{name}",
                        M.RESULT_STANDING_TIE_BREAK,
                        number=key[1],
                        name=name,
                        expected=value,
                        written=given,
                    )
        for entry, place in places(entries):
            number = entry.start_number
            if number not in written:
                continue
            i, row = written[number]
            if row["rank"] != place.place or bool(row.get("shared")) != place.shared:
                report.add(
                    f"{where}.rows[{i}].rank",
                    M.RESULT_STANDING_RANK,
                    number=number,
                    expected=place.label or "–",
                    written=_label(row),
                )


def _label(row: Mapping[str, Any]) -> str:
    if row.get("rank") is None:
        return "–"
    return f"{row['rank']}. =" if row.get("shared") else f"{row['rank']}."


def _money(
    document: Mapping[str, Any],
    players: Mapping[tuple[str, int], Mapping[str, Any]],
    parties: Mapping[tuple[str, int], _Party],
    report: Report,
) -> None:
    """The donations for lost games and the evening's total, where the file has the rule."""
    money = document.get("money") or {}
    if "donation" not in money:
        return
    report.donations = True
    rule = DonationRule.from_pairs(
        money["donation"]["tiers"], bool(money["donation"]["count_conceded"])
    )
    written = {
        (d["competition"], d["start_number"]): (i, d)
        for i, d in enumerate(money.get("donations", []))
    }
    donations = 0
    fees = 0
    for key, player in players.items():
        party = parties.get(key, _Party())
        if player.get("withdrawn") and not party.played:
            continue  # never played: owes nothing
        lost = lost_games(party.outcomes, rule)
        cents = rule.amount(lost)
        donations += cents
        if not player.get("unranked"):
            people = 2 if key[0] == "pairs" and money.get("fee_per_player") else 1
            fees += money.get("entry_fee_cents", 0) * people
        if key in written:
            i, row = written[key]
            if (row["lost_games"], row["cents"]) != (lost, cents):
                report.add(
                    f"money.donations[{i}]",
                    M.RESULT_DONATION,
                    number=key[1],
                    expected=f"{lost} / {cents}",
                    written=f"{row['lost_games']} / {row['cents']}",
                )
        elif cents:
            report.add("money.donations", M.RESULT_DONATION_MISSING, number=key[1], cents=cents)
    if "total_cents" in money:
        total = fees + donations + money.get("extra_donations_cents", 0)
        if money["total_cents"] != total:
            report.add(
                "money.total_cents",
                M.RESULT_MONEY_TOTAL,
                expected=total,
                written=money["total_cents"],
            )


def summary(report: Report) -> Iterator[tuple[str, dict[str, object]]]:
    """What the check covered, as (msgid, params) for the command's first line."""
    if report.ok:
        yield (
            M.RESULT_OK,
            {
                "rounds": report.rounds,
                "tables": report.tables,
                "games": report.games,
                "players": report.players,
                "standings": report.standings,
            },
        )
        if report.donations:
            yield M.RESULT_OK_MONEY, {}
    else:
        yield M.RESULT_NOT_OK, {"count": len(report.problems)}


def first(problems: Sequence[FieldError], limit: int) -> list[FieldError]:
    return list(problems[:limit])
