"""Command line of the scoring engine (the contract in DESIGN.md).

    python -m scoring score [--rules FILE] [--lang de|en]     < game.json   (one game or a list)
    python -m scoring melds [--cards 12|9 | --pair] [--witness TOTAL] [--rules FILE]
    python -m scoring rules [--preset NAME] [--describe] [--lang de|en]

Results go to stdout as JSON. Invalid input exits with status 2 and prints
``{"errors": [{"field": "parties[1].tricks", "message": "…"}]}`` naming every problem (for a list
of games the fields are prefixed with the game's index: ``[3].parties[1].tricks``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import IO, Any

from scoring import messages as M
from scoring.engine import _score_valid, validate_game
from scoring.errors import DEFAULT_LANGUAGE, FieldError, ScoringError
from scoring.melds import (
    achievable_pair_totals,
    achievable_totals,
    find_witness,
    witness_dict,
)
from scoring.model import GameInput, GameResult
from scoring.rules import EJL, PRESETS, RuleSet, get_preset

EXIT_OK = 0
EXIT_INVALID = 2
LANGUAGES = ("de", "en")


class _Invalid(Exception):
    def __init__(self, errors: Iterable[FieldError]) -> None:
        super().__init__()
        self.errors = list(errors)


def _prefixed(prefix: str, error: FieldError) -> FieldError:
    field = f"{prefix}.{error.field}" if error.field else prefix
    return FieldError(field, error.msgid, error.params)


def _load_rules(path: str | None) -> RuleSet:
    if path is None:
        return EJL
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        error = FieldError.of("rules", M.RULES_FILE_UNREADABLE, detail=exc.strerror)
        raise _Invalid([error]) from None
    try:
        return RuleSet.from_json(text)
    except ScoringError as exc:
        raise _Invalid(_prefixed("rules", e) for e in exc.errors) from None


def _score(data: object, rules: RuleSet) -> tuple[GameResult | None, list[FieldError]]:
    try:
        game = GameInput.from_dict(data)
    except ScoringError as exc:
        return None, list(exc.errors)
    errors = validate_game(game, rules)
    if errors:
        return None, errors
    return _score_valid(game, rules), []


def _cmd_score(args: argparse.Namespace, stdin: IO[bytes]) -> Any:
    rules = _load_rules(args.rules)
    try:
        data = json.loads(stdin.read())
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
        raise _Invalid([FieldError.of("", M.INVALID_JSON, detail=str(exc))]) from None
    if isinstance(data, list):
        results: list[dict[str, Any]] = []
        errors: list[FieldError] = []
        for i, item in enumerate(data):
            result, problems = _score(item, rules)
            errors.extend(_prefixed(f"[{i}]", e) for e in problems)
            if result is not None:
                results.append(result.to_dict())
        if errors:
            raise _Invalid(errors)
        return results
    result, problems = _score(data, rules)
    if result is None:
        raise _Invalid(problems)
    return result.to_dict()


def _cmd_melds(args: argparse.Namespace, stdin: IO[bytes]) -> Any:
    rules = _load_rules(args.rules)
    if args.witness is not None:
        found = find_witness(args.witness, args.cards, rules)
        if found is None:
            raise _Invalid(
                [FieldError.of("witness", M.NO_WITNESS, cards=args.cards, total=args.witness)]
            )
        return witness_dict(found)
    totals = achievable_pair_totals(rules) if args.pair else achievable_totals(args.cards, rules)
    return sorted(totals)


def _cmd_rules(args: argparse.Namespace, stdin: IO[bytes]) -> Any:
    try:
        rules = get_preset(args.preset)
    except ScoringError as exc:
        raise _Invalid(exc.errors) from None
    if args.describe:
        return rules.describe(args.lang)
    return rules.to_dict()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="Binokel scoring engine (ejl tournament rules).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--rules", metavar="FILE", help="rule set as JSON (default: ejl)")
        p.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE)

    score = sub.add_parser("score", help="score games read as JSON from stdin")
    common(score)
    score.set_defaults(handler=_cmd_score)

    melds = sub.add_parser("melds", help="meld totals a hand can show, or a hand showing one")
    common(melds)
    size = melds.add_mutually_exclusive_group()
    size.add_argument("--cards", type=int, choices=(12, 9), default=12, help="hand size")
    size.add_argument("--pair", action="store_true", help="sums of two 9-card hands")
    melds.add_argument("--witness", type=int, metavar="TOTAL", help="print a hand showing TOTAL")
    melds.set_defaults(handler=_cmd_melds)

    rules = sub.add_parser("rules", help="print a preset rule set as JSON")
    rules.add_argument("--preset", default="ejl", help=f"one of: {', '.join(PRESETS)}")
    rules.add_argument("--describe", action="store_true", help="print the rules as text lines")
    rules.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE)
    rules.set_defaults(handler=_cmd_rules)
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdin: IO[bytes] | None = None,
    stdout: IO[str] | None = None,
) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "melds" and args.pair and args.witness is not None:
        parser.error("--witness works for one hand (--cards), not with --pair")
    out = stdout if stdout is not None else _utf8_stdout()
    try:
        payload = args.handler(args, stdin if stdin is not None else sys.stdin.buffer)
        status = EXIT_OK
    except _Invalid as exc:
        payload = {"errors": [e.as_dict(args.lang) for e in exc.errors]}
        status = EXIT_INVALID
    indent = 2 if args.command == "rules" and status == EXIT_OK else None
    out.write(json.dumps(payload, ensure_ascii=False, indent=indent) + "\n")
    out.flush()
    return status


def _utf8_stdout() -> IO[str]:
    stream = sys.stdout
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(encoding="utf-8")
    return stream
