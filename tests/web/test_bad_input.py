"""Bad input never gets a 500: the known cases, and what the desk sees when something does go
wrong (a German page saying what to do, the request and traceback in the error log)."""

from __future__ import annotations

import logging
import logging.config

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from binokel_tournament.models import Entrant, ScoreSheet
from binokel_tournament.services.evening.registration import import_entrants, read_table_file

from .desk_urls import first_three_table
from .sheets import full_three_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("query", ["²", "٣", "9" * 40, "x" * 5000, "' OR 1=1 --", "<b>4</b>"])
def test_odd_searches_on_where_do_i_sit_find_nobody_or_someone(client, seated, query):
    response = client.get(reverse("public:where", args=[seated.slug]), {"q": query})
    assert response.status_code == 200


def test_a_nul_character_anywhere_is_refused_before_it_reaches_the_database(
    client, desk_client, seated
):
    where = reverse("public:where", args=[seated.slug])
    response = client.get(where, {"q": "\x00"})
    assert response.status_code == 400 and "Nullzeichen" in response.content.decode()
    url = reverse("desk:entrants", args=[seated.slug, "singles"])
    before = Entrant.objects.count()
    assert desk_client.post(url, {"name": "Anna\x00"}).status_code == 400
    sheet = reverse("desk:sheet", args=[seated.slug, first_three_table(seated)])
    data = {**full_three_table(1), "g1-bid": "200\x00", "version": "0"}
    assert desk_client.post(sheet, data).status_code == 400
    assert Entrant.objects.count() == before and not ScoreSheet.objects.exists()
    client.cookies["sessionid"] = "abcdefgh\x00"
    assert client.get(where).status_code == 400


@pytest.mark.parametrize("version", ["x1", "²", "", "-1", "9" * 30, "1.5"])
def test_a_tampered_sheet_version_is_a_message(desk_client, seated, version):
    url = reverse("desk:sheet", args=[seated.slug, first_three_table(seated)])
    response = desk_client.post(url, {**full_three_table(2), "version": version, "draft": "1"})
    assert response.status_code in {302, 400, 409}
    if response.status_code != 302:
        assert 'name="g2-bid" value="200"' in response.content.decode()  # the input is kept


def test_ids_too_big_for_the_database_are_not_found(desk_client, seated):
    for url in (
        f"/desk/{seated.slug}/zettel/{'9' * 30}/",
        f"/desk/{seated.slug}/teilnehmer-bearbeiten/{'9' * 19}/",
        f"/desk/{seated.slug}/durchgang/{'9' * 25}/sperren/",
    ):
        assert desk_client.get(url).status_code in {404, 405}, url


def test_a_seed_that_is_not_a_plain_number_plans_with_seed_zero(desk_client, seated):
    competition = seated.competitions.get(mode="pairs")
    for seed in ("²", "9" * 40, "-3", "x"):
        response = desk_client.post(
            reverse("desk:seating", args=[seated.slug]),
            {"competition": competition.pk, "seed": seed, "action": "replan"},
        )
        assert response.status_code == 302


def test_a_csv_with_a_nul_byte_is_reported_row_by_row_never_half_imported(tournament):
    rows = read_table_file("teilnehmer.csv", b"Name;Startnummer\nAnna;\nBe\x00rnd;\nCarla;\n")
    competition = tournament.competitions.get(mode="singles")
    report = import_entrants(competition, rows)
    assert [e.name for e in report.created] == ["Anna", "Carla"]
    assert report.rejected[0][0] == 3 and "Nullzeichen" in report.rejected[0][1]
    assert not Entrant.objects.filter(name__contains="rnd").exists()


def test_a_start_number_too_big_for_the_database_is_a_reason_not_an_error(tournament):
    competition = tournament.competitions.get(mode="singles")
    report = import_entrants(competition, [["Name", "Nr"], ["Riese", "9" * 30], ["Zwerg", "77"]])
    assert [e.name for e in report.created] == ["Zwerg"]
    assert "keine Zahl" in report.rejected[0][1]


def test_the_import_page_reports_a_nul_csv_upload(desk_client, tournament):
    upload = SimpleUploadedFile("t.csv", b"Name\nAnna\nBe\x00rnd\n")
    url = reverse("desk:entrants_import", args=[tournament.slug, "singles"])
    response = desk_client.post(url, {"file": upload})
    assert response.status_code == 200 and "Nullzeichen" in response.content.decode()


@pytest.fixture
def error_log(tmp_path, settings):
    """The error log in a folder of the test, as configured for the server."""
    path = tmp_path / "errors.log"
    config = {**settings.LOGGING}
    config["handlers"] = {
        **config["handlers"],
        "error_file": {**config["handlers"]["error_file"], "filename": str(path)},
    }
    logging.config.dictConfig(config)
    settings.ERROR_LOG_FILE = path
    yield path
    logging.config.dictConfig(settings.LOGGING)


@pytest.mark.urls("tests.web.boom_urls")
def test_a_server_error_shows_what_to_do_and_is_logged_with_the_request(client, orga, error_log):
    client.raise_request_exception = False
    client.force_login(orga)
    response = client.post("/boom/", {"g1-bid": "230", "password": "geheim"})
    assert response.status_code == 500
    page = response.content.decode()
    assert "Nichts Eingetippte ist verloren" in page and str(error_log) in page
    error_id = page.split("Fehlerkennung")[1].split("<code>")[1].split("</code>")[0]
    log = error_log.read_text()
    assert "POST /boom/" in log and "user: orga" in log and "g1-bid = 230" in log
    assert "geheim" not in log and "password = ***" in log
    assert "RuntimeError: the desk's database fell over" in log and "Traceback" in log
    assert f"error id: {error_id}" in log
    client.cookies["django_language"] = "en"
    english = client.get("/boom/").content.decode()
    assert "Nothing you typed is lost" in english
    # anyone else (a phone, a helper) sees no path of the server, only the error id
    client.logout()
    public = client.get("/boom/").content.decode()
    assert str(error_log) not in public and str(error_log.parent) not in public
    assert "Fehlerkennung" in public or "error id" in public.lower()
