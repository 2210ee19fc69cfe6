"""The organizer's "hold the public site" choice.

Existing switches were all set by hand: their events keep that (held), so no page an
organizer switched off comes on by itself at the next publishing or posting. An event
without switches has never released anything; it gets the new default (no row, not held):
its pages follow publishing and posting from now on, and every message says so.
"""

from django.db import migrations, models

HELP = "Publishing tables and posting rounds release nothing: you release each page here."


class Migration(migrations.Migration):
    dependencies = [
        ("spectator", "0001_initial"),
    ]

    operations = [
        # Every existing row is held...
        migrations.AddField(
            model_name="publicrelease",
            name="held",
            field=models.BooleanField(
                default=True, help_text=HELP, verbose_name="hold the public site"
            ),
            preserve_default=False,
        ),
        # ...and new ones follow publishing and posting.
        migrations.AlterField(
            model_name="publicrelease",
            name="held",
            field=models.BooleanField(
                default=False, help_text=HELP, verbose_name="hold the public site"
            ),
        ),
    ]
