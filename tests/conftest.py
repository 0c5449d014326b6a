"""Settings and hooks for the whole suite, in every test process (pytest-xdist runs two):

- fast password hashing, a local-memory cache emptied before every test, automatic backups
  written synchronously into a temporary folder of this process;
- tests marked ``postgres`` are deselected unless DATABASE_URL names PostgreSQL;
- the slowest test files are handed out first, so that no process waits for one at the end.

Skipping for a missing real part (PostgreSQL, chromium) is ``tests.support.require``: it
skips locally and fails in CI (CI=true). Data built once per session: ``tests.dbsnapshot``."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings


def pytest_configure(config: pytest.Config) -> None:
    """Passwords in tests need no million PBKDF2 rounds (about 0.4 s per user otherwise).
    Automatic backups go to a folder of the test run, written in the saving thread."""
    import tempfile

    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # the tables' rate limit counts in a cache of this test process, emptied for every test
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.BACKUP_DIR = tempfile.mkdtemp(prefix="binokel-test-backups-")
    settings.BACKUP_STATUS_DIR = tempfile.mkdtemp(prefix="binokel-test-backup-status-")
    settings.BACKUP_IN_BACKGROUND = False
    # a confirmation shows on the public pages at once, not up to 5 s later in a flood of
    # them (tests confirm several sheets a second); test_public_cache.py tests the flood
    settings.PUBLIC_RESULTS_SECONDS = 0


# Hypothesis' "too slow" health check measures the wall clock: on a loaded two-core machine it
# fails tests whose examples are fine. Every test's example count stays as it is.
settings.register_profile(
    "binokel", settings.get_profile("default"), suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("binokel")


@pytest.fixture(autouse=True, scope="session")
def _as_the_system() -> Iterator[None]:
    """The tests are the system, as manage.py is: they see every Verein. A request through
    the test client or a browser goes through the middleware, which scopes the desk to the
    account's Vereine (services/tenancy.py); threads a test starts see nothing until they say
    so (``tests.support.as_system``)."""
    from django_scopes import scopes_disabled

    with scopes_disabled():
        yield


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    from django.core.cache import cache

    from binokel_tournament.services.server import cache_guard

    cache.clear()
    cache_guard.reset()  # a cache that failed in another test answers in this one


# test files that take far longer than the rest (a real server killed ten times, a browser):
# handed out first, they run beside the many short files instead of after them
SLOW_FIRST = (  # the files that take longest (``--durations``), so none is left for the end
    "tests/web/test_crash.py",
    "tests/browser/",
    "tests/web/test_fuzz.py",
    "tests/web/test_roles.py",
    "tests/web/test_big_field.py",
)


# The quick tier (``make check``) must stay within a minute on two cores: these tests, each a
# second or more (whole-page walks, every preset, a second server, migrations), run in the
# whole suite only (CI: ``make test``), as if marked ``slow``. Measured with
# ``pytest -m "not slow and not browser" --durations=0``.
WHOLE_SUITE_ONLY = (
    "tests/scoring/test_game_validation.py::test_an_impossible_meld_names_the_rule_sets_card_count",
    "tests/scoring/test_regional_switches.py::test_the_diss_makes_odd_tens_showable",
    "tests/scoring/test_regional_switches.py::test_the_switches_sit_on_top_of_any_preset",
    "tests/scoring/test_pair_melds.py::test_the_dp_finds_exactly_what_brute_force_finds",
    "tests/scoring/test_dabb_preset.py::test_going_out_costs_the_bid_winner",
    "tests/web/test_audit_words.py::test_the_protokoll_reads_in_words",
    "tests/web/test_query_counts.py::",
    "tests/web/test_demo.py::test_the_committed_fixture_is_what_the_demo_command_makes",
    "tests/web/test_demo.py::test_simulated_games_split_the_eyes_of_the_rule_set",
    "tests/web/test_number_formats.py::",
    "tests/web/test_sheet_entry.py::test_the_sheet_answers_any_post_without_a_server_error",
    "tests/web/test_scripted_evening.py::",
    "tests/web/test_club_server.py::test_registrations_come_from_the_club_server",
    "tests/web/test_club_server.py::test_without_network_the_result_goes_by_file",
    "tests/web/test_cups_across_clubs.py::test_a_cup_of_three_files_from_two_clubs",
    "tests/web/test_cups_across_clubs.py::test_the_players_pages_rank_the_cup_once",
    "tests/web/test_english_pages.py::",
    "tests/exports/test_views.py::test_every_link_of_the_export_box_downloads_a_file",
    "tests/exports/test_views.py::test_the_download_carries_the_options_of_the_link",
    "tests/exports/test_excel_csv.py::test_one_sheet_per_competition_then_games_then_entrants",
    "tests/web/test_door.py::test_a_pair_marked_before_the_migration_stays_complete",
    "tests/web/test_result_file.py::test_one_prize_per_person_travels_with_the_file",
    "tests/web/test_result_file.py::test_the_commands_write_check_and_take_in_a_file",
    "tests/web/test_client_address.py::test_fifty_registrations_from_fifty_forwarded",
    "tests/web/test_public_pages_off.py::",
    "tests/pairing/test_pairing_rounds.py::test_plans_of_1_to_6_rounds_are_valid_and_reported_honestly[1",
    "tests/web/test_backup.py::test_backup_restore_into_an_empty_database_backup_gives",
    "tests/web/test_backup.py::test_the_backup_carries_the_tables_phones_and_the_cups",
    "tests/web/test_backup.py::test_a_backup_written_while_the_file_parts_were_a_json_field",
    "tests/web/test_backup.py::test_with_automatic_backups_off_the_backup_process",
    "tests/web/test_backup.py::test_a_broken_backup_is_refused_and_changes_nothing",
    "tests/exports/test_public_link.py::test_the_desk_prints_the_address_the_organisers_browser",
    "tests/web/test_pages.py::test_each_page_lists_the_same_in_the_same_order_live_and_on",
    "tests/web/test_reprints.py::test_the_list_to_reprint_stays_until_printed",
    "tests/web/test_write_queue.py::test_a_second_save_waits_for_the_first",
    "tests/scoring/test_game_validation.py::test_a_pairs_bid_cap_follows_the_exact_pair_melds",
    "tests/web/test_district_cup.py::test_member_clubs_submit_and_the_district_decides",
    "tests/exports/test_qr_policy.py::test_only_the_policy_module_makes_qr_codes",
    "tests/web/test_private_files.py::",
    "tests/test_readme.py::test_the_rule_set_the_readme_writes_is_one_score_reads",
    "tests/web/test_signup.py::test_robots_and_floods_are_refused_without_storing",
    "tests/web/test_table_truth.py::test_a_second_phone_saving_the_same_game_is_refused",
    "tests/web/test_result_file.py::test_an_evening_taken_in_is_read_only",
    "tests/web/test_backup.py::test_the_backup_carries_the_money_and_the_prizes",
    "tests/web/test_backup.py::test_restore_into_a_busy_database_under_a_new_slug",
    "tests/web/test_backup.py::test_a_backup_from_the_last_ones_lines_is_byte_for_byte",
    "tests/web/test_backup.py::test_a_backup_from_before_an_update_still_restores",
    "tests/web/test_backup.py::test_the_commands_write_and_read_a_backup",
    "tests/web/test_client_address.py::test_one_flooding_address_behind_the_proxy",
    "tests/web/test_cups_across_clubs.py::test_the_same_name_with_another_club",
    "tests/web/test_cache_down.py::test_a_redis_that_stops_and_comes_back",
    "tests/exports/test_standings_pdf.py::test_all_competitions_in_one_pdf_and_after_round_n",
)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects: the marker counts there
def pytest_itemcollected(item: pytest.Item) -> None:
    if item.nodeid.startswith(WHOLE_SUITE_ONLY):
        item.add_marker(pytest.mark.slow)


@pytest.hookimpl(trylast=True)  # after pytest-django's ordering (transactional tests last)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``postgres`` run in the PostgreSQL pass of the suite (DATABASE_URL set to
    PostgreSQL, as .ci/run does) and are left out of the SQLite pass. The slow files first."""
    items.sort(key=lambda item: 0 if item.nodeid.startswith(SLOW_FIRST) else 1)  # stable
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        return
    keep, dropped = [], []
    for item in items:
        (dropped if item.get_closest_marker("postgres") else keep).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
