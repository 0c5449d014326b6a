"""One sheet, one protocol, proved against a plain model (Hypothesis ``RuleBasedStateMachine``).

Two phones on the table's link, two desk persons (the organiser and a helper) with forms opened
at some moment, the table's confirmation, the four-eyes check with the paper typed blind and
the decisions, retried requests, the simulation and the start of the next round -- interleaved
in any order, driving the real services. The model is a sheet of game values (a bid per game;
the rest of each game is the rules' worked example 1) with its status, who wrote each game and
the paper; it says what every write must do. After every step:

- every game holds what the model says: nothing changed that its writer did not change, and
  every stale write was refused (with both versions) and never applied;
- every change of state made exactly one new version, and nothing else did;
- the audit log replays to the stored sheet (games, status, version);
- the stored games are exactly the valid ones, and the round is finished exactly while the
  sheet is confirmed.

``make check`` runs a short machine; the whole suite (``make test``) runs it for well over 2,000
steps."""

from __future__ import annotations

import io
import itertools
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from binokel_tournament.models import (
    AuditLog,
    Game,
    Mode,
    Role,
    Round,
    ScoreSheet,
    Seat,
    SheetStatus,
    Table,
    TableEntry,
    TableKind,
)
from binokel_tournament.services.access import NotAllowed
from binokel_tournament.services.errors import DeskError
from binokel_tournament.services.evening.registration import create_tournament, register_entrant
from binokel_tournament.services.evening.simulation import simulate_round
from binokel_tournament.services.rounds.state import RoundNotStarted
from binokel_tournament.services.rounds.writer import EarlierRoundsOpen, RoundChange, change_round
from binokel_tournament.services.sheets import inputs, paper_check, results, table_entry
from binokel_tournament.services.sheets import sheet_fields as F
from binokel_tournament.services.sheets.operations import (
    GameRefused,
    SheetConflict,
    StaleConfirmation,
    TableLocked,
)
from binokel_tournament.services.sheets.table_entry import GameConflict
from binokel_tournament.services.sheets.writer import save_sheet

from .phones import GAME, three_table
from .sheets import game_entries
from .support import member, organiser_account

pytestmark = pytest.mark.django_db

GAMES = 12
VALID_BIDS = (150, 160, 170, 180, 190, 200)  # worked example 1: the declarer wins each
INVALID_BID = 155  # not a multiple of 10: the desk keeps it as a draft, a phone is refused
BIDS = (*VALID_BIDS, INVALID_BID)
NUMBERS = st.integers(min_value=1, max_value=GAMES)
DESKS = ("orga", "kasse")
PHONES = ("A", "B")
Fields = dict[str, str]  # one part of the sheet as stored (empty: nothing there)


OUTCOMES: Counter[str] = Counter()  # what the run exercised (the long run asserts on it)


def event(outcome: str) -> None:
    OUTCOMES[outcome] += 1


def fields_of(number: int, bid: int | None) -> Fields:
    """A game as the desk's form, the phone (``GAME``) and the sheet hold it."""
    if bid is None:
        return {}
    return game_entries(number, 1, bid, [60, 20, 0], [152, 58, 40])


def entries_of(parts: dict[int, Fields]) -> dict[str, str]:
    return {name: value for fields in parts.values() for name, value in fields.items()}


def valid_game(fields: Fields, number: int) -> bool:
    bid = fields.get(F.game_field(number, "bid"), "")
    return bool(fields) and bid.isdigit() and int(bid) % 10 == 0


@dataclass
class Phone:
    seen: dict[int, Fields] = field(default_factory=dict)  # game -> shown at the last refresh
    version: int = 0
    last: tuple[int, int | None, str, str] | None = None  # the last step that was applied


@dataclass
class Desk:
    form: dict[int, Fields] = field(default_factory=dict)  # what the page holds now
    opened: dict[int, Fields] = field(default_factory=dict)  # what it was opened on
    version: int = 0
    conflicts: dict[int, Fields] = field(default_factory=dict)  # part -> stored then
    keep: dict[int, str] = field(default_factory=dict)  # part -> "mine" / "theirs"
    draft: bool = False

    def shown(self) -> dict[int, Fields]:
        """What the page shows once the conflicts are decided."""
        out = {n: f for n, f in self.form.items() if f}
        for number, choice in self.keep.items():
            if choice == "theirs":
                out[number] = self.conflicts[number]
        return {n: f for n, f in out.items() if f}


