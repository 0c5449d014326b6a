"""Command line of the scoring engine (the contract in docs/architecture.md "Command-line
contracts").

    python -m scoring [--lang de|en] score [--rules FILE | --preset NAME]   < game.json
    python -m scoring melds [--cards N | --pair] [--witness TOTAL] [--rules FILE | --preset NAME]
    python -m scoring rules [--preset NAME] [--describe]
    python -m scoring sheet [--rules FILE | --preset NAME]   < sheet.json  (a whole score sheet)
    python -m scoring check-result FILE [--json] [--limit N]  (a binokel-result file, re-added)

``score`` takes one game or a list. ``--cards`` is a hand size of the rule set (ejl: 12 or 9;
the default is a hand at a 3-table).

``check-result`` validates an evening's result file against its schema and scores and adds it
up again with the file's own rules (``scoring.result_file``): it prints a line of what it
checked and exits 0 when everything agrees, else the first differences (``--limit``, 20) and
exits 1; ``--json`` prints ``{"ok": …, "summary": […], "problems": [{"field", "message"}]}``.
A file that is no such file, or of a higher major version, exits 2 as invalid input does.

``--lang`` may come before or after the command. Results go to stdout as JSON. Invalid input
exits with status 2 and prints ``{"errors": [{"field": "parties[1].tricks", "message": "…"}]}``
naming every problem (for a list of games the fields are prefixed with the game's index:
``[3].parties[1].tricks``); so does a wrong command line, on the field ``arguments``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import IO, Any, NoReturn

from scoring import messages as M
from scoring import result_file
from scoring.engine import check_game, read_game, score_game
from scoring.errors import DEFAULT_LANGUAGE, FieldError, ScoringError, translate
from scoring.melds import (
    achievable_pair_totals,
    achievable_totals,
    find_witness,
    witness_dict,
)
from scoring.presets import PRESETS, get_preset
from scoring.reading import load_json
from scoring.rules import EJL, RuleSet
from scoring.sheet import read_sheet

EXIT_OK = 0
EXIT_DIFFERENT = 1  # check-result: the file does not check out
EXIT_INVALID = 2
LANGUAGES = ("de", "en")


class _Invalid(Exception):
    def __init__(self, errors: Iterable[FieldError]) -> None:
        super().__init__()
        self.errors = list(errors)


class _ArgumentError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors become a field error instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise _ArgumentError(message)


def _prefixed(prefix: str, error: FieldError) -> FieldError:
    field = f"{prefix}.{error.field}" if error.field else prefix
    return FieldError(field, error.msgid, error.params)


def _rules_of(args: argparse.Namespace) -> RuleSet:
    if args.preset is not None:
        try:
            return get_preset(args.preset)
        except ScoringError as exc:
            raise _Invalid(exc.errors) from None
    return _load_rules(args.rules)


def _load_rules(path: str | None) -> RuleSet:
    if path is None:
        return EJL
    try:
        with open(path, "rb") as handle:
            text = handle.read()
    except OSError as exc:
        error = FieldError.of("rules", M.RULES_FILE_UNREADABLE, detail=exc.strerror)
        raise _Invalid([error]) from None
    try:
        return RuleSet.from_json(text)
    except ScoringError as exc:
        raise _Invalid(_prefixed("rules", e) for e in exc.errors) from None


def _score(data: object, rules: RuleSet, lang: str) -> dict[str, Any]:
    """The points of one game; ``"warnings"`` (the shape of ``"errors"``) only when there are
    any, e.g. a bid no hand can make."""
    game = read_game(data, rules)
    out = score_game(game, rules).to_dict()
    warnings = check_game(game, rules).warnings
    if warnings:
        out["warnings"] = [warning.as_dict(lang) for warning in warnings]
    return out


def _cmd_score(args: argparse.Namespace, stdin: IO[bytes]) -> str:
    rules = _rules_of(args)
    try:
        data = load_json(stdin.read())
    except ScoringError as exc:
        raise _Invalid(exc.errors) from None
    if isinstance(data, list):
        results: list[dict[str, Any]] = []
        errors: list[FieldError] = []
        for i, item in enumerate(data):
            try:
                results.append(_score(item, rules, args.lang))
            except ScoringError as exc:
                errors.extend(_prefixed(f"[{i}]", e) for e in exc.errors)
        if errors:
            raise _Invalid(errors)
        return _dumps(results)
    try:
        return _dumps(_score(data, rules, args.lang))
    except ScoringError as exc:
        raise _Invalid(exc.errors) from None


def _cmd_sheet(args: argparse.Namespace, stdin: IO[bytes]) -> str:
    """A whole sheet (scoring/sheet.py): every game's dealer, sitting-out column and points, and
    the totals; the games given, in order from game 1."""
    rules = _rules_of(args)
    try:
        data = load_json(stdin.read())
        result = read_sheet(data, rules)
    except ScoringError as exc:
        raise _Invalid(exc.errors) from None
    given = data.get("games") if isinstance(data, dict) else None
    entered = len(given) if isinstance(given, list) else 0
    return _dumps(result.to_dict(entered, args.lang))


def _cmd_melds(args: argparse.Namespace, stdin: IO[bytes]) -> str:
    rules = _rules_of(args)
    sizes = sorted({cards for _shape, cards in rules.hand_cards})
    cards = rules.hand_size(3) if args.cards is None else args.cards
    if cards not in sizes:
        choices = ", ".join(map(str, sizes))
        detail = f"argument --cards: invalid choice: {cards} (choose from {choices})"
        raise _Invalid([FieldError.of("arguments", M.INVALID_COMMAND_LINE, detail=detail)])
    if args.pair and rules.pair_hand_cards is None:
        raise _Invalid([FieldError.of("pair", M.NO_PAIR_TABLES)])
    if args.witness is not None:
        found = find_witness(args.witness, cards, rules)
        if found is None:
            raise _Invalid(
                [FieldError.of("witness", M.NO_WITNESS, cards=cards, total=args.witness)]
            )
        return _dumps(witness_dict(found))
    totals = achievable_pair_totals(rules) if args.pair else achievable_totals(cards, rules)
    return _dumps(sorted(totals))


def _cmd_rules(args: argparse.Namespace, stdin: IO[bytes]) -> str:
    try:
        rules = get_preset(args.preset)
    except ScoringError as exc:
        raise _Invalid(exc.errors) from None
    if args.describe:
        return json.dumps(rules.describe(args.lang), ensure_ascii=False, indent=2)
    return rules.to_json()


def _cmd_check_result(args: argparse.Namespace, stdin: IO[bytes]) -> str:
    try:
        with open(args.file, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        error = FieldError.of("file", M.RESULT_FILE_UNREADABLE, detail=exc.strerror)
        raise _Invalid([error]) from None
    try:
        document = result_file.read(data)
    except ScoringError as exc:
        raise _Invalid(exc.errors) from None
    report = result_file.check(document, args.lang)
    lines = [
        translate(msgid, args.lang).format(**params)
        for msgid, params in result_file.summary(report)
    ]
    shown = report.problems[: args.limit]
    if not report.ok:
        args.status = EXIT_DIFFERENT
    if args.json:
        return _dumps(
            {
                "ok": report.ok,
                "summary": lines,
                "problems": [p.as_dict(args.lang) for p in shown],
            }
        )
    return "\n".join([*lines, *(f"- {p.text(args.lang)}  [{p.field}]" for p in shown)])


def _dumps(payload: object) -> str:
    return json.dumps(payload, ensure_ascii=False)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m scoring",
        description="Binokel scoring engine (ejl tournament rules).",
    )
    lang_help = "language of messages: de (default) or en"
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help=lang_help)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def common(p: argparse.ArgumentParser, rules: bool = True) -> None:
        if rules:
            source = p.add_mutually_exclusive_group()
            source.add_argument("--rules", metavar="FILE", help="rule set as JSON (default: ejl)")
            source.add_argument("--preset", help=f"a preset rule set: {', '.join(PRESETS)}")
        # also after the command; SUPPRESS keeps a --lang given before it
        p.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=lang_help)

    score = sub.add_parser("score", help="score games read as JSON from stdin")
    common(score)
    score.set_defaults(handler=_cmd_score)

    melds = sub.add_parser("melds", help="meld totals a hand can show, or a hand showing one")
    common(melds)
    size = melds.add_mutually_exclusive_group()
    size.add_argument("--cards", type=int, help="hand size (default: a hand at a 3-table)")
    size.add_argument("--pair", action="store_true", help="what two partners' hands show together")
    melds.add_argument("--witness", type=int, metavar="TOTAL", help="print a hand showing TOTAL")
    melds.set_defaults(handler=_cmd_melds)

    sheet = sub.add_parser("sheet", help="score a whole score sheet read as JSON from stdin")
    common(sheet)
    sheet.set_defaults(handler=_cmd_sheet)

    check = sub.add_parser(
        "check-result", help="check a binokel-result file (docs/result-format.md)"
    )
    check.add_argument("file", metavar="FILE")
    check.add_argument("--json", action="store_true", help="the findings as JSON")
    check.add_argument("--limit", type=int, default=20, help="differences shown at most")
    common(check, rules=False)
    check.set_defaults(handler=_cmd_check_result)

    rules = sub.add_parser("rules", help="print a preset rule set as JSON")
    rules.add_argument("--preset", default="ejl", help=f"one of: {', '.join(PRESETS)}")
    rules.add_argument("--describe", action="store_true", help="print the rules as text lines")
    common(rules, rules=False)
    rules.set_defaults(handler=_cmd_rules)
    return parser


def _sniff_lang(argv: Sequence[str]) -> str:
    """The --lang of a command line argparse rejected (for the language of that error)."""
    lang = DEFAULT_LANGUAGE
    for i, arg in enumerate(argv):
        value = None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        if value in LANGUAGES:
            lang = value
    return lang


def main(
    argv: Sequence[str] | None = None,
    stdin: IO[bytes] | None = None,
    stdout: IO[str] | None = None,
) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    out = stdout if stdout is not None else _utf8_stdout()
    lang = _sniff_lang(arguments)
    try:
        try:
            args = _parser().parse_args(arguments)
            if args.command == "melds" and args.pair and args.witness is not None:
                raise _ArgumentError("--witness works for one hand (--cards), not with --pair")
        except _ArgumentError as exc:
            error = FieldError.of("arguments", M.INVALID_COMMAND_LINE, detail=str(exc))
            raise _Invalid([error]) from None
        lang = args.lang
        text = args.handler(args, stdin if stdin is not None else sys.stdin.buffer)
        status = getattr(args, "status", EXIT_OK)
    except _Invalid as exc:
        text = _dumps({"errors": [e.as_dict(lang) for e in exc.errors]})
        status = EXIT_INVALID
    out.write(text + "\n")
    out.flush()
    return status


def _utf8_stdout() -> IO[str]:
    stream = sys.stdout
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(encoding="utf-8")
    return stream
