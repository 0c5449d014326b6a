"""A pair's two people arrive each on their own: the partner's arrival of its own. A pair
marked before (one mark for both) keeps both as arrived."""

from django.db import migrations, models
from django.db.models import F


def both_of_a_marked_pair_arrived(apps, schema_editor):
    Entrant = apps.get_model("binokel_tournament", "Entrant")
    Entrant._base_manager.exclude(partner="").filter(checked_in_at__isnull=False).update(
        partner_checked_in_at=F("checked_in_at")
    )


class Migration(migrations.Migration):
    dependencies = [
        ("binokel_tournament", "0023_audit_log_outlives_its_tournament"),
    ]

    operations = [
        migrations.AddField(
            model_name="entrant",
            name="partner_checked_in_at",
            field=models.DateTimeField(
                blank=True, null=True, verbose_name="Partner/in angekommen"
            ),
        ),
        migrations.RunPython(both_of_a_marked_pair_arrived, migrations.RunPython.noop),
    ]