@dataclass
class Model:
    """The sheet as it must be."""

    parts: dict[int, Fields] = field(default_factory=dict)  # games (and 0: written totals)
    status: str = SheetStatus.DRAFT
    version: int = 0
    table_confirmed: bool = False
    confirmed: dict[int, Fields] = field(default_factory=dict)  # at the last confirmation
    authors: dict[int, str] = field(default_factory=dict)  # part -> orga, kasse, table, sim
    paper: dict[int, Fields] | None = None
    paper_by: str = ""
    decisions: dict[int, tuple[str, str]] = field(default_factory=dict)  # (paper, sheet) stamps
    round_started: bool = False
    next_started: bool = False

    def get(self, number: int) -> Fields:
        return self.parts.get(number, {})

    def games(self) -> dict[int, Fields]:
        return {n: f for n, f in self.parts.items() if n != F.TOTALS}

    def valid(self) -> bool:
        games = self.games()
        return len(games) == GAMES and all(valid_game(f, n) for n, f in games.items())

    def locked_for_table(self) -> bool:
        return self.table_confirmed or self.status != SheetStatus.DRAFT

    def snapshot(self) -> tuple[object, ...]:
        """What a new version is made for."""
        return (
            repr(sorted(self.parts.items())),
            self.status,
            self.table_confirmed,
            dict(self.decisions),
        )


