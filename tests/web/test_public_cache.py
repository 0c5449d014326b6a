"""Public pages for a hall full of phones (issue 24): a page is made once per change and kept
in the cache that all the server's workers share; it is never older than the last change it
shows, never carries one visitor's token or message to another, and works the same with
Redis."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from binokel_tournament.models import Mode
from binokel_tournament.services.server import public_cache
from binokel_tournament.services.sheets.writer import save_sheet
from tests.support import require

from .sheets import full_three_table

pytestmark = pytest.mark.django_db

KEPT = "X-Binokel-Page"


@pytest.fixture
def evening(seated, orga):
    table = seated.round_set.get(number=1).tables.filter(kind="three").order_by("number")[0]
    return seated, table, orga


def standings_url(t) -> str:
    return reverse("public:standings", args=[t.slug, Mode.SINGLES])


def page(response) -> str:
    """The page without the visitor's CSRF token (each request has one of its own)."""
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", response.content.decode())


def test_a_public_page_is_made_once_and_kept_until_what_it_shows_changes(client, evening):
    t, table, orga = evening
    t.show_interim = False  # only confirmed sheets count (the interim ranking: below)
    t.save()
    url = standings_url(t)
    save_sheet(table, full_three_table(3), orga, expected_version=0)  # the round starts
    first = client.get(url)
    assert first.status_code == 200 and first[KEPT] == "made"
    with CaptureQueriesContext(connection) as ctx:
        again = client.get(url)
    assert again[KEPT] == "kept" and len(ctx.captured_queries) == 0
    assert page(again) == page(first)
    # a draft typed at the desk shows on no public page: the page stays kept
    save_sheet(table, full_three_table(), orga, expected_version=1)
    assert client.get(url)[KEPT] == "kept"
    # the confirmation shows at once, on the very next request
    save_sheet(table, full_three_table(), orga, expected_version=2, confirm=True)
    after = client.get(url)
    assert after[KEPT] == "made" and page(after) != page(first)
    fresh = Client().get(url)  # what a page made from the database shows: the same
    assert page(fresh) == page(after)
    assert client.get(url)[KEPT] == "kept"


def test_while_another_request_makes_the_new_page_a_phone_gets_the_one_before_at_once(
    client, evening, monkeypatch
):
    """A hall of phones asks the moment a result changes the standings. While one request
    makes the new page, the others get the page before it at once (under its own ETag, so
    their next poll gets the new one), rather than all waiting for it; with no page before,
    they wait for the new one."""
    t, table, orga = evening
    t.show_interim = False
    t.save()
    url = standings_url(t)
    save_sheet(table, full_three_table(3), orga, expected_version=0)  # the round starts
    before = client.get(url)
    assert before[KEPT] == "made"
    save_sheet(table, full_three_table(), orga, expected_version=1, confirm=True)
    from binokel_tournament.services.server import cache_guard

    add = cache_guard.cache.add

    def someone_else_makes(key, *args, **kwargs):
        return False if key.endswith(":making") else add(key, *args, **kwargs)

    monkeypatch.setattr(cache_guard.cache, "add", someone_else_makes)
    meanwhile = client.get(url)
    assert meanwhile[KEPT] == "previous" and page(meanwhile) == page(before)
    assert meanwhile["ETag"] == before["ETag"] and meanwhile["Cache-Control"] == "no-cache"
    monkeypatch.undo()  # the other request is done (or gave up)
    after = client.get(url, headers={"If-None-Match": meanwhile["ETag"]})
    assert after.status_code == 200 and after[KEPT] == "made"
    assert page(after) != page(before) and after["ETag"] != before["ETag"]


def test_every_public_page_of_a_tournament_is_kept_and_renewed(client, evening):
    t, table, orga = evening
    urls = [
        reverse("public:home"),
        reverse("public:tournament", args=[t.slug]),
        reverse("public:standings", args=[t.slug, Mode.SINGLES]),
        reverse("public:beamer", args=[t.slug, Mode.SINGLES]),
        reverse("public:where", args=[t.slug]) + "?q=1",
        reverse("public:statistics", args=[t.slug]),
        reverse("public:subrankings", args=[t.slug, Mode.SINGLES]),
        reverse("public:prizes", args=[t.slug, Mode.SINGLES]),
    ]
    for url in urls:
        assert client.get(url)[KEPT] == "made", url
        assert client.get(url)[KEPT] == "kept", url
    t.name = "Neuer Name"
    t.save()  # a setting the pages show
    for url in urls:
        response = client.get(url)
        assert response[KEPT] == "made", url
        if url in urls[:4]:  # the pages that name the tournament
            assert "Neuer Name" in response.content.decode(), url


