"""Evenings and registrations taken in from the open result file (``binokel-result``,
docs/result-format.md): ``manage.py import_result FILE`` and the desk's upload.

A file is checked by the engine first (``scoring.result_file``: its schema, every game scored
again with its own rules, the standings and the money added up again); one that does not check
out is refused with the checker's words and nothing is stored. Then, in one transaction:

- a **results** file becomes a finished evening of this installation -- its entrants, seating and
  every sheet written through the sheet's one writer (as the import, confirmed as in the file),
  its prizes and money -- read-only from then on (``Tournament.read_only``); what the file holds
  beyond that (its corrections, how each table entered its games, other programs' extensions)
  is kept, so the evening written out again gives the same file;
- an **entries** file registers its players into the evening of the same id (made from the file
  when there is none yet): start numbers, consent and the waiting list kept;
- an **invitation** makes the evening (its date, place, rules, Startgeld, registration).

Players carrying a register id (``ids.register``) are linked to that player of the register."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from scoring import PRESETS, ScoringError, get_preset, result_file
from scoring.sheet import SheetInput

from ..models import (
    Competition,
    Entrant,
    ExtraDonation,
    Mode,
    Player,
    Prize,
    PrizeMode,
    Round,
    Seat,
    Table,
    Tournament,
    Verein,
    WaitingRegistration,
    hidden_name,
)
from . import tenancy
from .access import Action, Actor, require, require_create_tournament
from .audit import log_action
from .errors import DeskError, active_language
from .evening.registration import create_tournament
from .rounds.writer import RoundChange, change_round
from .server import public_cache
from .sheets import operations as O
from .sheets import sheet_fields as F
from .sheets.writer import write

MAX_BYTES = 50 * 1024 * 1024
SHOWN_PROBLEMS = 5


class ResultRefused(DeskError):
    """A file that is no result file, or does not check out: nothing was stored."""


@dataclass(frozen=True)
class Imported:
    tournament: Tournament
    kind: str
    entrants: int
    waiting: int = 0
    tables: int = 0


def read_checked(data: bytes, lang: str | None = None) -> dict[str, Any]:
    """The document of a result file that checks out; ResultRefused with the checker's first
    findings otherwise."""
    lang = lang or active_language()
    if len(data) > MAX_BYTES:
        raise ResultRefused(_("Die Datei ist zu groß."))
    try:
        document = result_file.read(data)
    except ScoringError as exc:
        raise ResultRefused(" ".join(e.text(lang) for e in exc.errors)) from exc
    report = result_file.check(document, lang)
    if not report.ok:
        found = "; ".join(p.text(lang) for p in report.problems[:SHOWN_PROBLEMS])
        raise ResultRefused(
            _("Die Datei stimmt nicht (%(count)s Unterschiede), nichts wurde übernommen: %(found)s")
            % {"count": len(report.problems), "found": found}
        )
    return document


def import_result(
    data: bytes, user: Actor, lang: str | None = None, verein: Verein | None = None
) -> Imported:
    """Take a checked result file in (see the module's docstring), all or nothing, into
    ``verein`` (by default the account's one Verein, or the installation's)."""
    document = read_checked(data, lang)
    kind = document["kind"]
    into = verein or tenancy.verein_for_new(user)
    with transaction.atomic(), public_cache.batched():
        if kind == "results":
            return _results(document, user, into)
        if kind == "entries":
            return _entries(document, user, into)
        return _invitation(document, user, into)


# --- the evening ------------------------------------------------------------------------------
def _existing(event_id: str, verein: Verein) -> Tournament | None:
    return Tournament.objects.filter(event_id=event_id, verein=verein).first()


def _rule_fields(document: Mapping[str, Any]) -> dict[str, Any]:
    """The tournament's preset and the fields of the file's rule set that differ from it."""
    rules = document.get("rules")
    if not rules:
        return {"preset": "ejl", "rules_json": {}}
    preset = rules["preset"] if rules["preset"] in PRESETS else "ejl"
    base = get_preset(preset).to_dict()
    changed = {
        k: v for k, v in rules["set"].items() if k not in ("rounds", "name") and base.get(k) != v
    }
    return {"preset": preset, "rules_json": changed}


def _evening(document: Mapping[str, Any], user: Actor, verein: Verein) -> Tournament:
    require_create_tournament(user, verein)
    event = document["event"]
    if _existing(event["id"], verein) is not None:
        raise ResultRefused(
            _("Diesen Abend (%(name)s) gibt es hier schon; nichts wurde übernommen.")
            % {"name": event["name"]}
        )
    modes = [c["mode"] for c in event.get("competitions", [])] or sorted(
        {p["competition"] for p in document.get("players", [])}
    )
    rounds = event.get("rounds") or max(
        (r["number"] for r in document.get("rounds", [])), default=3
    )
    money = document.get("money") or {}
    donation = money.get("donation") or {}
    t = create_tournament(
        event["name"],
        modes=modes or [Mode.SINGLES],
        creator=user,
        verein=verein,
        date=parse_date(event["date"]) if event.get("date") else None,
        venue=event.get("venue", ""),
        town=event.get("town", ""),
        organiser_club=(event.get("organiser") or {}).get("club", ""),
        rounds=rounds,
        table_entry=False,
        entry_fee_cents=money.get("entry_fee_cents", 0),
        fee_per_player=money.get("fee_per_player", False),
        charity_purpose=money.get("purpose", ""),
        donation_tiers=donation.get("tiers", []),
        donation_counts_conceded=donation.get("count_conceded", False),
        **_rule_fields(document),
    )
    t.event_id = event["id"]
    if event.get("prize_mode") in PrizeMode.values:
        t.prize_mode = event["prize_mode"]
    t.one_prize_per_person = event.get("one_prize_per_person") is True
    t.save(update_fields=["event_id", "prize_mode", "one_prize_per_person"])
    for c in event.get("competitions", []):
        until = parse_datetime(c["registration_until"]) if c.get("registration_until") else None
        Competition.objects.filter(tournament=t, mode=c["mode"]).update(
            capacity=c.get("capacity"), registration_closes=until
        )
    return t


def _invitation(document: Mapping[str, Any], user: Actor, verein: Verein) -> Imported:
    t = _evening(document, user, verein)
    log_action(t, user, "result.import", t, after={"kind": "invitation"})
    return Imported(t, "invitation", 0)


# --- players ----------------------------------------------------------------------------------
def _register_player(
    verein: Verein, ids: Mapping[str, str] | None, name: str, club: str, public: bool
) -> Player | None:
    """The player of the Verein's register that the file's register id names (made when new
    here: the same id in every club's register names the same person)."""
    uid = (ids or {}).get("register")
    if not uid:
        return None
    try:
        key = uuid.UUID(uid)
    except ValueError:
        return None
    player, _created = Player.objects.get_or_create(
        verein=verein, uid=key, defaults={"name": name, "club": club, "consent": public}
    )
    return player


def _entrant(
    t: Tournament, competitions: Mapping[str, Competition], p: Mapping[str, Any]
) -> Entrant:
    number = p["start_number"]
    name = (p.get("name") or {}).get("full") or hidden_name(number)
    partner = (p.get("partner") or {}).get("full", "")
    if competitions[p["competition"]].mode == Mode.PAIRS and not partner:
        partner = "–"  # a pair without consent: no name in a public file
    club = p.get("club", "")
    public = bool(p.get("public"))
    return Entrant(
        tournament=t,
        competition=competitions[p["competition"]],
        start_number=number,
        name=name,
        partner=partner,
        club=club,
        categories=list(p.get("categories", [])),
        public_name=public,
        withdrawn=bool(p.get("withdrawn")),
        late=bool(p.get("late")),
        unranked=bool(p.get("unranked")),
        player=_register_player(t.verein, p.get("ids"), name, club, public),
        partner_player=_register_player(t.verein, p.get("partner_ids"), partner, club, public),
    )


def _players(t: Tournament, players: Sequence[Mapping[str, Any]]) -> tuple[list[Entrant], int]:
    competitions = {c.mode: c for c in t.competitions.all()}
    taken = set(t.entrants.values_list("start_number", flat=True))
    new = [
        _entrant(t, competitions, p)
        for p in players
        if p.get("status", "registered") != "waiting" and p["start_number"] not in taken
    ]
    Entrant.objects.bulk_create(new)
    waiting = [p for p in players if p.get("status") == "waiting"]
    WaitingRegistration.objects.bulk_create(
        WaitingRegistration(
            tournament=t,
            competition=competitions[p["competition"]],
            name=(p.get("name") or {}).get("full") or "–",
            partner=(p.get("partner") or {}).get("full", ""),
            club=p.get("club", ""),
            categories=list(p.get("categories", [])),
            public_name=bool(p.get("public")),
        )
        for p in waiting
    )
    return new, len(waiting)


def _entries(document: Mapping[str, Any], user: Actor, verein: Verein) -> Imported:
    event = document["event"]
    t = _existing(event["id"], verein)
    if t is None:
        t = _evening(document, user, verein)
    else:
        require(user, t, Action.EDIT_ENTRANTS)
    new, waiting = _players(t, document["players"])
    log_action(
        t,
        user,
        "result.import",
        t,
        after={"kind": "entries", "entrants": len(new), "waiting": waiting},
    )
    return Imported(t, "entries", len(new), waiting)


# --- results ----------------------------------------------------------------------------------
def _time(text: str | None) -> datetime | None:
    return parse_datetime(text) if text else None


def _results(document: Mapping[str, Any], user: Actor, verein: Verein) -> Imported:
    t = _evening(document, user, verein)
    entrants, _waiting = _players(t, document["players"])
    by_number = {e.start_number: e for e in t.entrants.all()}
    rounds = {r.number: r for r in _rounds(t)}
    sources: dict[str, str] = {}
    tables = 0
    for round_doc in document["rounds"]:
        round_obj = rounds[round_doc["number"]]
        made = []
        for table_doc in round_doc["tables"]:
            table = Table.objects.create(
                round=round_obj,
                competition=t.competitions.get(mode=table_doc["competition"]),
                number=table_doc["number"],
                kind=table_doc["kind"],
            )
            Seat.objects.bulk_create(
                Seat(table=table, entrant=by_number[n], position=i)
                for i, n in enumerate(table_doc["seats"], start=1)
            )
            sources[f"{round_obj.number}-{table.number}"] = table_doc.get("source", "paper")
            made.append((table, table_doc))
        tables += len(made)
        if round_doc.get("started_at") or any(d["games"] for _t, d in made):
            change_round(
                round_obj,
                RoundChange.START,
                None,
                despite_open=True,
                at=_time(round_doc.get("started_at")),
            )
        for table, table_doc in made:
            _sheet(table, table_doc)
        finished = _time(round_doc.get("finished_at"))
        round_obj.refresh_from_db()
        if finished is not None and round_obj.finished_at is not None:
            change_round(round_obj, RoundChange.FINISH, None, at=finished)
    _prizes(t, document.get("prizes", []), by_number)
    extra = (document.get("money") or {}).get("extra_donations_cents", 0)
    if extra:
        ExtraDonation.objects.create(
            tournament=t,
            description=_("Weitere Spenden (aus der Ergebnisdatei)"),
            amount_cents=extra,
        )
    t.imported = json.dumps(
        {
            "generator": document["generator"],
            "series": document["event"].get("series", []),
            "corrections": document.get("corrections", []),
            "sources": sources,
            "extensions": document.get("extensions", {}),
        },
        ensure_ascii=False,
    )
    t.read_only = True
    t.save(update_fields=["imported", "read_only"])
    log_action(
        t,
        user,
        "result.import",
        t,
        after={
            "kind": "results",
            "entrants": len(entrants),
            "tables": tables,
            "generator": document["generator"],
        },
    )
    return Imported(t, "results", len(entrants), tables=tables)


def _rounds(t: Tournament) -> list[Round]:
    return [Round.objects.get_or_create(tournament=t, number=n)[0] for n in range(1, t.rounds + 1)]


def _sheet(table: Table, table_doc: Mapping[str, Any]) -> None:
    """The table's sheet, written through the one writer as the import, confirmed as in the
    file (at the desk, or by the table)."""
    games = [
        None if g is None else {k: v for k, v in g.items() if k not in ("points", "won")}
        for g in table_doc["games"]
    ]
    read = SheetInput.read(
        {
            "table": table_doc["kind"],
            "games": games,
            "written_totals": table_doc.get("written_totals", []),
        }
    )
    if read.sheet is None:  # the checker read it: a broken invariant
        raise ValueError(f"unreadable sheet of table {table_doc['number']}")
    entries = F.sheet_entries(read.sheet)
    if not entries:
        return
    ops: list[O.Operation] = [O.SetGame(n, f, "") for n, f in F.parts(entries).items()]
    status = table_doc.get("status", "confirmed")
    if status == "confirmed":
        ops.append(O.ConfirmAtDesk(F.part_stamps(entries)))
    written = write(table, ops, source=O.SOURCE_IMPORT)
    if status == "confirmed" and not written.confirmed:
        raise ValueError(f"table {table_doc['number']} was not confirmed: {written.notice}")


def _prizes(
    t: Tournament, prizes: Sequence[Mapping[str, Any]], by_number: Mapping[int, Entrant]
) -> None:
    competitions = {c.mode: c for c in t.competitions.all()}
    chosen = False
    for p in prizes:
        winner = by_number.get(p["winner"]) if p.get("chosen") and p.get("winner") else None
        chosen = chosen or winner is not None
        Prize.objects.create(
            tournament=t,
            competition=competitions[p["competition"]],
            position=p["position"],
            description=p["description"],
            value_cents=p.get("value_cents", 0),
            special=p.get("special", ""),
            withdrawn_may_win=bool(p.get("withdrawn_may_win")),
            chosen_by=winner,
        )
    if chosen and t.prize_mode != PrizeMode.CHOICE:
        Tournament.objects.filter(pk=t.pk).update(prize_mode=PrizeMode.CHOICE)
