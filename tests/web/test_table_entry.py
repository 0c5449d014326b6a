"""Tables enter their own games through a link of their own: nothing but their table, each game
checked by the engine and kept exactly once, the opponents' confirmation, the desk's board, the
links' security (unguessable, re-issued, switched off, rate-limited) and their command."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from binokel_tournament.models import (
    AuditLog,
    PartyResult,
    ScoreSheet,
    SheetStatus,
    Table,
    TableEntry,
    TableKind,
)
from binokel_tournament.services.evening.standings import compute_standings
from binokel_tournament.services.sheets import sheet_fields as F
from binokel_tournament.services.sheets.paper_check import record_paper
from binokel_tournament.services.sheets.table_entry import chairs, opponents
from binokel_tournament.services.sheets.writer import save_sheet
from tests.support import start_round

from .phones import GAME, post, three_table, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(seated):
    """Round 1 of the tournament has started: its table links take games."""
    start_round(seated.round_set.get(number=1), None)
    return seated


def send_game(client, table, number, game=GAME, op=None, base=""):
    body = {"op": op or f"op-{number}", "number": number, "base": base, "game": game}
    return post(client, table, "game", body)


def test_every_table_has_an_unguessable_link_of_its_own(seated):
    tables = list(Table.objects.filter(round__tournament=seated))
    tokens = {t.entry_token for t in tables}
    assert len(tokens) == len(tables)
    assert all(len(token) >= 22 for token in tokens)  # 128 random bits


def test_the_link_opens_its_table_and_no_other(client, seated):
    table = three_table(seated)
    other = three_table(seated, number=2)
    page = client.get(url(table)).content.decode()
    state = json.loads(
        page.split('id="table-state" type="application/json">')[1].split("</script>")[0]
    )
    assert state["table"] == table.number and state["round"] == 1
    names = {s.entrant.display_name for s in table.seats.all()}
    assert {c["name"] for c in state["columns"]} == names
    # a game sent through this link lands on this table's sheet only
    assert send_game(client, table, 1).status_code == 200
    assert ScoreSheet.objects.get().table == table
    assert not ScoreSheet.objects.filter(table=other).exists()


def test_unknown_reissued_and_switched_off_links_open_nothing(client, seated, orga):
    table = three_table(seated)
    assert client.get("/tisch/abcdefghijklmnopqrstuv/").status_code == 404
    old = table.entry_token
    from binokel_tournament.services.sheets.table_entry import reissue_link

    new = reissue_link(table, orga)
    assert client.get(f"/tisch/{old}/").status_code == 404
    assert client.get(f"/tisch/{new}/").status_code == 200
    assert post(client, table, "game", {"op": "x", "number": 1, "game": GAME}).status_code == 200
    seated.table_entry = False
    seated.save()
    assert client.get(f"/tisch/{new}/").status_code == 404
    assert (
        client.post(f"/tisch/{new}/spiel/", "{}", content_type="application/json").status_code
        == 404
    )


def test_a_helper_may_not_reissue_a_link(seated, kasse):
    from binokel_tournament.services.access import NotAllowed
    from binokel_tournament.services.sheets.table_entry import reissue_link

    with pytest.raises(NotAllowed):
        reissue_link(three_table(seated), kasse)


@override_settings(TABLE_GUESS_LIMIT=5, TABLE_LINK_LIMIT=8)
def test_links_are_rate_limited(client, seated):
    codes = [client.get(f"/tisch/guess{i:018d}/").status_code for i in range(8)]
    assert codes[:5] == [404] * 5 and codes[5:] == [429] * 3
    table = three_table(seated)
    other_device = type(client)(REMOTE_ADDR="10.0.0.9")
    codes = [other_device.get(url(table, "state")).status_code for _i in range(10)]
    assert codes[:8] == [200] * 8 and codes[8:] == [429, 429]


def test_the_table_checks_who_sits_where(client, seated):
    table = three_table(seated)
    seated_numbers = [c.start_number for c in chairs(table)]
    wrong_table = three_table(seated, number=1)
    other = Table.objects.filter(round=table.round).exclude(pk=table.pk).first()
    stranger = other.seats.first().entrant.start_number
    response = post(client, table, "seats", {"numbers": [stranger, *seated_numbers[1:]]})
    assert response.status_code == 400
    problem = response.json()["problems"][0]
    assert f"Tisch {other.number}" in problem and str(stranger) in problem
    swapped = [seated_numbers[1], seated_numbers[0], seated_numbers[2]]
    problems = post(client, table, "seats", {"numbers": swapped}).json()["problems"]
    assert "Platz 2" in problems[0]
    assert not TableEntry.objects.filter(table=wrong_table, seats_checked_at__isnull=False)
    response = post(client, table, "seats", {"numbers": seated_numbers})
    assert response.status_code == 200 and response.json()["state"]["seats_checked"]


def test_a_game_is_checked_scored_and_kept_exactly_once(client, seated):
    table = three_table(seated)
    check = post(client, table, "check", {"number": 1, "game": GAME, "seq": 3}).json()
    assert check["game"]["points"] == [210, 80, 40] and check["seq"] == 3
    assert not ScoreSheet.objects.exists()  # a check keeps nothing
    first = send_game(client, table, 1, op="phone-1")
    again = send_game(client, table, 1, op="phone-1")  # the reply was lost: sent again
    assert first.status_code == again.status_code == 200 and again.json()["repeated"]
    sheet = ScoreSheet.objects.get()
    assert sheet.version == 1 and sheet.game_sources == {"1": "table"}
    assert sheet.entered_by is None
    points = sorted(PartyResult.objects.values_list("points", flat=True))
    assert points == [40, 80, 210]
    state = first.json()["state"]
    assert state["games"][0]["points"] == [210, 80, 40] and state["entered"] == 1
    assert AuditLog.objects.filter(action="sheet.table").count() == 1


def test_a_game_with_errors_is_refused_with_the_engines_messages_and_nothing_kept(client, seated):
    table = three_table(seated)
    bad = {
        **GAME,
        "bid": 205,
        "columns": [{"meld": 60, "tricks": 150}, {"meld": 25, "tricks": 58}, {"tricks": 40}],
    }
    response = send_game(client, table, 1, game=bad)
    assert response.status_code == 400
    messages = response.json()["messages"]
    assert "bid" in messages and "columns.2.meld" in messages and "columns" in messages
    assert not ScoreSheet.objects.exists()  # not even an empty sheet: the whole save rolled back


def test_the_dealer_and_sitting_out_come_from_the_engine(client, db, orga):
    from binokel_tournament.models import Mode
    from binokel_tournament.services.evening.seating import generate_seating

    from .support import make_tournament

    t = make_tournament(singles=4, pairs=0, modes=[Mode.SINGLES])
    generate_seating(t.competitions.get())
    start_round(t.round_set.get(number=1), None)
    table = t.round_set.get(number=1).tables.get()
    assert table.kind == TableKind.FOUR_SITOUT
    state = client.get(url(table, "state")).json()["state"]
    assert [g["sits_out"] for g in state["games"][:5]] == [1, 2, 3, 4, 1]
    assert state["games"][1]["dealer_name"] == chairs(table)[1].name


def test_the_opponents_confirm_and_then_only_the_desk_changes_it(client, seated, orga, kasse):
    seated.double_check = True
    seated.save()
    table = three_table(seated)
    for n in range(1, 12):
        assert send_game(client, table, n).status_code == 200
    numbers = [c.start_number for c in opponents(table)]
    early = post(client, table, "confirm", {"numbers": numbers, "version": 11})
    assert early.status_code == 400 and "12" in early.json()["message"]
    assert send_game(client, table, 12).status_code == 200
    scorer = next(c.start_number for c in chairs(table) if c.keeps_score)
    wrong = post(client, table, "confirm", {"numbers": [scorer, numbers[0]], "version": 12})
    assert wrong.status_code == 400
    right = post(client, table, "confirm", {"numbers": numbers, "version": 12})
    assert right.status_code == 200 and right.json()["state"]["locked"]
    sheet = ScoreSheet.objects.get()
    assert sheet.status == SheetStatus.TABLE
    late = send_game(client, table, 3, game={**GAME, "bid": 150})
    assert late.status_code == 409 and late.json()["locked"]
    # the four-eyes check of a phone table is the paper, typed blind; then any desk person
    # confirms (the table entered it)
    outcome = save_sheet(table, sheet.entries, kasse, expected_version=sheet.version, confirm=True)
    assert not outcome.confirmed and "Papierzettel blind" in outcome.notice
    record_paper(table, kasse, sheet.entries)
    outcome = save_sheet(table, sheet.entries, kasse, expected_version=sheet.version, confirm=True)
    assert outcome.confirmed
    assert ScoreSheet.objects.get().status == SheetStatus.CONFIRMED


def test_standings_count_table_confirmed_sheets_only_if_the_desk_says_so(client, seated):
    table = three_table(seated)
    for n in range(1, 13):
        send_game(client, table, n)
    numbers = [c.start_number for c in opponents(table)]
    post(client, table, "confirm", {"numbers": numbers, "version": 12})
    competition = table.competition
    assert max(r.total for r in compute_standings(competition).rows) == 0
    seated.provisional_table_sheets = True
    seated.save()
    competition.refresh_from_db()
    competition.tournament.refresh_from_db()
    standings = compute_standings(competition)
    assert standings.from_tables and max(r.total for r in standings.rows) == 210 * 12


def test_the_table_calls_the_desk_and_the_board_shows_it(client, desk_client, seated):
    table = three_table(seated)
    answer = post(client, table, "call", {})
    assert answer.status_code == 200
    # the call's own answer says it is there (the phone turns "gerufen" on it)
    assert answer.json()["state"]["help"] is True and not answer.json()["state"]["help_coming"]
    send_game(client, table, 1)
    board = desk_client.get(reverse("desk:board", args=[seated.slug]) + "?round=1")
    html = board.content.decode()
    row = html.split(f'id="board-{table.number}"')[1].split("</tr>")[0]
    assert "⚑" in row and "1/12" in row
    done = reverse("desk:table_help_done", args=[seated.slug, table.pk])
    assert desk_client.post(done).status_code == 302
    row = desk_client.get(reverse("desk:board", args=[seated.slug]) + "?round=1").content.decode()
    assert "⚑" not in row.split(f'id="board-{table.number}"')[1].split("</tr>")[0]


def test_the_board_shows_where_the_paper_differs_from_the_phone(client, desk_client, seated, orga):
    seated.double_check = True
    seated.save()
    table = three_table(seated)
    for n in (1, 2, 3):
        send_game(client, table, n)
    sheet = ScoreSheet.objects.get()
    typed = dict(sheet.entries)  # the desk types the paper blind: game 2 was bid 220 there
    typed[F.game_field(2, "bid")] = "220"
    record_paper(table, orga, typed)
    board = desk_client.get(reverse("desk:board", args=[seated.slug]) + "?round=1")
    row = board.content.decode().split(f'id="board-{table.number}"')[1].split("</tr>")[0]
    assert "Papier weicht ab: Spiel 2" in row
    assert AuditLog.objects.filter(action="sheet.paper").count() == 1  # its own record
    assert ScoreSheet.objects.get().entries == sheet.entries  # the sheet itself is untouched


def test_the_table_page_works_in_english(client, seated):
    table = three_table(seated)
    client.cookies["django_language"] = "en"
    html = client.get(url(table)).content.decode()
    assert 'lang="en"' in html and "Call the tournament desk" in html
    strings = json.loads(html.split('id="table-strings" type="application/json">')[1].split("<")[0])
    assert strings["call"] == "Call the tournament desk"
    refused = send_game(client, table, 1, game={**GAME, "bid": 7})
    assert refused.status_code == 400
    messages = " ".join(m for ms in refused.json()["messages"].values() for m in ms)
    assert messages and "Reizwert" not in messages  # the engine answers in English too


def test_the_desk_shows_a_tables_link_and_qr_code(desk_client, seated):
    table = three_table(seated)
    page = desk_client.get(reverse("desk:table_link", args=[seated.slug, table.pk])).content
    assert table.entry_token.encode() in page and b"<svg" in page


def test_table_links_prints_every_link_of_a_round_as_json(seated):
    out = io.StringIO()
    call_command(
        "table_links",
        "--tournament",
        seated.slug,
        "--round",
        "2",
        "--base-url",
        "http://192.168.1.20:8000",
        stdout=out,
    )
    data = json.loads(out.getvalue())
    tables = list(seated.round_set.get(number=2).tables.order_by("number"))
    assert data == {
        "round": 2,
        "tables": [
            {"table": t.number, "url": f"http://192.168.1.20:8000/tisch/{t.entry_token}/"}
            for t in tables
        ],
    }


@pytest.mark.parametrize("name", ["seats", "check", "game", "confirm"])
def test_deeply_nested_json_is_refused_with_a_message_not_a_500(client, seated, name):
    # issue 36 item 16: "[" * 5000 was a RecursionError (500); 12 levels inside the game were
    # read and echoed
    table = three_table(seated)
    for body in (
        "[" * 5000 + "]" * 5000,
        '{"number": 1, "seq": ' + "[" * 2000 + "]" * 2000 + "}",
        json.dumps({"number": 1, "numbers": [1, 2, 3], "game": {"bid": [[[[[[[[[[[[1]]]]]]]]]]]]}}),
    ):
        response = client.post(url(table, name), body, content_type="application/json")
        assert response.status_code == 400, (name, response.status_code)
        assert response.json()["message"] == "Die Anfrage ist zu tief verschachtelt."
    assert not ScoreSheet.objects.filter(table=table).exists()
