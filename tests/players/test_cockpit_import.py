"""The registration import: a template to download, the result names who
became an alternate or joined the waiting list, and a refused file's text stays on the page."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from players.csv_columns import IMPORT_COLUMNS, required_columns
from players.csv_io import import_registrations
from tournament.models import Player
from tournament.services import event_create

HEADER = "first_name,last_name,date_of_birth,eligibility_declared,citizenship_declared"


@pytest.fixture
def cup(db):
    return event_create(
        name="Import Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2031, 5, 1),
        start_time=datetime.time(10, 0),
        expected_players=2,
        alternates=1,
    )


@pytest.fixture
def organizer_client(client, db):
    user = User.objects.create_user("olive")
    user.groups.add(Group.objects.get(name="Organizer"))
    client.force_login(user)
    return client


def test_the_template_is_a_csv_the_import_accepts(organizer_client, cup):
    response = organizer_client.get(
        reverse("players:player_import_template", kwargs={"pk": cup.pk})
    )
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    # Every column once, those this event requires first.
    required = required_columns(event=cup)
    assert sorted(rows[0]) == sorted(IMPORT_COLUMNS) and len(rows) == 2
    assert tuple(rows[0][: len(required)]) == required
    # The example line imports as it is.
    assert import_registrations(event=cup, text=response.content.decode()).created == 1
    page = organizer_client.get(reverse("players:player_import", kwargs={"pk": cup.pk}))
    assert "Download the template (CSV)" in page.content.decode()


def test_the_result_names_who_became_an_alternate_or_waits(organizer_client, cup):
    text = "\n".join(
        [HEADER] + [f"{name},Tester,1990-01-0{n},yes,yes" for n, name in enumerate("ABCD", start=1)]
    )
    response = organizer_client.post(
        reverse("players:player_import", kwargs={"pk": cup.pk}), {"text": text}
    )
    body = response.content.decode()
    assert response.status_code == 200 and 'id="import-held"' in body
    held = body[body.index('id="import-held"') :]
    # Two places, one alternate position: C is alternate 1, D waits.
    assert "C Tester" in held and "alternate 1" in held
    assert "D Tester" in held and "waiting list, 1" in held
    assert "A Tester" not in held
    assert Player.objects.get(first_name="D").status == Player.Status.WAITING


def test_a_refused_file_stays_on_the_page_as_text(organizer_client, cup):
    text = HEADER + "\nAda,Tester,not-a-date,yes,yes\n"
    upload = SimpleUploadedFile("players.csv", text.encode(), content_type="text/csv")
    response = organizer_client.post(
        reverse("players:player_import", kwargs={"pk": cup.pk}), {"file": upload}, follow=True
    )
    body = response.content.decode()
    assert "Nothing was imported." in body
    assert "The content of players.csv is kept in the box below." in body
    # The file's text is back in the box, ready to correct and send again.
    assert response.context["form"]["text"].value() == text
    assert not Player.objects.exists()
