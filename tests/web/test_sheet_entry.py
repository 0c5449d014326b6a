"""Desk entry that loses nothing: the typist's working draft (kept while typing, private, never a
version), saves recognised when retried, failed saves that keep the page, and a sheet form that
answers anything thrown at it without a server error."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from binokel_tournament.models import AuditLog, ScoreSheet, SheetDraft, TableKind
from binokel_tournament.services.sheets import sheet_fields as F
from binokel_tournament.services.sheets.results import keep_draft
from binokel_tournament.services.sheets.writer import save_sheet

from .sheets import full_three_table, game_entries

pytestmark = pytest.mark.django_db

JSON_SAVE = {"HTTP_X_SHEET_SAVE": "1"}


def three_table(tournament):
    return tournament.round_set.get(number=1).tables.filter(kind=TableKind.THREE).first()


def urls(tournament, table):
    args = [tournament.slug, table.pk]
    return (
        reverse("desk:sheet", args=args),
        reverse("desk:sheet_check", args=args),
        reverse("desk:sheet_discard", args=args),
    )


# --- the working draft ------------------------------------------------------------------------
def test_the_live_check_keeps_what_is_typed_as_the_typists_draft(desk_client, seated, orga):
    table = three_table(seated)
    _page, check, _discard = urls(seated, table)
    data = {**full_three_table(3), "version": "0", "draft_seq": "1000"}
    response = desk_client.post(check, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["X-Sheet-Seq"] == "1000"
    draft = SheetDraft.objects.get(table=table, user=orga)
    assert draft.entries == F.clean(full_three_table(3)) and draft.seq == 1000
    assert "gesichert" in response.content.decode()
    # no version, no audit entry: a draft is not a save
    assert not ScoreSheet.objects.exists()
    assert not AuditLog.objects.filter(action__startswith="sheet").exists()


def test_an_older_autosave_arriving_late_never_replaces_a_newer_one(seated, orga):
    table = three_table(seated)
    keep_draft(table, orga, F.clean(full_three_table(5)), seq=20, base_version=0)
    keep_draft(table, orga, F.clean(full_three_table(2)), seq=19, base_version=0)
    draft = SheetDraft.objects.get()
    assert draft.seq == 20 and len([k for k in draft.entries if k.endswith("-bid")]) == 5


def test_drafts_are_private_to_each_desk_person(seated, orga, kasse):
    table = three_table(seated)
    keep_draft(table, orga, F.clean(full_three_table(2)), seq=5, base_version=0)
    keep_draft(table, kasse, F.clean(full_three_table(4)), seq=3, base_version=0)
    assert SheetDraft.objects.count() == 2


def test_reopening_the_sheet_shows_the_draft_and_it_can_be_thrown_away(desk_client, seated, orga):
    table = three_table(seated)
    page, _check, discard = urls(seated, table)
    save_sheet(table, full_three_table(2), orga, expected_version=0)
    keep_draft(table, orga, F.clean({**full_three_table(2), "g2-bid": "250"}), 7, 1)
    html = desk_client.get(page).content.decode()
    assert 'id="restored"' in html and 'name="g2-bid" value="250"' in html
    assert 'data-draft-seq="7"' in html
    # the autosave line says from the start that this state is on the server, not only in the
    # browser (as it says after every check)
    assert re.search(r'id="autosave"[^>]*data-state="draft"', html)
    assert "Zwischenstand gesichert" in html
    response = desk_client.post(discard)
    assert response.status_code == 302 and not SheetDraft.objects.exists()
    html = desk_client.get(page).content.decode()
    assert 'id="restored"' not in html and 'name="g2-bid" value="200"' in html
    assert 'data-state="loaded"' in html and "Zwischenstand gesichert" not in html


def test_a_draft_typed_on_an_older_version_is_saved_against_that_version(
    desk_client, seated, orga, kasse
):
    table = three_table(seated)
    page, _check, _discard = urls(seated, table)
    save_sheet(table, full_three_table(2), orga, expected_version=0)
    keep_draft(table, orga, F.clean(full_three_table(3)), 9, base_version=1)
    save_sheet(table, full_three_table(4), kasse, expected_version=1)  # version 2 meanwhile
    html = desk_client.get(page).content.decode()
    assert 'name="version" value="1"' in html and "Version 2" in html
    response = desk_client.post(page, {**full_three_table(3), "version": "1", "draft": "1"})
    assert response.status_code == 409  # both versions are shown, nothing is overwritten


def test_saving_turns_the_draft_into_a_version(desk_client, seated, orga):
    table = three_table(seated)
    page, _check, _discard = urls(seated, table)
    keep_draft(table, orga, F.clean(full_three_table(3)), 9, base_version=0)
    desk_client.post(page, {**full_three_table(3), "version": "0", "draft": "1"})
    assert ScoreSheet.objects.get().version == 1 and not SheetDraft.objects.exists()


def test_a_draft_equal_to_the_saved_sheet_is_not_kept(seated, orga):
    table = three_table(seated)
    save_sheet(table, full_three_table(2), orga, expected_version=0)
    assert keep_draft(table, orga, F.clean(full_three_table(2)), 11, base_version=1) is None
    assert not SheetDraft.objects.exists()


# --- saves that are retried, fail, or come from a broken form ---------------------------------
def test_a_retried_save_is_recognised_and_not_done_twice(desk_client, seated):
    table = three_table(seated)
    page, _check, _discard = urls(seated, table)
    data = {**full_three_table(12), "version": "0", "confirm": "1", "submission": "ab12cd"}
    first = desk_client.post(page, data, **JSON_SAVE)
    assert first.status_code == 200 and first.json()["ok"]
    # the reply was lost; the desk presses again with the same page (version 0 is now stale)
    again = desk_client.post(page, data, **JSON_SAVE)
    assert again.status_code == 200 and again.json()["ok"], again.content
    sheet = ScoreSheet.objects.get()
    assert sheet.version == 1
    assert AuditLog.objects.filter(action="sheet.confirm").count() == 1
    # the same page with other values is another save (here: a conflict with version 1)
    changed = {**data, **game_entries(12, 2, 250, [40, 100, 20], [65, 143, 42])}
    assert desk_client.post(page, changed, **JSON_SAVE).status_code == 409


def test_a_conflict_answers_the_page_with_the_other_version(desk_client, seated, kasse):
    table = three_table(seated)
    page, _check, _discard = urls(seated, table)
    # kasse saved games 1 and 2 with another bid while this page was open on the empty sheet
    theirs = {**full_three_table(2), "g1-bid": "190", "g2-bid": "190"}
    save_sheet(table, theirs, kasse, expected_version=0)
    response = desk_client.post(
        page, {**full_three_table(5), "version": "0", "opened": "", "draft": "1"}, **JSON_SAVE
    )
    assert response.status_code == 409
    answer = response.json()
    assert answer["ok"] is False and "Spiele 1, 2" in answer["message"]
    assert answer["version"] == 1 and 'id="conflict"' in answer["conflict"]
    assert "kasse" in answer["conflict"] and 'name="keep-g1"' in answer["conflict"]
    assert 'name="keep-g3"' not in answer["conflict"]  # games 3 to 5 were nobody else's
    assert ScoreSheet.objects.get().version == 1  # nothing of the refused save was written


def test_a_refused_save_answers_with_the_reason(desk_client, seated):
    table = three_table(seated)
    page, _check, _discard = urls(seated, table)
    response = desk_client.post(page, {"version": "0", "draft": "1"}, **JSON_SAVE)
    assert response.status_code == 400
    assert "nichts eingetragen" in response.json()["message"]


# (a NUL character never reaches the view: the middleware answers any such request with a 400)
@pytest.mark.parametrize("version", ["x1", "", "-1", "1.0", "¹", "9" * 30])
def test_a_tampered_or_stale_form_gets_a_clear_message_and_keeps_the_typing(
    desk_client, seated, version
):
    table = three_table(seated)
    page, _check, _discard = urls(seated, table)
    response = desk_client.post(page, {**full_three_table(2), "version": version, "draft": "1"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "veraltet oder beschädigt" in html
    assert 'name="g2-bid" value="200"' in html
    assert not ScoreSheet.objects.exists()


def test_the_scorers_differing_total_is_explained_on_the_page(desk_client, seated, orga):
    table = three_table(seated)
    page, _check, _discard = urls(seated, table)
    entries = {**full_three_table(), "written-total-c1": "2500"}
    save_sheet(table, entries, orga, expected_version=0)
    html = desk_client.get(page).content.decode()
    assert "Listenführer 2.500, berechnet 2.520" in html  # one way of writing numbers


# --- anything thrown at the sheet form ---------------------------------------------------------
FIELD_NAMES = st.one_of(
    st.builds(F.game_field, st.integers(1, 13), st.sampled_from(F.GAME_FIELDS)),
    st.builds(
        F.column_field,
        st.integers(1, 13),
        st.integers(1, 5),
        st.sampled_from(F.COLUMN_FIELDS),
    ),
    st.builds(F.total_field, st.integers(1, 5)),
    st.text(max_size=12),
)
HOSTILE = st.one_of(
    st.integers(-(10**12), 10**12).map(str),
    st.floats(allow_nan=True).map(str),
    st.sampled_from(
        [
            "",
            " ",
            "on",
            "played",
            "durch",
            "conceded",
            "²",
            "١٢",
            "1e9",
            "0x10",
            "<b>x</b>",
            "'; DROP TABLE x;--",
            "\x00",
            "9" * 40,
            "-0",
            "１２",
        ]
    ),
    st.text(max_size=20),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.dictionaries(FIELD_NAMES, HOSTILE, max_size=25),
    version=HOSTILE,
    action=st.sampled_from(["draft", "confirm", "check"]),
)
def test_the_sheet_answers_any_post_without_a_server_error(
    desk_client, seated, data, version, action
):
    table = three_table(seated)
    page, check, _discard = urls(seated, table)
    post = {**data, "version": version}
    nul = any("\x00" in text for pair in post.items() for text in pair)  # refused before views
    if action == "check":
        response = desk_client.post(check, {**post, "draft_seq": version}, HTTP_HX_REQUEST="true")
        assert response.status_code == (400 if nul else 200)
    else:
        post[action] = "1"
        response = desk_client.post(page, post)
        assert response.status_code in ((400,) if nul else (302, 400, 409))
    for sheet in ScoreSheet.objects.all():
        assert all(F.parse_name(key) for key in sheet.entries)  # only sheet fields are kept
        json.dumps(sheet.entries)


def test_the_games_of_stored_entries_are_those_of_every_field_name():
    names = [F.column_field(g, c, "meld") for g in (1, 7, 12) for c in (1, 2, 3)]
    names += [F.game_field(30, "kind"), F.game_field(4, "notrick"), F.total_field(2)]
    assert F.games_in(names) == {F.game_of(n) for n in names} - {None} == {1, 4, 7, 12, 30}
    assert F.games_in([F.total_field(1)]) == set() and F.games_in([]) == set()
