"""Online registration ahead of the evening (issue 25): the public form, capacity and waiting
list, closing time, flood protection, the same form sent twice, the confirmation page with the
personal links as QR codes, the confirmation e-mail through a real SMTP server on 127.0.0.1,
names hidden on public pages without consent, and the backup carrying it all both ways."""

from __future__ import annotations

import re
import socket
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from django.core import mail
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from binokel_tournament.models import Entrant, Mode, PersonalLink, WaitingRegistration
from binokel_tournament.services.errors import DeskError
from binokel_tournament.services.evening import signup
from binokel_tournament.services.evening.seating import generate_seating
from binokel_tournament.services.server.backup import backup_bytes, restore

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()  # the rate limit counts in the cache
    yield
    cache.clear()


def open_for(tournament, mode=Mode.SINGLES, **fields):
    competition = tournament.competitions.get(mode=mode)
    signup.update_settings(competition, None, registration_open=True, **fields)
    return competition


def form(client, tournament, HTTP_HOST="testserver", **data):  # noqa: N803 - Django's name
    url = reverse("public:signup", args=[tournament.slug])
    page = client.get(url, HTTP_HOST=HTTP_HOST).content.decode()
    key = re.search(r'name="key" value="([0-9a-f]+)"', page).group(1)
    posted = {"mode": "singles", "name": "Anna Online", "club": "TSV", "key": key, **data}
    return client.post(url, posted, HTTP_HOST=HTTP_HOST)


def test_a_registration_gets_a_start_number_and_a_personal_link_shown_as_qr(client, tournament):
    open_for(tournament)
    top = tournament.entrants.order_by("-start_number").first().start_number
    response = form(client, tournament, public_name="on", email="anna@example.org")
    assert response.status_code == 302
    entrant = Entrant.objects.get(name="Anna Online")
    assert entrant.start_number == top + 1 and entrant.online and entrant.public_name
    assert entrant.email == "anna@example.org" and entrant.club == "TSV"
    link = PersonalLink.objects.get(entrant=entrant, revoked_at=None)
    assert response["Location"] == reverse("public:signed_up", args=[tournament.slug, link.token])
    page = client.get(response["Location"]).content.decode()
    assert f"angemeldet mit Startnummer {entrant.start_number}" in page
    assert link.code in page and f"/p/{link.token}/" in page
    assert "<svg" in page  # the QR code
    # the audit log names the registration
    assert tournament.audit_log.filter(action="signup.entrant").count() == 1


def test_a_pair_registers_both_names_and_each_partner_gets_a_link(client, tournament):
    open_for(tournament, Mode.PAIRS)
    response = form(client, tournament, mode="pairs", name="Hans", partner="Grete")
    entrant = Entrant.objects.get(name="Hans", partner="Grete")
    page = client.get(response["Location"]).content.decode()
    links = PersonalLink.objects.filter(entrant=entrant, revoked_at=None)
    assert links.count() == 2
    assert all(f"/p/{link.token}/" in page for link in links)
    missing = form(client, tournament, mode="pairs", name="Solo", partner="")
    assert missing.status_code == 200 and "Ein Paar braucht zwei Namen." in missing.content.decode()
    assert not Entrant.objects.filter(name="Solo").exists()


def test_closed_full_or_not_open_competitions_store_nothing(client, tournament):
    competition = tournament.competitions.get(mode=Mode.SINGLES)
    page = client.get(reverse("public:signup", args=[tournament.slug])).content.decode()
    assert "nicht geöffnet" in page and 'name="name"' not in page
    before = Entrant.objects.count()
    open_for(tournament, registration_closes=timezone.now() - timedelta(minutes=1))
    page = client.get(reverse("public:signup", args=[tournament.slug])).content.decode()
    assert "Die Online-Anmeldung ist geschlossen." in page
    signup.update_settings(competition, None, registration_closes=None, waiting_list=False)
    signup.update_settings(competition, None, capacity=signup.taken_places(competition))
    with pytest.raises(DeskError, match="Alle Plätze sind vergeben"):
        signup.sign_up(competition, signup.SignUp(name="Zu spät"))
    assert Entrant.objects.count() == before
    with pytest.raises(DeskError):
        signup.update_settings(competition, None, capacity=0)