def test_a_kept_page_carries_each_visitors_own_csrf_token(evening):
    t, _table, _orga = evening
    url = standings_url(t)
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    assert first.get(url)[KEPT] == "made"
    page = second.get(url)
    assert page[KEPT] == "kept"
    html = page.content.decode()
    assert "binokel-kept-page-csrf-token" not in html
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)[1]
    assert token in html.split("hx-headers=")[1][:200]  # htmx sends the same token
    switched = second.post(
        reverse("set_language"), {"language": "en", "next": url, "csrfmiddlewaretoken": token}
    )
    assert switched.status_code == 302  # the visitor's own token: accepted
    english = second.get(url)
    assert english[KEPT] == "made" and '<html lang="en">' in english.content.decode()
    assert '<html lang="de">' in first.get(url).content.decode()  # one kept page per language


def test_organisers_and_visitors_with_a_message_get_a_page_of_their_own(client, evening, orga):
    t, _table, _orga = evening
    url = standings_url(t)
    client.get(url)
    client.force_login(orga)
    response = client.get(url)
    assert KEPT not in response and "Abmelden (orga)" in response.content.decode()


def test_a_change_after_the_generation_was_read_leaves_no_old_page_behind(client, evening):
    """The generation is read before the page is made: a page made from the old state is
    kept under the old generation, which nobody reads after the change."""
    t, table, orga = evening
    url = standings_url(t)
    scope = public_cache.competition_scope(t.slug, Mode.SINGLES)
    old = public_cache.generation(scope)
    save_sheet(table, full_three_table(), orga, expected_version=0, confirm=True)
    assert public_cache.generation(scope) != old
    assert client.get(url)[KEPT] == "made"


def test_a_result_renews_the_pages_that_show_it_and_only_those(client, evening):
    """A confirmed Einzel sheet: the Einzel standings and the tournament's pages are made
    anew; the Paare standings and the list of tournaments stay kept."""
    t, table, orga = evening
    save_sheet(table, full_three_table(3), orga, expected_version=0)  # the round starts
    renewed = [
        standings_url(t),
        reverse("public:beamer", args=[t.slug, Mode.PAIRS]),  # the evening's total
        reverse("public:statistics", args=[t.slug]),
    ]
    kept = [reverse("public:standings", args=[t.slug, Mode.PAIRS]), reverse("public:home")]
    for url in renewed + kept:
        client.get(url)
    save_sheet(table, full_three_table(), orga, expected_version=1, confirm=True)
    assert [client.get(url)[KEPT] for url in renewed] == ["made"] * len(renewed)
    assert [client.get(url)[KEPT] for url in kept] == ["kept"] * len(kept)


def test_a_flood_of_confirmations_renews_the_results_pages_at_most_every_few_seconds(
    client, evening, settings, monkeypatch
):
    """Ten desks confirm a sheet every other second: a confirmation after a quiet spell shows at
    once; one soon after waits for the next renewal, at most PUBLIC_RESULTS_SECONDS later, so
    the standings (and every player's place) are made that often, not once per sheet. The
    table's own scope (its players' pages) is renewed at once all the same."""
    settings.PUBLIC_RESULTS_SECONDS = 5
    clock = [2_000_000.0]
    monkeypatch.setattr(public_cache, "_now", lambda: clock[0])
    t, table, orga = evening
    t.show_interim = False
    t.save()
    other = t.round_set.get(number=1).tables.filter(kind="three").order_by("number")[1]
    url = standings_url(t)
    mine = public_cache.table_scope(t.slug, other.pk)
    save_sheet(table, full_three_table(), orga, expected_version=0, confirm=True)  # quiet before
    first = client.get(url)
    assert first[KEPT] == "made"
    clock[0] += 1
    before_mine = public_cache.generation(mine)
    save_sheet(other, full_three_table(), orga, expected_version=0, confirm=True)  # 1 s later
    assert public_cache.generation(mine) != before_mine  # its players' games: at once
    held = client.get(url)
    assert held[KEPT] == "kept" and page(held) == page(first)  # with the next renewal
    clock[0] += 3
    assert client.get(url)[KEPT] == "kept"  # 4 s after the last renewal
    clock[0] += 1
    due = client.get(url)  # 5 s: the second table's totals show
    assert due[KEPT] == "made" and page(due) != page(first)
    assert client.get(url)[KEPT] == "kept"
    clock[0] += 5  # a quiet spell: the next one shows at once
    third = t.round_set.get(number=1).tables.filter(kind="three").order_by("number")[2]
    save_sheet(third, full_three_table(), orga, expected_version=0, confirm=True)
    assert client.get(url)[KEPT] == "made"