class SheetProtocol(RuleBasedStateMachine):
    """The writers of one table's sheet against the model."""

    double_check = False  # the tournament's four-eyes check
    blind = False  # ... with the second entry typed blind

    @initialize()
    def setup(self) -> None:
        double_check, blind = self.double_check, self.blind
        self.counter = itertools.count()
        users = get_user_model().objects
        self.users = {
            "orga": users.filter(username="orga").first() or organiser_account("orga"),
            "kasse": users.filter(username="kasse").first()
            or users.create_user("kasse", password="pw"),
        }
        t = create_tournament(
            "Protokoll",
            modes=[Mode.SINGLES],
            rounds=2,
            double_check=double_check,
            blind_second_entry=blind,
        )
        member(t, self.users["orga"], Role.ORGANISER)
        member(t, self.users["kasse"], Role.HELPER)
        competition = t.competitions.get()
        people = [register_entrant(competition, f"Spieler {i}") for i in (1, 2, 3)]
        self.tables = []
        for number in (1, 2):
            round_obj = Round.objects.create(tournament=t, number=number)
            table = Table.objects.create(
                round=round_obj, competition=competition, number=1, kind=TableKind.THREE
            )
            order = people if number == 1 else people[1:] + people[:1]
            for position, entrant in enumerate(order, start=1):
                Seat.objects.create(table=table, entrant=entrant, position=position)
            self.tables.append(table)
        self.model = Model()
        self.phones = {p: Phone() for p in PHONES}
        self.desks = {d: Desk() for d in DESKS}
        self.steps = 0

    # --- helpers --------------------------------------------------------------------------------
    def table(self) -> Table:
        return results.load_table(self.tables[0].pk)

    def phone_table(self) -> Table:
        return table_entry.table_by_token(self.tables[0].entry_token)

    def sheet(self) -> ScoreSheet | None:
        return ScoreSheet.objects.filter(table=self.tables[0]).first()

    def key(self) -> str:
        return uuid.uuid4().hex  # a page's key: unique across the examples of the run

    def done(self, before: tuple[object, ...]) -> None:
        """After a write the model applied: one new version when its state changed."""
        if self.model.snapshot() != before:
            self.model.version += 1

    def write(self, parts: dict[int, Fields], who: str) -> None:
        """Parts changed by ``who``, and what that does to a confirmed sheet."""
        m = self.model
        changed = False
        for number, fields in parts.items():
            if m.get(number) == fields:
                continue
            changed = True
            if fields:
                m.parts[number] = dict(fields)
            else:
                m.parts.pop(number, None)
            m.authors[number] = who
        if not changed:
            return
        m.round_started = True
        if m.status == SheetStatus.TABLE or (
            m.status == SheetStatus.CONFIRMED and self.double_check
        ):
            m.status = SheetStatus.DRAFT

    # --- the phones -------------------------------------------------------------------------
    @rule(phone=st.sampled_from(PHONES))
    def phone_refresh(self, phone: str) -> None:
        if not self.model.round_started:
            return
        state = table_entry.phone_state(self.phone_table())
        view = self.phones[phone]
        view.seen = {g["number"]: self.model.get(g["number"]) for g in state["games"]}
        view.version = state["version"]
        for game in state["games"]:  # the phone is shown what is stored
            assert game["stamp"] == F.stamp(self.model.get(game["number"]))

    @rule(phone=st.sampled_from(PHONES), number=NUMBERS, bid=st.sampled_from((*BIDS, None)))
    def phone_step(self, phone: str, number: int, bid: int | None) -> None:
        """A phone keeps game ``number`` (or deletes it: ``bid`` None) on what it last saw."""
        m, view = self.model, self.phones[phone]
        seen, stored, mine = view.seen.get(number, {}), m.get(number), fields_of(number, bid)
        base, key = F.stamp(seen), self.key()
        values = None if bid is None else {**GAME, "bid": bid}
        before = m.snapshot()

        def send() -> table_entry.GameSaved:
            return table_entry.save_game(
                self.phone_table(), number, values, key, base, delete=bid is None
            )

        if not m.round_started:
            event("phone: round not started")
            with pytest.raises(RoundNotStarted):
                send()
        elif m.locked_for_table():
            event("phone: locked")
            with pytest.raises(TableLocked):
                send()
        elif seen != stored and mine != stored:  # stale: refused with both versions
            event("phone: stale, refused")
            with pytest.raises(GameConflict) as conflict:
                send()
            assert conflict.value.stamp == F.stamp(stored)
        elif mine == stored and bid is None:
            with pytest.raises(DeskError, match="nicht eingetragen"):
                send()
        elif mine != stored and bid == INVALID_BID:
            with pytest.raises(GameRefused):
                send()
        else:
            event("phone: applied" if mine != stored else "phone: the same again")
            assert not send().repeated
            self.write({number: mine}, "table")
            self.done(before)
            view.seen[number] = mine
            if mine != stored:
                view.last = (number, bid, base, key)

    @precondition(lambda self: self.model.round_started)
    @rule(phone=st.sampled_from(PHONES), bid=st.sampled_from(VALID_BIDS))
    def phone_fills_the_sheet(self, phone: str, bid: int) -> None:
        """A table enters the rest of its games one after the other."""
        self.phone_refresh(phone)
        for number in range(1, GAMES + 1):
            if not self.model.get(number):
                self.phone_step(phone, number, bid)

    @precondition(lambda self: any(p.last for p in self.phones.values()))
    @rule(phone=st.sampled_from(PHONES))
    def phone_retry(self, phone: str) -> None:
        """The reply to a phone's last step was lost: it sends the very same request again."""
        last = self.phones[phone].last
        if last is None:
            return
        number, bid, base, key = last
        values = None if bid is None else {**GAME, "bid": bid}
        saved = table_entry.save_game(
            self.phone_table(), number, values, key, base, delete=bid is None
        )
        assert saved.repeated  # recognised: nothing done twice (the invariants check it)

    @rule(phone=st.sampled_from(PHONES))
    def table_confirms(self, phone: str) -> None:
        m, view = self.model, self.phones[phone]
        table = self.phone_table()
        numbers = [c.start_number for c in table_entry.opponents(table)]
        before = m.snapshot()

        def send() -> None:
            table_entry.confirm_at_table(table, numbers, view.version)

        if not m.round_started:
            with pytest.raises(RoundNotStarted):
                send()
        elif m.table_confirmed:
            send()  # a retried confirmation: nothing changes
        elif view.version != m.version:
            with pytest.raises(StaleConfirmation):
                send()
        elif not m.valid():
            with pytest.raises(DeskError, match="Spiele eingetragen"):
                send()
        else:
            event("table confirms")
            send()
            m.table_confirmed = True
            if m.status == SheetStatus.DRAFT:
                m.status = SheetStatus.TABLE
            self.done(before)

    # --- the desks --------------------------------------------------------------------------
    @rule(desk=st.sampled_from(DESKS))
    def desk_opens(self, desk: str) -> None:
        """The desk (re)loads the sheet: the form shows what is stored."""
        view = self.desks[desk]
        view.form = {n: dict(f) for n, f in self.model.parts.items()}
        view.opened = {n: dict(f) for n, f in self.model.parts.items()}
        view.version = self.model.version
        view.conflicts, view.keep = {}, {}

    @rule(desk=st.sampled_from(DESKS), number=NUMBERS, bid=st.sampled_from((*BIDS, None)))
    def desk_types(self, desk: str, number: int, bid: int | None) -> None:
        self.desks[desk].form[number] = fields_of(number, bid)

    @rule(desk=st.sampled_from(DESKS), bid=st.sampled_from(VALID_BIDS))
    def desk_types_the_whole_paper(self, desk: str, bid: int) -> None:
        """Every empty row of the form filled in (the paper sheet typed at the desk)."""
        form = self.desks[desk].form
        for number in range(1, GAMES + 1):
            if not form.get(number):
                form[number] = fields_of(number, bid)

    @rule(desk=st.sampled_from(DESKS))
    def desk_autosave(self, desk: str) -> None:
        view = self.desks[desk]
        kept = results.keep_draft(
            self.table(),
            self.users[desk],
            entries_of(view.form),
            next(self.counter) + 1,
            view.version,
        )
        view.draft = kept is not None

    @precondition(lambda self: any(d.conflicts for d in self.desks.values()))
    @rule(desk=st.sampled_from(DESKS), mine=st.booleans())
    def desk_decides_conflicts(self, desk: str, mine: bool) -> None:
        view = self.desks[desk]
        for number in view.conflicts:
            view.keep[number] = "mine" if mine else "theirs"

    @rule(desk=st.sampled_from(DESKS), confirm=st.booleans())
    def desk_saves(self, desk: str, confirm: bool) -> None:
        """The desk posts its whole form (every row, as a browser without script does)."""
        m, view, user = self.model, self.desks[desk], self.users[desk]
        data = entries_of(view.form)
        data.update(  # an untouched row posts its default kind
            {F.game_field(n, "kind"): "played" for n in range(1, GAMES + 1) if not view.form.get(n)}
        )
        data["opened"] = inputs.opened_text(entries_of(view.opened))
        for number, choice in view.keep.items():
            data[f"keep-g{number}"] = choice
            data[f"current-g{number}"] = F.stamp(view.conflicts[number]) or "-"
        shown = view.shown()
        data.update({f"checked-g{n}": F.stamp(f) for n, f in shown.items()})  # every game ticked
        # what the model says: the parts this form changes, on what
        wanted: dict[int, tuple[Fields, Fields]] = {}  # part -> (base, mine)
        for n in range(GAMES + 1):
            mine = view.form.get(n, {})
            if view.keep.get(n) == "theirs":
                continue
            if view.keep.get(n) == "mine":
                wanted[n] = (view.conflicts[n], mine)
            elif mine != view.opened.get(n, {}):
                wanted[n] = (view.opened.get(n, {}), mine)
        stale = {n for n, (base, mine) in wanted.items() if m.get(n) not in (base, mine)}
        changes = {n: mine for n, (_base, mine) in wanted.items() if m.get(n) != mine}
        correcting = bool(changes) and m.status == SheetStatus.CONFIRMED
        after = {**m.parts, **changes}
        after = {n: f for n, f in after.items() if f}
        games_after = {n: f for n, f in after.items() if n != F.TOTALS}
        valid_after = len(games_after) == GAMES and all(
            valid_game(f, n) for n, f in games_after.items()
        )
        before = m.snapshot()

        def send():  # type: ignore[no-untyped-def]
            return save_sheet(self.table(), data, user, view.version, confirm, self.key())

        event(f"desk: {'stale' if stale else 'current'}, {len(changes)} changes")
        if stale:
            with pytest.raises(SheetConflict) as refused:
                send()
            assert {c.number for c in refused.value.conflicts} == stale
            for c in refused.value.conflicts:  # both versions shown
                assert dict(c.theirs) == m.get(c.number) and dict(c.mine) == view.form.get(
                    c.number, {}
                )
            view.conflicts = {n: m.get(n) for n in stale}
            view.keep = {}
            return
        if self.correction_refused(correcting, valid_after, desk, send):
            return
        if not changes and self.sheet() is None:
            with pytest.raises(DeskError, match="nichts eingetragen"):
                send()
            return
        written = send()
        assert written.changed == tuple(sorted(changes)), (written.changed, changes)
        self.write(changes, desk)
        view.draft = False
        confirms = confirm and self.confirms(desk, shown)
        if confirm:
            event(f"desk confirms: {confirms} (four eyes {self.double_check})")
        assert written.confirmed == (confirms or m.status == SheetStatus.CONFIRMED)
        if confirms:
            m.status = SheetStatus.CONFIRMED
            m.confirmed = {n: dict(f) for n, f in m.parts.items()}
        self.done(before)
        self.desk_opens(desk)  # the page loads again after a save

    @rule(desk=st.sampled_from(DESKS), bid=st.sampled_from(VALID_BIDS))
    def desk_enters_the_paper_sheet(self, desk: str, bid: int) -> None:
        """A desk person opens the sheet, types the rest of the paper sheet and saves it."""
        self.desk_opens(desk)
        self.desk_types_the_whole_paper(desk, bid)
        self.desk_saves(desk, confirm=False)

    @rule(desk=st.sampled_from(DESKS))
    def desk_checks_and_confirms(self, desk: str) -> None:
        """A desk person opens the sheet, compares every game with the paper and confirms."""
        self.desk_opens(desk)
        self.desk_saves(desk, confirm=True)

    def correction_refused(
        self, correcting: bool, valid_after: bool, desk: str, send: Callable[[], object]
    ) -> bool:
        """A change of a confirmed sheet: refused when it would leave it invalid (without the
        four-eyes check) or when a helper tries it; True when it was (and checked so)."""
        if correcting and not self.double_check and not valid_after:
            with pytest.raises(DeskError, match="korrigiert"):
                send()
            return True
        if correcting and desk == "kasse":
            with pytest.raises(NotAllowed):
                send()
            return True
        return False

    def confirms(self, desk: str, shown: dict[int, Fields]) -> bool:
        """Whether this desk's confirmation takes (the model's reading of the rules): it saw
        what is stored, the sheet is complete and valid, and with the four-eyes check every
        game changed since the last confirmation was checked by someone else."""
        m = self.model
        if m.status == SheetStatus.CONFIRMED or shown != m.parts or not m.valid():
            return False
        if not self.double_check:
            return True
        changed = {
            n
            for n in set(m.games()) | set(m.confirmed) - {F.TOTALS}
            if m.get(n) != m.confirmed.get(n, {})
        }
        required = self.blind or "table" in m.authors.values()
        if required and m.paper is None:
            return False
        paper = m.paper or {}

        def decided(n: int) -> bool:
            stamps = (F.stamp(paper.get(n, {})), F.stamp(m.get(n)))
            return m.paper is not None and m.decisions.get(n) == stamps

        if any(
            m.paper is not None and paper.get(n, {}) != m.get(n) and not decided(n) for n in changed
        ):
            return False
        for n in changed:
            by_paper = (
                m.paper is not None
                and paper.get(n, {}) == m.get(n)
                and (m.paper_by != m.authors.get(n))
            )
            if not (decided(n) or by_paper) and m.authors.get(n) == desk:
                return False
        return True

    @rule(
        desk=st.sampled_from(DESKS),
        number=NUMBERS,
        bid=st.sampled_from(VALID_BIDS),
        change=st.booleans(),
    )
    def desk_types_the_paper_blind(self, desk: str, number: int, bid: int, change: bool) -> None:
        """The four-eyes check by the paper: the sheet's games as the paper says them (one of
        them with another bid, sometimes) -- its own record, no new version of the sheet."""
        m = self.model
        paper = dict(m.games())
        if change:
            paper[number] = fields_of(number, bid)
        before = m.snapshot()
        if not m.games():
            with pytest.raises(DeskError, match="noch kein Spiel"):
                paper_check.record_paper(self.table(), self.users[desk], entries_of(paper))
            return
        paper_check.record_paper(self.table(), self.users[desk], entries_of(paper))
        m.paper, m.paper_by = paper, desk
        assert m.snapshot() == before  # the paper is its own record: no new version

    @precondition(lambda self: self.model.paper is not None)
    @rule(
        desk=st.sampled_from(DESKS),
        number=NUMBERS,
        take_paper=st.booleans(),
        differing=st.booleans(),
    )
    def desk_decides_paper_or_sheet(
        self, desk: str, number: int, take_paper: bool, differing: bool
    ) -> None:
        """For one game (often one where paper and sheet differ): the paper counts, or the
        sheet does."""
        m = self.model
        paper_games = m.paper or {}
        differs = [n for n in range(1, GAMES + 1) if paper_games.get(n, {}) != m.get(n)]
        if differing and differs:
            number = differs[number % len(differs)]
        paper = (m.paper or {}).get(number, {})
        stored = m.get(number)
        correcting = take_paper and m.status == SheetStatus.CONFIRMED
        games_after = {**m.games(), number: paper}
        valid_after = len([f for f in games_after.values() if f]) == GAMES and all(
            valid_game(f, n) for n, f in games_after.items() if f
        )
        before = m.snapshot()

        def send() -> None:
            paper_check.take(
                self.table(),
                self.users[desk],
                number,
                "paper" if take_paper else "sheet",
                F.stamp(paper),
                F.stamp(stored),
            )

        if paper == stored:
            with pytest.raises(DeskError, match="nichts zu entscheiden"):
                send()
            return
        if self.correction_refused(correcting, valid_after, desk, send):
            return
        event("paper or sheet decided")
        send()
        if take_paper:
            self.write({number: paper}, m.paper_by)
        m.decisions[number] = (F.stamp(paper), F.stamp(m.get(number)))
        self.done(before)

    # --- tools and rounds -------------------------------------------------------------------
    @rule()
    def simulation(self) -> None:
        """``manage.py simulate`` fills only sheets with no game that nobody is typing, and is
        audited as the simulation."""
        m = self.model
        typing = any(d.draft for d in self.desks.values())
        before = m.snapshot()
        round_one = Round.objects.get(pk=self.tables[0].round_id)
        filled = simulate_round(round_one, self.users["orga"], seed=self.steps, confirm=False)
        assert filled == (0 if m.games() or typing else 1)
        event(f"simulation filled {filled}")
        if filled:
            stored = self.sheet()
            assert stored is not None
            self.write({n: dict(f) for n, f in F.parts(stored.entries).items()}, "sim")
            self.done(before)
            entry = AuditLog.objects.filter(object_type="ScoreSheet").latest("id")
            assert entry.user is None and entry.after["by"] == "simulation"

    @rule()
    def round_one_starts(self) -> None:
        round_one = Round.objects.get(pk=self.tables[0].round_id)
        started = change_round(round_one, RoundChange.START, self.users["kasse"])
        assert started != self.model.round_started
        self.model.round_started = True

    @rule(despite=st.booleans())
    def next_round_starts(self, despite: bool) -> None:
        m = self.model
        round_two = Round.objects.get(pk=self.tables[1].round_id)
        if not despite and not m.next_started and m.status != SheetStatus.CONFIRMED:
            with pytest.raises(EarlierRoundsOpen) as asked:  # asked first, the tables named
                change_round(round_two, RoundChange.START, self.users["orga"])
            assert asked.value.open_by_round == {1: [1]}
            return
        started = change_round(
            round_two, RoundChange.START, self.users["orga"], despite_open=despite
        )
        assert started != m.next_started
        m.next_started = True

    # --- what must hold after every step -----------------------------------------------------
    @invariant()
    def the_sheet_is_the_model(self) -> None:
        if not hasattr(self, "model"):
            return
        self.steps += 1
        OUTCOMES["steps"] += 1
        m, sheet = self.model, self.sheet()
        if sheet is None:
            assert not m.parts and m.version == 0
        else:
            assert F.parts(sheet.entries) == m.parts
            assert (sheet.status, sheet.version) == (m.status, m.version)
            assert Game.objects.filter(sheet=sheet).count() == sum(
                1 for n, f in m.games().items() if valid_game(f, n)
            )
        entry = TableEntry.objects.filter(table=self.tables[0]).first()
        assert (entry is not None and entry.confirmed_at is not None) == m.table_confirmed
        round_one = Round.objects.get(pk=self.tables[0].round_id)
        assert round_one.locked == m.round_started
        assert (round_one.finished_at is not None) == (m.status == SheetStatus.CONFIRMED)
        assert Round.objects.get(pk=self.tables[1].round_id).locked == m.next_started

    @invariant()
    def the_log_replays_to_the_sheet(self) -> None:
        if not hasattr(self, "model"):
            return
        sheet = self.sheet()
        if sheet is None:
            return
        entries: dict[str, str] = {}
        status, version = SheetStatus.DRAFT, 0
        log = AuditLog.objects.filter(object_type="ScoreSheet", object_id=str(sheet.pk))
        for entry in log.order_by("id"):
            for part, fields in entry.after["games"].items():
                entries = F.with_part(entries, int(part), fields)
            new = entry.after["version"]
            assert new in (version, version + 1)  # one version a change (a paper record: none)
            status, version = entry.after["status"], new
        assert (entries, status, version) == (sheet.entries, sheet.status, sheet.version)