def test_beyond_the_capacity_a_waiting_list_that_the_desk_moves_up(client, tournament, orga):
    competition = open_for(tournament)
    taken = signup.taken_places(competition)
    signup.update_settings(competition, None, capacity=taken + 1)
    first = signup.sign_up(competition, signup.SignUp(name="Letzter Platz"))
    assert first.entrant is not None
    second = signup.sign_up(competition, signup.SignUp(name="Wartet Eins"))
    third = signup.sign_up(competition, signup.SignUp(name="Wartet Zwei"))
    assert second.entrant is None and second.waiting is not None
    assert signup.waiting_place(second.waiting) == 1 and signup.waiting_place(third.waiting) == 2
    page = client.get(reverse("public:signed_up", args=[tournament.slug, third.token]))
    assert "Platz 2 der Warteliste" in page.content.decode()
    # a place frees: the desk moves the first up; the second moves to place 1
    first.entrant.withdrawn = True
    first.entrant.save()
    client.force_login(orga)
    response = client.post(
        reverse("desk:waiting", args=[tournament.slug, second.waiting.pk]), {"action": "move_up"}
    )
    assert response.status_code == 302
    moved = Entrant.objects.get(name="Wartet Eins")
    assert moved.online and WaitingRegistration.objects.get(pk=second.waiting.pk).entrant == moved
    assert signup.waiting_place(third.waiting) == 1
    client.logout()
    page = client.get(reverse("public:signed_up", args=[tournament.slug, second.token]))
    text = page.content.decode()
    assert f"angemeldet mit Startnummer {moved.start_number}" in text
    assert PersonalLink.objects.get(entrant=moved).code in text
    with pytest.raises(DeskError):  # moving up twice
        signup.move_up(second.waiting, orga)


def waiting_ones(tournament, names):
    competition = open_for(tournament)
    signup.update_settings(competition, None, capacity=signup.taken_places(competition))
    return [
        signup.sign_up(competition, signup.SignUp(name=n, email=f"{n[:4].lower()}@example.org"))
        for n in names
    ]


def test_who_moves_up_hears_it_by_email_with_number_and_links(client, tournament, orga, settings):
    settings.EMAIL_ENABLED = True  # Django's test mail box (locmem) stands for the server
    settings.PUBLIC_BASE_URL = "https://anmeldung.example.org"
    (waiting,) = waiting_ones(tournament, ["Wartet Mail"])
    assert waiting.entrant is None and len(mail.outbox) == 0  # (signed up without a request)
    client.force_login(orga)
    url = reverse("desk:waiting", args=[tournament.slug, waiting.waiting.pk])
    page = client.post(url, {"action": "move_up"}, follow=True).content.decode()
    moved = Entrant.objects.get(name="Wartet Mail")
    link = PersonalLink.objects.get(entrant=moved)
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["wart@example.org"] and sent.subject.startswith("Nachgerückt:")
    assert "von der Warteliste nachgerückt" in sent.body
    assert f"Startnummer {moved.start_number}" in sent.body and link.code in sent.body
    assert f"https://anmeldung.example.org/p/{link.token}/" in sent.body
    assert "E-Mail an wart@example.org verschickt." in page


def test_a_desk_on_this_laptop_sends_no_links_that_lead_nowhere(client, tournament, orga, settings):
    settings.EMAIL_ENABLED, settings.PUBLIC_BASE_URL = True, ""
    settings.ALLOWED_HOSTS = ["*"]
    (waiting,) = waiting_ones(tournament, ["Wartet Lokal"])
    client.force_login(orga)
    url = reverse("desk:waiting", args=[tournament.slug, waiting.waiting.pk])
    response = client.post(url, {"action": "move_up"}, follow=True, HTTP_HOST="127.0.0.1:8000")
    assert Entrant.objects.filter(name="Wartet Lokal").exists() and len(mail.outbox) == 0
    assert "Keine E-Mail an wart@example.org" in response.content.decode()