def test_a_held_back_confirmation_is_noted_again_after_its_commit(
    db, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A held-back change noted before its transaction commits may be published (by a page
    asked for meanwhile) from the state before the commit: it is noted again after the commit,
    and that is published with the next renewal."""
    from django.db import transaction

    settings.PUBLIC_RESULTS_SECONDS = 5
    clock = [3_000_000.0]
    monkeypatch.setattr(public_cache, "_now", lambda: clock[0])
    scope = public_cache.competition_scope("stapel", Mode.SINGLES)
    public_cache.changed_soon(scope, within=5)  # a quiet spell: at once
    shown = public_cache.generation(scope)
    clock[0] += 1
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        public_cache.changed_soon(scope, within=5)  # held back
        clock[0] += 5
        during = public_cache.generation(scope)  # published before the commit
        assert during != shown
    assert public_cache.generation(scope) == during  # noted again, not yet due
    clock[0] += 5
    assert public_cache.generation(scope) not in (shown, during)


def test_a_confirmation_after_a_quiet_spell_is_shown_at_once_and_once(
    db, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A quiet hall (a club's evening, a sheet now and then): a confirmation renews the
    results at once, again at once after its commit, and leaves nothing waiting that would
    make every page anew once more a few seconds later."""
    from django.db import transaction

    settings.PUBLIC_RESULTS_SECONDS = 5
    clock = [5_000_000.0]
    monkeypatch.setattr(public_cache, "_now", lambda: clock[0])
    scope = public_cache.competition_scope("stapel", Mode.SINGLES)
    before = public_cache.generation(scope)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        public_cache.changed_soon(scope, within=5)
        during = public_cache.generation(scope)
        assert during != before
    after = public_cache.generation(scope)
    assert after not in (before, during)  # renewed again once committed
    clock[0] += 60
    assert public_cache.generation(scope) == after  # and nothing left waiting


def test_a_tournaments_and_its_competitions_held_back_results_show_together(
    db, settings, monkeypatch
):
    """The beamer asks for the tournament's results, the standings for the Einzel's: whichever
    comes first after the held-back time shows both, so that what shows both (a player's
    place, the beamer) is made once per renewal, not once per scope."""
    settings.PUBLIC_RESULTS_SECONDS = 5
    clock = [4_000_000.0]
    monkeypatch.setattr(public_cache, "_now", lambda: clock[0])
    tournament = public_cache.tournament_scope("stapel")
    singles = public_cache.competition_scope("stapel", Mode.SINGLES)
    public_cache.changed_soon(tournament, singles, within=5)  # a quiet spell: at once
    before = public_cache.generation(tournament, singles)
    clock[0] += 1
    public_cache.changed_soon(tournament, singles, within=5)  # held back
    assert public_cache.generation(tournament, singles) == before
    clock[0] += 4
    shown = f"{public_cache.GENERATION_KEY}:{singles}"
    held = cache.get(shown)
    public_cache.generation(tournament)  # the beamer's request, first after the time
    assert cache.get(shown) != held  # the Einzel's shown with it
    both = public_cache.generation(tournament, singles)
    assert both.split(".")[1] != before.split(".")[1]
    assert both.split(".")[2] == cache.get(shown)


@pytest.fixture
def redis_cache(settings):
    """The cache of a bigger hall: Redis on the test machine, database 15 (only that one is
    emptied)."""
    try:
        import redis

        server = redis.Redis.from_url("redis://127.0.0.1:6379/15", socket_connect_timeout=2)
        server.ping()
    except Exception as exc:  # noqa: BLE001 - any failure means: no Redis here
        require(False, f"no Redis server on 127.0.0.1:6379 ({exc})")
    server.flushdb()
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/15",
            "KEY_PREFIX": "binokel-test",
        }
    }
    yield server
    server.flushdb()


def test_with_redis_the_pages_are_kept_and_renewed_the_same_way(client, evening, redis_cache):
    t, table, orga = evening
    url = standings_url(t)
    assert client.get(url)[KEPT] == "made"
    assert client.get(url)[KEPT] == "kept"
    assert any(b"binokel:page:" in key for key in redis_cache.keys("*"))
    save_sheet(table, full_three_table(), orga, expected_version=0, confirm=True)
    assert client.get(url)[KEPT] == "made"
    assert cache.get(public_cache.GENERATION_KEY) is not None


