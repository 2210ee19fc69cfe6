# The languages helper's migrations beside main's (offline tablets, series).

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0011_merge_20261201_1911"),
        ("tournament", "0011_merge_languages_series"),
    ]

    operations = []