def test_the_same_form_sent_twice_is_one_registration(client, tournament):
    open_for(tournament)
    page = client.get(reverse("public:signup", args=[tournament.slug])).content.decode()
    key = re.search(r'name="key" value="([0-9a-f]+)"', page).group(1)
    data = {"mode": "singles", "name": "Doppelt Klick", "key": key}
    url = reverse("public:signup", args=[tournament.slug])
    first, second = client.post(url, data), client.post(url, data)
    assert first["Location"] == second["Location"]
    assert Entrant.objects.filter(name="Doppelt Klick").count() == 1


def test_robots_and_floods_are_refused_without_storing(client, tournament):
    open_for(tournament)
    before = Entrant.objects.count()
    robot = form(client, tournament, website="http://spam.example")
    assert "konnte nicht angenommen werden" in robot.content.decode()
    assert Entrant.objects.count() == before
    statuses = [form(client, tournament, name=f"Flut {i}").status_code for i in range(25)]
    assert statuses.count(302) == 19  # the robot's try counted too: 20 per address
    assert statuses[-1] == 429
    assert Entrant.objects.count() == before + 19
    # bad input: a clear German message, never a 500, nothing half-stored
    for bad in ({"name": ""}, {"name": "x" * 500}, {"email": "kein-at"}, {"mode": "teams"}):
        cache.clear()
        response = form(client, tournament, **bad)
        assert response.status_code == 200, bad
    assert Entrant.objects.count() == before + 19


def test_a_name_without_consent_is_only_a_start_number_on_public_pages(client, tournament):
    competition = open_for(tournament)
    done = signup.sign_up(competition, signup.SignUp(name="Geheim Gerda", public_name=False))
    shown = signup.sign_up(competition, signup.SignUp(name="Offen Otto", public_name=True))
    generate_seating(competition)
    number = done.entrant.start_number
    urls = [
        reverse("public:standings", args=[tournament.slug, "singles"]),
        reverse("public:beamer", args=[tournament.slug, "singles"]),
        reverse("public:where", args=[tournament.slug]) + f"?q={shown.entrant.start_number}",
    ]
    for url in urls:
        page = client.get(url).content.decode()
        assert "Geheim Gerda" not in page, url
    standings = client.get(urls[0]).content.decode()
    assert f"Startnummer {number}" in standings and "Offen Otto" in standings
    where = reverse("public:where", args=[tournament.slug])
    assert "Niemand gefunden" in client.get(where + "?q=Gerda").content.decode()
    assert "Startnummer" in client.get(where + f"?q={number}").content.decode()
    # the desk sees the name; so does the person's own page
    link = PersonalLink.objects.get(entrant=done.entrant)
    assert (
        "Geheim Gerda" in client.get(reverse("public:personal", args=[link.token])).content.decode()
    )


