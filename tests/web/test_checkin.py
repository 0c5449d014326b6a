"""The door (issue 25): find a person by the scanned QR address, the short code, the start
number or the name; mark present and paid; "Nicht erschienen" before the seating; the slips
as PDF read back (pdftotext finds every name and number, zbarimg decodes every QR code to that
person's own page)."""

from __future__ import annotations

import subprocess
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from binokel_tournament.exports import PDF_EXPORTERS, ExportOptions
from binokel_tournament.models import Entrant, Mode
from binokel_tournament.services.errors import DeskError
from binokel_tournament.services.evening import checkin, players
from binokel_tournament.services.evening.seating import generate_seating
from tests.exports.test_table_links_printed import codes_per_page

pytestmark = pytest.mark.django_db

BASE = "http://192.168.1.20:8000"


def door(client, tournament, **data):
    return client.post(reverse("desk:checkin", args=[tournament.slug]), data)


def test_a_scan_a_code_a_number_or_a_name_finds_the_person(tournament):
    links = players.ensure_links(tournament)
    pair_link = next(link for link in links if link.partner)
    first = links[0]
    scanned = checkin.find(tournament, f"{BASE}/p/{first.token}/")
    assert scanned.entrant == first.entrant and scanned.by_link
    assert checkin.find(tournament, first.code.lower()).entrant == first.entrant
    partner = checkin.find(tournament, pair_link.code)
    assert partner.entrant == pair_link.entrant and partner.partner
    number = checkin.find(tournament, str(first.entrant.start_number))
    assert number.entrant == first.entrant and not number.by_link
    name = checkin.find(tournament, first.entrant.name.upper())
    assert name.entrant == first.entrant or first.entrant in name.candidates
    assert checkin.find(tournament, f"{BASE}/p/{'x' * 22}/").entrant is None
    assert checkin.find(tournament, "").entrant is None


def test_the_door_page_checks_in_marks_paid_and_offers_the_slip(client, tournament, kasse):
    tournament.entry_fee_cents = 1000
    tournament.save()
    link = players.ensure_links(tournament)[0]
    client.force_login(kasse)  # a desk helper may do all of it
    page = client.get(reverse("desk:checkin", args=[tournament.slug])).content.decode()
    assert 'id="door-q"' in page and "autofocus" in page
    response = door(client, tournament, q=f"{BASE}/p/{link.token}/")
    text = response.content.decode()
    entrant = Entrant.objects.get(pk=link.entrant_id)
    assert entrant.checked_in_at is not None
    assert "Angekommen." in text and "Startgeld offen" in text
    assert f"nr={entrant.start_number}" in text  # the slip's link
    again = door(client, tournament, q=link.code).content.decode()
    assert "War schon als angekommen markiert." in again
    door(client, tournament, entrant=str(entrant.pk), action="paid")
    entrant.refresh_from_db()
    assert entrant.fee_paid
    count = checkin.door_count(tournament)
    assert (count.present, count.paid) == (1, 1)
    assert tournament.audit_log.filter(action="entrant.check_in").count() == 1
    slip = client.get(
        reverse("desk:export", args=[tournament.slug, "slips"])
        + f"?nr={entrant.start_number}&format=a6&anzeigen=1"
    )
    assert slip.status_code == 200 and slip["Content-Type"] == "application/pdf"
    assert slip["Content-Disposition"].startswith("inline")
    unknown = door(client, tournament, q="Niemandhier").content.decode()
    assert "Niemand gefunden" in unknown


def test_no_shows_are_withdrawn_in_one_step_only_before_the_seating(client, tournament, orga):
    here = list(tournament.entrants.order_by("start_number")[:5])
    with pytest.raises(DeskError, match="Noch niemand"):
        checkin.withdraw_no_shows(tournament, orga)
    for entrant in here:
        checkin.check_in(entrant, orga)
    client.force_login(orga)
    url = reverse("desk:no_show", args=[tournament.slug])
    confirm = client.post(url).content.decode()
    missing = tournament.entrants.filter(checked_in_at=None)
    assert all(e.display_name in confirm for e in missing)
    assert not tournament.entrants.filter(withdrawn=True).exists()  # nothing before "yes"
    client.post(url, {"confirmed": "1"})
    assert set(tournament.entrants.filter(withdrawn=False)) == set(here)
    assert tournament.audit_log.filter(action="entrant.no_show").count() == missing.count()


def test_no_shows_after_the_seating_is_made_are_refused(seated, orga):
    checkin.check_in(seated.entrants.first(), orga)
    with pytest.raises(DeskError, match="Spielplan steht schon"):
        checkin.withdraw_no_shows(seated, orga)
    assert not seated.entrants.filter(withdrawn=True).exists()


def pdftotext(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["80mm", "a6"])
def test_slips_read_back_every_name_number_table_and_qr_code(tournament, tmp_path, paper):
    generate_seating(tournament.competitions.get(mode=Mode.SINGLES))
    generate_seating(tournament.competitions.get(mode=Mode.PAIRS))
    out = tmp_path / "slips.pdf"
    call_command(
        "export_pdf",
        "slips",
        "--tournament",
        tournament.slug,
        "--format",
        paper,
        "--base-url",
        BASE,
        "--out",
        str(out),
        stdout=StringIO(),
    )
    text = pdftotext(out)
    links = players.ensure_links(tournament)
    for link in links:
        assert link.person_name in text
        assert link.code in text
    for entrant in tournament.entrants.all():
        assert str(entrant.start_number) in text
    assert "1. Durchgang: Tisch" in text
    pages = codes_per_page(out.read_bytes(), tmp_path, len(links))
    assert all(len(found) == 1 for found in pages)  # one code per slip
    codes = [found[0] for found in pages]
    assert sorted(codes) == sorted(f"{BASE}/p/{link.token}/" for link in links)


def test_one_slip_for_one_start_number_and_a_clear_error_for_none(tournament):
    exporter = PDF_EXPORTERS["slips"](tournament)
    one = tournament.entrants.order_by("start_number").first()
    result = exporter.render(ExportOptions(start_numbers=(one.start_number,), base_url=BASE))
    assert result.content.startswith(b"%PDF") and "80mm" in result.filename
    with pytest.raises(DeskError, match="Keine Zettel"):
        exporter.render(ExportOptions(start_numbers=(99_999,), base_url=BASE))
    with pytest.raises(DeskError):
        exporter.render(ExportOptions(paper="a4", base_url=BASE))