class FourEyes(SheetProtocol):
    double_check = True


class FourEyesBlind(SheetProtocol):
    double_check = blind = True


MACHINES = (SheetProtocol, FourEyes, FourEyesBlind)


def run(machine: type[SheetProtocol], steps: int, examples: int) -> None:
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=examples,
            stateful_step_count=steps,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )


@pytest.mark.parametrize("machine", MACHINES, ids=lambda m: m.__name__)
def test_the_writers_of_a_sheet_against_the_model_briefly(machine):
    run(machine, steps=20, examples=2)


@pytest.mark.slow
def test_the_writers_of_a_sheet_against_the_model_for_thousands_of_steps():
    OUTCOMES.clear()
    # the runs are random (a new exploration every time); a run that happened not to reach an
    # outcome below (one run in some ten missed a stale desk save) is followed by another, at
    # most three in all, so that the check of what was exercised does not fail by chance
    for _round in range(3):
        for machine in MACHINES:
            run(machine, steps=60, examples=20)
        if not _missing():
            break
    print(sorted(OUTCOMES.items()))
    assert OUTCOMES["steps"] >= 2000
    assert not _missing(), (_missing(), sorted(OUTCOMES.items()))


EXERCISED = (
    "phone: applied",
    "phone: stale, refused",
    "phone: locked",
    "table confirms",
    "desk confirms: True (four eyes True)",
    "desk confirms: True (four eyes False)",
    "desk confirms: False (four eyes True)",
    "paper or sheet decided",
    "simulation filled 1",
)


