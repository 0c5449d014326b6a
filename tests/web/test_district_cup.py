"""A district's cup across its member clubs (issue 34, services/money/district.py): member
clubs submit evenings (played here, or a hall laptop's result file), the district's organiser
accepts or declines them; an accepted evening is the district's own copy, its players matched
across clubs; a club leaving takes nothing accepted with it; clubs outside submit nothing and
see nothing of the district's cup."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from binokel_tournament.exports.result_file import document, to_bytes
from binokel_tournament.models import (
    AuditLog,
    CupSubmission,
    Mode,
    Player,
    Role,
    Series,
    SubmissionStatus,
    Tournament,
)
from binokel_tournament.services import tenancy
from binokel_tournament.services.access import NotAllowed
from binokel_tournament.services.errors import DeskError
from binokel_tournament.services.evening.registration import create_tournament, register_entrant
from binokel_tournament.services.evening.seating import generate_seating
from binokel_tournament.services.evening.simulation import simulate_round
from binokel_tournament.services.money import district
from binokel_tournament.services.server.backup.restore import remove_evening

pytestmark = pytest.mark.django_db


def evening(verein, name: str, players: list[str]) -> Tournament:  # type: ignore[no-untyped-def]
    t = create_tournament(name, modes=[Mode.SINGLES], rounds=1, verein=verein)
    for player in players:
        register_entrant(t.competitions.get(), player, club="Wendlingen")
    generate_seating(t.competitions.get())
    simulate_round(t.round_set.get(number=1), None, seed=len(name))
    return t


@pytest.fixture
def kreis(db):  # type: ignore[no-untyped-def]
    users = get_user_model().objects
    made = {"district": tenancy.create_verein("Kreis Esslingen", "kreis-es", district=True)}
    for slug in ("a", "b", "c"):
        made[slug] = tenancy.create_verein(f"Verein {slug.upper()}", f"verein-{slug}")
    for slug in ("district", "a", "b", "c"):
        boss = users.create_user(f"boss-{slug}", password="pw")
        tenancy.set_member(made[slug], boss, Role.ORGANISER, None)
        made[f"boss-{slug}"] = boss
    for slug in ("a", "b"):
        district.add_member_club(made["district"], f"verein-{slug}", made["boss-district"])
    made["cup"] = Series.objects.create(verein=made["district"], slug="kreiscup", name="Kreiscup")
    return made


def test_member_clubs_submit_and_the_district_decides(kreis):
    cup = kreis["cup"]
    at_a = evening(kreis["a"], "Abend in A", ["Anna Albrecht", "Bernd Bauer", "Carla Conrad"])
    at_b = evening(kreis["b"], "Abend in B", ["Anna Albrecht", "Dora Dürr", "Emil Eßer"])

    # A submits its evening played here, on its desk page
    club_a = Client()
    club_a.force_login(kreis["boss-a"])
    page = club_a.get("/desk/kreis/").content.decode()
    assert "Kreiscup" in page and "Abend in A" in page
    reply = club_a.post("/desk/kreis/", {"action": "submit", "cup": cup.pk, "tournament": at_a.pk})
    assert reply.status_code == 302
    # B submits the result file its hall laptop wrote
    club_b = Client()
    club_b.force_login(kreis["boss-b"])
    upload = SimpleUploadedFile("abend.json", to_bytes(document(at_b, "results")))
    club_b.post("/desk/kreis/", {"action": "submit", "cup": cup.pk, "file": upload})
    assert CupSubmission.objects.filter(status=SubmissionStatus.PENDING).count() == 2
    # C is no member: it submits nothing and sees nothing of the cup
    at_c = evening(kreis["c"], "Abend in C", ["Fritz Frei", "Gerda Gut", "Hans Huber"])
    with pytest.raises(NotAllowed):
        district.submit_tournament(cup, at_c, kreis["boss-c"])
    club_c = Client()
    club_c.force_login(kreis["boss-c"])
    assert club_c.get("/desk/cup-serien/kreiscup/").status_code == 404
    assert club_b.get("/desk/cup-serien/kreiscup/").status_code == 404  # a member, not the cup's

    # the district's organiser sees both and decides
    desk = Client()
    desk.force_login(kreis["boss-district"])
    page = desk.get("/desk/cup-serien/kreiscup/").content.decode()
    assert "Abend in A" in page and "Abend in B" in page and 'id="submissions"' in page
    first, second = CupSubmission.objects.order_by("submitted_at")
    desk.post("/desk/cup-serien/kreiscup/", {"action": "accept", "submission": first.pk})
    desk.post("/desk/cup-serien/kreiscup/", {"action": "decline", "submission": second.pk})
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == SubmissionStatus.ACCEPTED and second.status == SubmissionStatus.DECLINED
    copy = first.accepted
    assert copy is not None and copy.verein == kreis["district"] and copy.imported
    assert copy.event_id == at_a.event_id and list(cup.tournaments.all()) == [copy]
    # accepted once is enough; a declined evening may come again, and then count
    with pytest.raises(DeskError):
        district.submit_tournament(cup, at_a, kreis["boss-a"])
    again = district.submit_file(cup, kreis["b"], second.data.encode(), kreis["boss-b"])
    assert again.pk == second.pk and again.status == SubmissionStatus.PENDING
    district.decide(again, True, kreis["boss-district"])
    assert cup.tournaments.count() == 2
    # Anna Albrecht of Wendlingen played at both: one person of the district's register
    assert Player.objects.filter(verein=kreis["district"], name="Anna Albrecht").count() == 1
    actions = set(AuditLog.objects.values_list("action", flat=True))
    assert {"district.submit", "district.accept", "district.decline"} <= actions


def test_a_club_leaving_takes_nothing_accepted_and_withdraws_what_waits(kreis):
    cup = kreis["cup"]
    first = evening(kreis["a"], "Erster Abend", ["Anna Albrecht", "Bernd Bauer", "Carla Conrad"])
    second = evening(kreis["a"], "Zweiter Abend", ["Anna Albrecht", "Bernd Bauer", "Ida Igel"])
    accepted = district.submit_tournament(cup, first, kreis["boss-a"])
    district.decide(accepted, True, kreis["boss-district"])
    waiting = district.submit_tournament(cup, second, kreis["boss-a"])
    with pytest.raises(NotAllowed):  # only the district's organiser names its members
        district.remove_member_club(kreis["district"], kreis["a"], kreis["boss-a"])
    assert district.remove_member_club(kreis["district"], kreis["a"], kreis["boss-district"]) == 1
    waiting.refresh_from_db()
    assert waiting.status == SubmissionStatus.WITHDRAWN
    assert [t.name for t in cup.tournaments.all()] == ["Erster Abend"]
    with pytest.raises(DeskError):  # the district decides nothing withdrawn
        district.decide(waiting, True, kreis["boss-district"])
    with pytest.raises(NotAllowed):  # and A, no member now, submits nothing
        district.submit_tournament(cup, second, kreis["boss-a"])
    remove_evening(first)  # even the club's own evening gone: the district's copy stays
    assert cup.tournaments.count() == 1


def test_only_a_district_has_member_clubs_and_only_its_organiser_names_them(kreis):
    with pytest.raises(DeskError):
        district.add_member_club(kreis["a"], "verein-b", kreis["boss-a"])
    with pytest.raises(NotAllowed):
        district.add_member_club(kreis["district"], "verein-c", kreis["boss-c"])
    with pytest.raises(DeskError):
        district.add_member_club(kreis["district"], "gibt-es-nicht", kreis["boss-district"])
    desk = Client()
    desk.force_login(kreis["boss-district"])
    desk.post("/desk/kreis/", {"action": "add_member", "club": "verein-c"})
    assert {v.slug for v in district.member_clubs(kreis["district"])} == {
        "verein-a",
        "verein-b",
        "verein-c",
    }
