"""``python -m pairing``: plan, check and re-plan from the command line (JSON out).

Errors exit with status 2 and print ``{"errors": [{"field": ..., "message": ...}]}`` (German
by default, ``--lang en`` for English).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from .errors import N_, FieldError, PairingError
from .model import Entrant, Mode, Plan, validate_entrant_count
from .planner import make_plan
from .quality import check_plan
from .replanner import check_changes, replan

CLUBS_HELP = (
    'clubs of the entrants: a JSON object {"12": "TSV Musterhausen", ...} or a CSV file '
    "with the columns start_number,club (a header line is optional); entrants not listed "
    "have no club"
)


class _ArgumentError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _ArgumentError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m pairing",
        description="Binokel seating plans: plan, check and re-plan (JSON on stdout).",
    )
    parser.add_argument("--lang", default="de", help="language of error messages: de or en")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("plan", help="make a seating plan")
    p.add_argument("--mode", required=True, choices=[m.value for m in Mode])
    p.add_argument("--entrants", type=int, help="entrants numbered 1..N")
    p.add_argument("--start-numbers", help="the start numbers, comma-separated: 1,2,5,...")
    p.add_argument("--rounds", type=int, default=3, help="number of rounds (default 3)")
    p.add_argument("--seed", type=int, default=0, help="another seed gives another plan")
    p.add_argument("--clubs", help=CLUBS_HELP)
    p.add_argument("--lang", default=argparse.SUPPRESS, help="de (default) or en")

    c = sub.add_parser(
        "check", help="print R, F, S, C (and D for a re-plan) with their lower bounds"
    )
    c.add_argument("file", help="the plan (JSON); - reads standard input")
    c.add_argument("--clubs", help=CLUBS_HELP)
    c.add_argument("--base", help="the plan before the re-plan (JSON), to count D")
    c.add_argument("--played", type=int, default=0, help="rounds played before the re-plan")
    c.add_argument("--lang", default=argparse.SUPPRESS, help="de (default) or en")

    r = sub.add_parser("replan", help="re-plan the unplayed rounds")
    r.add_argument("--plan", required=True, help="the current plan (JSON); - reads stdin")
    r.add_argument("--played", type=int, required=True, help="rounds already played (kept)")
    r.add_argument("--withdraw", default="", help="start numbers withdrawing: 5,17")
    r.add_argument("--add", default="", help="start numbers arriving late: 46,47")
    r.add_argument("--seed", type=int, default=0, help="another seed gives another plan")
    r.add_argument("--clubs", help=CLUBS_HELP)
    r.add_argument("--lang", default=argparse.SUPPRESS, help="de (default) or en")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    lang = _sniff_lang(args_list)
    try:
        try:
            args = build_parser().parse_args(args_list)
        except _ArgumentError as exc:
            raise PairingError(
                [FieldError.of("arguments", N_("Invalid command line: {detail}"), detail=str(exc))]
            ) from exc
        lang = args.lang
        result = _run(args)
    except PairingError as exc:
        print(json.dumps({"errors": exc.as_dicts(lang)}, ensure_ascii=False))
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0


def _sniff_lang(argv: Sequence[str]) -> str:
    for i, a in enumerate(argv):
        if a == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--lang="):
            return a.split("=", 1)[1]
    return "de"


def _run(args: argparse.Namespace) -> dict[str, Any]:
    if args.command == "plan":
        numbers = _plan_numbers(args.entrants, args.start_numbers, Mode(args.mode))
        clubs = _read_clubs(args.clubs, set(numbers)) if args.clubs else {}
        entrants = [Entrant(n, clubs.get(n)) for n in numbers]
        return make_plan(entrants, Mode(args.mode), args.rounds, args.seed).to_dict()
    if args.command == "check":
        plan = _read_plan(args.file, "file")
        base = _read_plan(args.base, "base") if args.base else None
        seated = {n for r in plan.rounds for n in r.entrants()}
        clubs = _read_clubs(args.clubs, seated) if args.clubs else {}
        entrants = [Entrant(n, clubs.get(n)) for n in sorted(seated)]
        return check_plan(plan, entrants, base, args.played).to_dict()
    plan = _read_plan(args.plan, "plan")
    withdraw, bad_withdraw = _number_list(args.withdraw, "withdraw")
    add, bad_add = _number_list(args.add, "add")
    listed = bad_withdraw + bad_add
    try:
        check_changes(plan, args.played, withdraw, [Entrant(n) for n in add])
    except PairingError as exc:
        raise PairingError(listed + list(exc.errors)) from None
    if listed:
        raise PairingError(listed)
    seated = {n for r in plan.rounds for n in r.entrants()}
    clubs = _read_clubs(args.clubs, seated | set(add)) if args.clubs else {}
    entrants = [Entrant(n, clubs.get(n)) for n in sorted(seated)]
    new = replan(
        plan,
        args.played,
        entrants,
        withdraw=withdraw,
        add=[Entrant(n, clubs.get(n)) for n in add],
        seed=args.seed,
    )
    return new.to_dict()


def _plan_numbers(count: int | None, listed: str | None, mode: Mode) -> list[int]:
    if listed:
        numbers, errors = _number_list(listed, "start_numbers")
        if count is not None and count != len(numbers) + len(errors):
            errors.append(
                FieldError.of(
                    "entrants",
                    N_("--entrants {count} does not match the {listed} start numbers given."),
                    count=count,
                    listed=len(numbers) + len(errors),
                )
            )
        if errors:
            raise PairingError(errors)
        return numbers
    if count is None:
        raise PairingError([FieldError.of("entrants", N_("Give --entrants N or --start-numbers."))])
    if count < 0:
        raise PairingError(
            [
                FieldError.of(
                    "entrants", N_("{value} is not a valid number of entrants."), value=count
                )
            ]
        )
    validate_entrant_count(count, mode)  # before making a list of them all
    return list(range(1, count + 1))


def _number_list(text: str, field: str) -> tuple[list[int], list[FieldError]]:
    """The start numbers of a comma-separated list, and a problem for every value that is not
    a positive whole number or comes twice (all of them, not just the first)."""
    out: list[int] = []
    errors: list[FieldError] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            number = int(part)
        except ValueError:
            errors.append(FieldError.of(field, N_("{value} is not a whole number."), value=part))
            continue
        if number < 1:
            errors.append(
                FieldError.of(field, N_("Start number {value} is not positive."), value=number)
            )
        elif number in out:
            errors.append(
                FieldError.of(field, N_("Start number {value} appears twice."), value=number)
            )
        else:
            out.append(number)
    return out, errors


def _read_text(path: str, field: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError:
        raise PairingError(
            [FieldError.of(field, N_("The file {path} cannot be read."), path=path)]
        ) from None


def _read_plan(path: str, field: str) -> Plan:
    text = _read_text(path, field)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise PairingError(
            [FieldError.of(field, N_("The file {path} is not valid JSON."), path=path)]
        ) from None
    return Plan.from_dict(data)


def _read_clubs(path: str, known: set[int]) -> dict[int, str | None]:
    """Clubs from JSON ({"12": "club"}) or CSV (start_number,club)."""
    text = _read_text(path, "clubs")
    rows: list[tuple[str, object]] = []
    if text.lstrip().startswith("{"):
        try:
            rows = json.loads(text, object_pairs_hook=list)
        except json.JSONDecodeError:
            raise PairingError(
                [FieldError.of("clubs", N_("The file {path} is not valid JSON."), path=path)]
            ) from None
    else:
        for line in csv.reader(io.StringIO(text)):
            if not line or not "".join(line).strip():
                continue
            rows.append((line[0], line[1] if len(line) > 1 else None))
        if rows and not rows[0][0].strip().lstrip("-").isdigit():
            rows = rows[1:]  # header line
    clubs: dict[int, str | None] = {}
    seen: set[int] = set()
    errors: list[FieldError] = []
    for key, club in rows:
        try:
            number = int(str(key).strip())
        except ValueError:
            errors.append(FieldError.of("clubs", N_("{value} is not a whole number."), value=key))
            continue
        if number not in known:
            errors.append(
                FieldError.of(
                    "clubs",
                    N_("Start number {value} is not an entrant of this plan."),
                    value=number,
                )
            )
            continue
        if number in seen:
            errors.append(
                FieldError.of("clubs", N_("Start number {value} appears twice."), value=number)
            )
            continue
        seen.add(number)
        if club is not None and not isinstance(club, str):
            errors.append(
                FieldError.of(
                    "clubs", N_("The club of start number {value} must be text."), value=number
                )
            )
            continue
        clubs[number] = club.strip() if club and club.strip() else None
    if errors:
        raise PairingError(errors)
    return clubs