def _missing() -> list[str]:
    """What the long run must have exercised and has not (yet)."""
    missing = [outcome for outcome in EXERCISED if not OUTCOMES[outcome]]
    if not any(o.startswith("desk: stale") for o in OUTCOMES):
        missing.append("desk: stale")
    return missing


# --- the list of the issue, one example each -------------------------------------------------


@pytest.fixture
def started(seated):
    from tests.support import start_round

    start_round(seated.round_set.get(number=1))
    return seated


def phone_send(table, number, bid=200, base=""):
    return table_entry.save_game(
        table_entry.table_by_token(table.entry_token),
        number,
        {**GAME, "bid": bid},
        uuid.uuid4().hex,
        base,
    )


def test_simulate_fills_only_sheets_nobody_typed_and_is_audited_as_the_simulation(
    started, orga, kasse
):
    from django.core.management import call_command

    started.double_check = True
    started.save()
    tables = list(started.round_set.get(number=1).tables.order_by("number"))
    waiting, typed, typing = tables[0], tables[1], tables[2]
    save_sheet(waiting, fields_of_sheet(12), orga, 0)  # complete, waits for the second person
    save_sheet(typed, fields_of_sheet(3), kasse, 0)  # a draft with 3 games
    results.keep_draft(typing, kasse, fields_of_sheet(2), seq=5, base_version=0)  # being typed
    before = {
        t.pk: ScoreSheet.objects.filter(table=t).values_list("entries", flat=True).first()
        for t in tables[:3]
    }
    call_command("simulate", "--round", "1", "--tournament", started.slug, stdout=io.StringIO())
    for t in tables[:3]:
        after = ScoreSheet.objects.filter(table=t).values_list("entries", flat=True).first()
        assert after == before[t.pk], f"table {t.number}: typed work was replaced"
    filled = ScoreSheet.objects.filter(table__in=tables[3:])
    assert filled.count() == len(tables) - 3
    log = AuditLog.objects.filter(
        object_type="ScoreSheet", object_id__in=[str(s.pk) for s in filled]
    )
    assert log.exists() and not log.exclude(user=None).exists()
    assert {entry.after["by"] for entry in log} == {"simulation"}


