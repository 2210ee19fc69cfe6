from django.db import migrations, models


class Migration(migrations.Migration):
    # The same migration under its earlier file name: a database that applied it under that
    # name counts it applied, and it is not run again.
    replaces = [("tournament", "0011_cockpit2_leave_undo")]

    dependencies = [
        ("tournament", "0010_series_ends_with_qualifiers"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="status_before",
            field=models.CharField(blank=True, max_length=12, verbose_name="status before"),
        ),
        migrations.AddField(
            model_name="player",
            name="alternate_position_before",
            field=models.PositiveIntegerField(
                blank=True, null=True, verbose_name="alternate order before"
            ),
        ),
    ]