@pytest.mark.slow  # a process of its own per case
@pytest.mark.parametrize(
    ("variable", "backend"),
    [
        ("", "LaptopCache"),
        ("CACHE_URL=redis://127.0.0.1:6379/15", "RedisCache"),
        ("REDIS_URL=redis://127.0.0.1:6379/15", "RedisCache"),
    ],
)
def test_the_cache_is_chosen_by_the_environment(variable, backend, tmp_path):
    import os

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CACHE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(DATA_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="binokel_tournament.settings")
    if variable:
        name, value = variable.split("=", 1)
        env[name] = value
    done = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.CACHES)"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert backend in done.stdout


def test_while_one_request_makes_a_page_the_others_wait_for_it():
    """A hall of phones asks the moment a result changes the standings: one request makes
    the page, the others take it when it is there (and make it themselves when the first
    gave up)."""
    import threading

    from binokel_tournament.services.server.public_cache import made_elsewhere

    key = "binokel:page:test-waiting"
    assert made_elsewhere(key) is None  # nobody making it: this request makes it
    page = (b"<html>made once</html>", "text/html")
    threading.Timer(0.1, lambda: cache.set(key, page)).start()
    assert made_elsewhere(key) == page  # the second request waited for the first
    cache.delete(key)
    cache.delete(key + ":making")
    cache.add(key + ":making", 1)
    threading.Timer(0.1, lambda: cache.delete(key + ":making")).start()
    assert made_elsewhere(key) is None  # the first gave up: the second makes it