def fields_of_sheet(games: int) -> dict[str, str]:
    return entries_of({n: fields_of(n, 200) for n in range(1, games + 1)})


def test_the_tables_own_record_holds_only_what_its_phone_sent(started, orga):
    table = three_table(started)
    for n in (1, 2, 3, 4):
        phone_send(table, n)
    sheet = ScoreSheet.objects.get(table=table)
    corrected = {**sheet.entries, "g3-bid": "190", "g4-bid": "180"}
    save_sheet(table, corrected, orga, sheet.version)  # the desk corrects games 3 and 4
    phone_send(table, 5)  # the phone goes on
    record = TableEntry.objects.get(table=table).entries
    assert bids_of(record) == {1: 200, 2: 200, 3: 200, 4: 200, 5: 200}  # only the phone's
    stored = ScoreSheet.objects.get(table=table)
    assert bids_of(stored.entries) == {1: 200, 2: 200, 3: 190, 4: 180, 5: 200}
    assert stored.game_sources == {
        "1": "table",
        "2": "table",
        "3": "desk",
        "4": "desk",
        "5": "table",
    }


def test_the_tables_confirmation_is_a_version_and_the_log_says_it_in_words(
    started, orga, desk_client
):
    table = three_table(started)
    for n in range(1, 13):
        phone_send(table, n)
    numbers = [c.start_number for c in table_entry.opponents(table)]
    table_entry.confirm_at_table(table_entry.table_by_token(table.entry_token), numbers, 12)
    sheet = ScoreSheet.objects.get(table=table)
    assert (sheet.version, sheet.status) == (13, SheetStatus.TABLE)
    page = desk_client.get(
        reverse("desk:audit", args=[started.slug]), {"type": "ScoreSheet", "id": sheet.pk}
    ).content.decode()
    assert "am Tisch bestätigt" in page and "vom Tisch-Handy" in page
    assert "Spiel 12: neu: gespielt · Spielmacher 1 · Reizwert 200" in page


