# The languages helper's migration beside the series': no conflict, both apply.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0010_languages_event_table_official"),
        ("tournament", "0010_series_ends_with_qualifiers"),
    ]

    operations = []