def test_what_many_ask_for_at_once_is_made_once():
    """The figures every player's page of a competition shares (standings, donations) are
    made by one request; the others asking meanwhile take what it made."""
    import threading

    from binokel_tournament.services.server.public_cache import kept_or_made

    made = []

    def make() -> str:
        made.append(1)
        threading.Event().wait(0.2)  # slow enough for the others to ask meanwhile
        return "figures"

    answers: list[str] = []
    threads = [
        threading.Thread(target=lambda: answers.append(kept_or_made("binokel:test-once", make, 60)))
        for _ in range(5)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == ["figures"] * 5 and len(made) == 1


def test_a_batch_of_changes_renews_the_pages_once_at_its_end_even_when_it_fails(db, monkeypatch):
    scope = public_cache.tournament_scope("stapel")
    before = public_cache.generation(scope)
    sets: list[dict] = []
    real = cache.set_many

    def counted(data, *args, **kwargs):
        sets.append(data)
        return real(data, *args, **kwargs)

    monkeypatch.setattr(public_cache.cache, "set_many", counted)
    with public_cache.batched():
        for _ in range(50):
            public_cache.changed(scope)
            public_cache.changed()
        assert sets == [] and public_cache.generation(scope) == before  # not yet
    assert len(sets) == 1 and set(sets[0]) == {
        public_cache.GENERATION_KEY,
        f"{public_cache.GENERATION_KEY}:{scope}",
        # when the tournament's results were renewed (in a flood, changes wait for the next
        # renewal), and the held-back changes it shows: none is left waiting
        f"{public_cache.GENERATION_KEY}:{scope}{public_cache.SINCE}",
        f"{public_cache.GENERATION_KEY}:{scope}{public_cache.PENDING}",
        f"{public_cache.GENERATION_KEY}:{scope}{public_cache.PENDING_RESULTS}",
    }
    after = public_cache.generation(scope)
    assert after != before
    with pytest.raises(RuntimeError), public_cache.batched():
        public_cache.changed(scope)
        raise RuntimeError("the import failed half-way")
    assert public_cache.generation(scope) != after  # renewed all the same


@pytest.mark.slow  # two processes of their own
def test_the_laptops_cache_keeps_generations_across_processes(tmp_path):
    """The laptop's cache (diskcache, the settings without CACHE_URL) is shared by the hall
    server's worker processes: a change noted in one process renews the generation another
    process reads, and a page kept by one is found by the other; its folder grows no listing
    per write (Django's file cache listed every file on every write once full)."""
    from django.test import override_settings

    location = str(tmp_path / "cache")
    config = {
        "default": {
            "BACKEND": "binokel_tournament.services.server.laptop_cache.LaptopCache",
            "LOCATION": location,
            "SHARDS": 4,
            "DATABASE_TIMEOUT": 0.25,
            "OPTIONS": {"size_limit": 2**20},
        }
    }
    other_process = f"""
import django
from django.conf import settings
settings.configure(CACHES={config!r}, INSTALLED_APPS=[])
django.setup()
from django.core.cache import cache
import sys
print(cache.get(sys.argv[1]))
cache.set("from-the-other", "kept", None)
"""
    with override_settings(CACHES=config):
        before = public_cache.generation("t:abend")
        key = public_cache._key("t:abend")
        seen = subprocess.run(
            [sys.executable, "-c", other_process, key], capture_output=True, text=True, check=True
        ).stdout.split()[-1]
        assert before.endswith(seen)
        public_cache.changed("t:abend")
        after = public_cache.generation("t:abend")
        assert after != before
        seen = subprocess.run(
            [sys.executable, "-c", other_process, key], capture_output=True, text=True, check=True
        ).stdout.split()[-1]
        assert after.endswith(seen)
        assert cache.get("from-the-other") == "kept"
        for n in range(3000):  # beyond the size limit: the oldest go, a few per write
            cache.set(f"binokel:page:{n}", b"x" * 1000, 600)
        assert cache.get("binokel:page:2999") == b"x" * 1000


def test_the_laptops_cache_keeps_its_connections_across_requests(tmp_path, monkeypatch):
    """Django closes every cache at the end of a request; the laptop's cache keeps its SQLite
    connections open (reopening them cost three more SQL statements per read), and reads
    what another worker wrote meanwhile."""
    import diskcache
    from django.core.signals import request_finished
    from django.test import override_settings

    from binokel_tournament.services.server.laptop_cache import LaptopCache

    closed: list[str] = []
    close = diskcache.Cache.close

    def counted(shard: diskcache.Cache) -> None:
        closed.append(shard.directory)
        close(shard)

    monkeypatch.setattr(diskcache.Cache, "close", counted)
    config = {
        "default": {
            "BACKEND": "binokel_tournament.services.server.laptop_cache.LaptopCache",
            "LOCATION": str(tmp_path / "cache"),
            "SHARDS": 2,
        }
    }
    with override_settings(CACHES=config):
        from django.core.cache import caches

        laptop = caches["default"]
        assert isinstance(laptop, LaptopCache)
        laptop.set("k", "before", None)
        laptop.get("other shard")
        closed.clear()  # diskcache closes as it opens a shard for a process
        request_finished.send(sender=None)  # the end of a request: Django closes the caches
        assert closed == []
        assert laptop.get("k") == "before"
        other = LaptopCache(str(tmp_path / "cache"), {"SHARDS": 2})  # another worker
        other.set("k", "after", None)
        assert laptop.get("k") == "after"
        closed.clear()
        laptop.close_connections()
        assert len(closed) == 2  # its two shards
        other.close_connections()


def test_one_request_reads_each_generation_once_and_sees_one_state():
    """Within a request (``one_reading``) a page's key, its parts and the figures they come
    from read the generations once: a change noted meanwhile by another worker shows from
    the next request on, never half-way through this one."""
    scope, other = (
        public_cache.tournament_scope("abend"),
        public_cache.competition_scope("abend", Mode.SINGLES),
    )
    before = public_cache.generation(scope)
    reads: list[list[str]] = []
    real = cache.get_many

    def counted(keys, *args, **kwargs):
        reads.append(list(keys))
        return real(keys, *args, **kwargs)

    with public_cache.one_reading():
        cache.get_many = counted  # type: ignore[method-assign]
        try:
            assert public_cache.generation(scope) == before
            public_cache.changed(scope)  # another worker's change, meanwhile
            assert public_cache.generation(scope) == before
            assert public_cache.generation(scope, other).startswith(before + ".")
        finally:
            del cache.get_many
    # one read: the tournament's results brought its competitions' along (shown together)
    assert len(reads) == 1 and public_cache._key(other) in reads[0]
    assert public_cache.generation(scope) != before  # the next request sees it


def test_a_value_under_its_own_generation_is_read_once_per_process():
    recent = public_cache.Recent(2)
    recent.put("binokel:x:1", "a")
    recent.put("binokel:y:1", "b")
    assert (recent.get("binokel:x:1"), recent.get("binokel:y:1")) == ("a", "b")
    recent.put("binokel:x:2", "c")  # beyond its size: the others are forgotten
    assert (recent.get("binokel:x:1"), recent.get("binokel:x:2")) == (None, "c")
