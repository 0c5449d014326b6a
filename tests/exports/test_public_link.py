"""The QR code and "Online nachsehen" link on the seating plan point to an address players'
phones can reach: the one the organiser's browser used at the desk, ``--base-url`` on the
command line, or the configured PUBLIC_BASE_URL — never to this computer's own loopback
address, which a phone cannot reach (then they are left out, with a warning on the command
line)."""

from __future__ import annotations

import io

import pdfplumber
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from reportlab.lib.pagesizes import A4

from binokel_tournament.exports import ExportOptions
from binokel_tournament.exports.pdf import SeatingPlanExporter
from binokel_tournament.services.server.public_links import is_loopback_url

pytestmark = pytest.mark.django_db

LAN = "http://192.168.1.20:8000"


def links(content: bytes) -> list[tuple[str, int]]:
    """Per page: the "Online nachsehen" line (or "") and the number of QR modules drawn."""
    found = []
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        for page in pdf.pages:
            text = page.extract_text()
            online = next((x for x in text.splitlines() if x.startswith("Online nachsehen")), "")
            corner = [r for r in page.rects if r["x0"] > A4[0] - 130 and r["top"] < 130]
            found.append((online, len(corner)))
    return found


def where(base: str, demo) -> str:
    return f"Online nachsehen: {base}/t/{demo.slug}/wo-sitze-ich/"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000",
        "http://127.3.4.5/",
        "http://localhost:8000/",
        "http://LOCALHOST",
        "http://desk.localhost:8000",
        "http://[::1]:8000/",
        "http://0.0.0.0:8000",
        "http://[::ffff:127.0.0.1]:8000",
    ],
)
def test_a_loopback_address_prints_neither_qr_code_nor_link(demo, url):
    assert is_loopback_url(url)
    result = SeatingPlanExporter(demo).render(ExportOptions(round_number=1, base_url=url))
    assert links(result.content) == [("", 0)] * 3


@pytest.mark.parametrize("url", [LAN, "https://binokel.example.org", "http://binokel:8000"])
def test_other_addresses_are_not_loopback(url):
    assert not is_loopback_url(url)


def test_the_default_settings_print_no_loopback_link(demo, settings):
    settings.PUBLIC_BASE_URL = "http://127.0.0.1:8000"
    result = SeatingPlanExporter(demo).render(ExportOptions(round_number=1))
    assert b"127.0.0.1" not in result.content
    assert links(result.content) == [("", 0)] * 3


def test_the_address_given_wins_over_the_setting(demo, settings):
    settings.PUBLIC_BASE_URL = "https://binokel.example.org"
    result = SeatingPlanExporter(demo).render(ExportOptions(round_number=1, base_url=LAN + "/"))
    for online, modules in links(result.content):
        assert online == where(LAN, demo)
        assert modules > 100


def test_the_desk_prints_the_address_the_organisers_browser_used(desk_client, demo, settings):
    settings.ALLOWED_HOSTS = ["*"]
    settings.PUBLIC_BASE_URL = "http://127.0.0.1:8000"
    url = reverse("desk:export", args=[demo.slug, "seating"]) + "?round=1"
    response = desk_client.get(url, HTTP_HOST="192.168.1.20:8000")
    assert response.status_code == 200
    assert {online for online, _ in links(response.content)} == {where(LAN, demo)}
    # the desk opened on the laptop itself: a phone cannot reach that, so no code
    for host in ("127.0.0.1:8000", "localhost:8000"):
        response = desk_client.get(url, HTTP_HOST=host)
        assert links(response.content) == [("", 0)] * 3, host
    # ... unless the public address is configured: then that is printed
    settings.PUBLIC_BASE_URL = "https://binokel.example.org/"
    response = desk_client.get(url, HTTP_HOST="localhost:8000")
    assert {online for online, _ in links(response.content)} == {
        where("https://binokel.example.org", demo)
    }


def test_the_command_takes_the_address_with_base_url(demo, tmp_path):
    out = tmp_path / "plan.pdf"
    stderr = io.StringIO()
    call_command(
        "export_pdf", "seating", "--round", "1", "--base-url", LAN, "--out", str(out),
        stdout=io.StringIO(), stderr=stderr,
    )  # fmt: skip
    assert stderr.getvalue() == ""
    assert {online for online, _ in links(out.read_bytes())} == {where(LAN, demo)}


def test_the_command_warns_when_the_address_is_loopback(demo, tmp_path, settings):
    settings.PUBLIC_BASE_URL = "http://127.0.0.1:8000"
    out = tmp_path / "plan.pdf"
    stderr = io.StringIO()
    call_command(
        "export_pdf", "seating", "--round", "1", "--out", str(out),
        stdout=io.StringIO(), stderr=stderr,
    )  # fmt: skip
    assert "127.0.0.1" in stderr.getvalue() and "--base-url" in stderr.getvalue()
    assert links(out.read_bytes()) == [("", 0)] * 3
    # table cards and score sheets carry the tables' own links while tables enter on phones
    demo.table_entry = True
    demo.save()
    for kind, what in (("tablecards", "Tischkarten"), ("scoresheets", "Spielzettel")):
        stderr = io.StringIO()
        call_command(
            "export_pdf", kind, "--round", "1", "--out", str(tmp_path / f"{kind}.pdf"),
            stdout=io.StringIO(), stderr=stderr,
        )  # fmt: skip
        assert what in stderr.getvalue() and "--base-url" in stderr.getvalue(), kind
    # no QR code on the other PDFs, so nothing to warn about
    stderr = io.StringIO()
    call_command(
        "export_pdf", "standings", "--out", str(tmp_path / "s.pdf"),
        stdout=io.StringIO(), stderr=stderr,
    )  # fmt: skip
    assert stderr.getvalue() == ""
    demo.table_entry = False
    demo.save()
    stderr = io.StringIO()
    call_command(
        "export_pdf", "tablecards", "--round", "1", "--out", str(tmp_path / "k.pdf"),
        stdout=io.StringIO(), stderr=stderr,
    )  # fmt: skip
    assert stderr.getvalue() == ""  # without phone entry: no table link, no warning


@pytest.mark.parametrize(
    "url", ["192.168.1.20:8000", "binokel.example.org", "ftp://x.org", "http://"]
)
def test_the_command_refuses_an_address_that_is_not_one(demo, tmp_path, url):
    with pytest.raises(CommandError, match="--base-url"):
        call_command(
            "export_pdf", "seating", "--base-url", url, "--out", str(tmp_path / "x.pdf"),
            stdout=io.StringIO(),
        )  # fmt: skip