def bids_of(entries) -> dict[int, int]:
    return {n: int(f[F.game_field(n, "bid")]) for n, f in F.parts(entries).items() if n != F.TOTALS}


def test_the_organiser_reopens_a_sheet_the_table_confirmed_by_mistake(started, orga, desk_client):
    table = three_table(started)
    for n in range(1, 13):
        phone_send(table, n)
    numbers = [c.start_number for c in table_entry.opponents(table)]
    table_entry.confirm_at_table(table_entry.table_by_token(table.entry_token), numbers, 12)
    with pytest.raises(TableLocked):
        phone_send(table, 12, bid=190, base=F.game_stamps(ScoreSheet.objects.get().entries)[12])
    page = desk_client.get(reverse("desk:sheet", args=[started.slug, table.pk])).content.decode()
    assert 'id="reopen"' in page
    reopen = reverse("desk:sheet_reopen", args=[started.slug, table.pk])
    assert desk_client.post(reopen, {"version": "13"}).status_code == 302
    sheet = ScoreSheet.objects.get()
    assert (sheet.status, sheet.version) == (SheetStatus.DRAFT, 14)
    assert TableEntry.objects.get(table=table).confirmed_at is None
    phone_send(table, 12, bid=190, base=F.game_stamps(sheet.entries)[12])  # the table goes on
    assert ScoreSheet.objects.get().entries["g12-bid"] == "190"
    assert AuditLog.objects.filter(action="sheet.reopen").count() == 1