class Inbox:
    def __init__(self) -> None:
        self.messages: list[tuple[str, list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        self.messages.append((envelope.mail_from, envelope.rcpt_tos, envelope.content))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_confirmation_email_goes_through_a_real_smtp_server(client, tournament, settings):
    inbox = Inbox()
    port = free_port()
    server = Controller(inbox, hostname="127.0.0.1", port=port)
    server.start()
    try:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_ENABLED = "127.0.0.1", port, True
        settings.DEFAULT_FROM_EMAIL = "turnier@example.org"
        open_for(tournament)
        response = form(client, tournament, email="anna@example.org")
    finally:
        server.stop()
    assert response.status_code == 302
    entrant = Entrant.objects.get(name="Anna Online")
    link = PersonalLink.objects.get(entrant=entrant)
    assert len(inbox.messages) == 1
    sender, to, content = inbox.messages[0]
    text = content.decode("utf-8", "replace")
    assert sender == "turnier@example.org" and to == ["anna@example.org"]
    assert f"/p/{link.token}/" in text and link.code in text
    assert f"Startnummer {entrant.start_number}" in text


def test_a_mail_server_that_is_down_never_loses_the_registration(client, tournament, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_ENABLED = (
        "127.0.0.1",
        free_port(),
        True,
    )
    open_for(tournament)
    response = form(client, tournament, email="anna@example.org")
    assert response.status_code == 302
    assert Entrant.objects.filter(name="Anna Online").exists()


def test_registrations_links_and_the_waiting_list_survive_backup_and_restore(tournament):
    competition = open_for(tournament)
    signup.update_settings(competition, None, capacity=signup.taken_places(competition) + 1)
    entrant = signup.sign_up(
        competition, signup.SignUp(name="Reise Rita", email="r@example.org", public_name=False)
    )
    waiting = signup.sign_up(competition, signup.SignUp(name="Warte Willi"))
    first = backup_bytes(tournament)
    tokens = sorted(PersonalLink.objects.values_list("token", "code"))
    waiting_token = waiting.waiting.token
    slug = tournament.slug
    tournament.delete()
    restored = restore(first, slug=slug).tournament
    assert backup_bytes(restored) == first
    assert sorted(PersonalLink.objects.values_list("token", "code")) == tokens
    rita = restored.entrants.get(name="Reise Rita")
    assert (rita.email, rita.public_name, rita.online) == ("r@example.org", False, True)
    assert rita.start_number == entrant.entrant.start_number
    again = WaitingRegistration.objects.get(tournament=restored)
    assert again.token == waiting_token and again.name == "Warte Willi"
    c = restored.competitions.get(mode=Mode.SINGLES)
    assert c.registration_open and c.capacity == competition.capacity


def test_every_link_a_player_receives_is_at_the_public_address(client, tournament, settings):
    """The sign-up's e-mail and confirmation page follow the move-up's rule (PUBLIC_BASE_URL
    when it is an address phones reach), not the address the form happened to be opened on."""
    settings.EMAIL_ENABLED = True
    settings.PUBLIC_BASE_URL = "https://anmeldung.example.org"
    settings.ALLOWED_HOSTS = ["*"]
    open_for(tournament)
    response = form(client, tournament, email="anna@example.org", HTTP_HOST="10.1.2.3:8001")
    link = PersonalLink.objects.get(entrant__name="Anna Online")
    (sent,) = mail.outbox
    assert f"https://anmeldung.example.org/p/{link.token}/" in sent.body
    assert "10.1.2.3" not in sent.body
    page = client.get(response["Location"], HTTP_HOST="10.1.2.3:8001").content.decode()
    assert f"https://anmeldung.example.org/p/{link.token}/" in page


def test_a_sign_up_on_this_computer_only_mails_no_links_that_lead_nowhere(
    client, tournament, settings
):
    settings.EMAIL_ENABLED, settings.PUBLIC_BASE_URL = True, ""
    settings.ALLOWED_HOSTS = ["*"]
    open_for(tournament)
    response = form(client, tournament, email="anna@example.org", HTTP_HOST="127.0.0.1:8000")
    assert response.status_code == 302 and Entrant.objects.filter(name="Anna Online").exists()
    assert len(mail.outbox) == 0


def test_a_form_sent_after_the_closing_time_says_not_registered_and_keeps_what_was_typed(
    client, tournament
):
    competition = open_for(tournament)
    url = reverse("public:signup", args=[tournament.slug])
    page = client.get(url).content.decode()
    key = re.search(r'name="key" value="([0-9a-f]+)"', page).group(1)
    # the phone kept the page open past the closing time
    signup.update_settings(
        competition, None, registration_closes=timezone.now() - timedelta(minutes=1)
    )
    before = Entrant.objects.count()
    typed = {
        "mode": "singles",
        "name": "Späte Sabine",
        "club": "SV Hinterhof",
        "email": "sabine@example.org",
        "key": key,
    }
    response = client.post(url, typed)
    text = response.content.decode()
    assert response.status_code == 200 and Entrant.objects.count() == before
    assert "Sie sind NICHT angemeldet. Die Online-Anmeldung ist geschlossen." in text
    assert all(value in text for value in ("Späte Sabine", "SV Hinterhof", "sabine@example.org"))


def test_the_staff_login_is_not_called_anmelden_on_the_registration_page(client, tournament):
    open_for(tournament)
    page = client.get(reverse("public:signup", args=[tournament.slug])).content.decode()
    login = re.search(r'<a href="/anmelden/[^"]*">([^<]+)</a>', page)
    assert login is not None and login.group(1) == "Zugang Turnierleitung"
    assert page.count(">Anmelden<") == 1  # only the form's own button
