"""A new installation gets its organiser from the command line."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from binokel_tournament.models import Role
from binokel_tournament.services import access
from binokel_tournament.services.evening.registration import create_tournament

pytestmark = pytest.mark.django_db


def test_the_organiser_command_makes_an_account_that_may_create_tournaments(tmp_path):
    existing = create_tournament("Herbst")
    secret = tmp_path / "pw"
    secret.write_text("Lange-Nacht-42\n")
    out = StringIO()
    call_command(
        "organiser",
        "anna",
        "--tournament",
        existing.slug,
        "--password-file",
        str(secret),
        stdout=out,
    )
    anna = get_user_model().objects.get(username="anna")
    assert anna.check_password("Lange-Nacht-42") and "angelegt" in out.getvalue()
    assert access.can_create_tournament(anna)
    assert access.role_of(anna, existing) == Role.ORGANISER
    fresh = create_tournament("Frühjahr", creator=anna)
    assert access.role_of(anna, fresh) == Role.ORGANISER


def test_the_organiser_command_refuses_the_demo_password_and_unknown_tournaments(tmp_path):
    secret = tmp_path / "pw"
    secret.write_text("binokel\n")
    with pytest.raises(CommandError, match="Demo-Passwort"):
        call_command("organiser", "anna", "--password-file", str(secret), stdout=StringIO())
    secret.write_text("Lange-Nacht-42\n")
    with pytest.raises(CommandError, match="Kein Turnier"):
        call_command(
            "organiser",
            "anna",
            "--tournament",
            "gibt-es-nicht",
            "--password-file",
            str(secret),
            stdout=StringIO(),
        )
    assert not get_user_model().objects.filter(username="anna").exists()
    with pytest.raises(CommandError, match="password-file"):
        call_command("organiser", "anna", stdout=StringIO())  # no terminal in the tests
