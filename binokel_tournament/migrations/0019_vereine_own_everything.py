"""An installation from before Vereine: everything it holds goes into one Verein, named after
its first tournament's organiser (the organising club, else the organiser's name). Accounts
keep exactly the rights they had: a member of a tournament stays a member of that one
tournament (not of the Verein, which would open every other tournament to them), and an
account that could create tournaments still may while the installation has one Verein
(docs/operations.md: ``manage.py organiser USER --verein SLUG`` makes a Verein's organiser)."""

from django.conf import settings
from django.db import migrations, models
from django.utils.text import slugify


def _name(Tournament, Membership) -> str:
    first = Tournament.objects.order_by("created_at", "pk").first()
    if first is None:
        return "Mein Verein"
    if first.organiser_club.strip():
        return first.organiser_club.strip()
    organiser = (
        Membership.objects.filter(tournament=first, role="organiser")
        .select_related("user")
        .order_by("created_at", "pk")
        .first()
    )
    if organiser is None:
        return "Mein Verein"
    user = organiser.user
    full = f"{user.first_name} {user.last_name}".strip()
    return f"Verein von {full or user.username}"


def one_verein_for_what_is_here(apps, schema_editor):
    Verein = apps.get_model("binokel_tournament", "Verein")
    Tournament = apps.get_model("binokel_tournament", "Tournament")
    Player = apps.get_model("binokel_tournament", "Player")
    Series = apps.get_model("binokel_tournament", "Series")
    Membership = apps.get_model("binokel_tournament", "Membership")
    holds_anything = (
        Tournament.objects.exists() or Player.objects.exists() or Series.objects.exists()
    )
    if not holds_anything:
        return  # a new installation: the first tournament makes the one Verein
    name = _name(Tournament, Membership)[:200]
    verein = Verein.objects.create(name=name, slug=(slugify(name) or "verein")[:80])
    for model in (Tournament, Player, Series):
        model.objects.update(verein=verein)


class Migration(migrations.Migration):
    dependencies = [
        ("binokel_tournament", "0018_vereine"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(one_verein_for_what_is_here, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="verein",
            field=models.ForeignKey(
                on_delete=models.deletion.PROTECT,
                related_name="players",
                to="binokel_tournament.verein",
            ),
        ),
        migrations.AlterField(
            model_name="series",
            name="verein",
            field=models.ForeignKey(
                on_delete=models.deletion.PROTECT,
                related_name="series",
                to="binokel_tournament.verein",
            ),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="verein",
            field=models.ForeignKey(
                on_delete=models.deletion.PROTECT,
                related_name="tournaments",
                to="binokel_tournament.verein",
            ),
        ),
    ]
