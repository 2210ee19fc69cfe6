"""Huge inputs to the registration import are refused early and clearly.

A review measured a 3 MB paste answered with a bare 400 page (the text lost), and a
100,000-line file processed for 135 s and answered with 200,000 error lines.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournament.models import Player
from tournament.roles import ORGANIZER

MB = 1024 * 1024
# The columns a championship requires (players.csv_columns.required_columns).
HEADER = "first_name,last_name,date_of_birth,eligibility_declared,citizenship_declared\n"
# The README's limits, written out rather than read from the code.
MAX_ROWS = 2000
ERRORS_SHOWN = 100


@pytest.fixture
def organizer(client, event):
    user = User.objects.create_user("org", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    return client


def import_url(event) -> str:
    return reverse("players:player_import", kwargs={"pk": event.pk})


def test_a_paste_too_large_to_read_gets_a_page_that_says_so(organizer, event):
    text = HEADER + "Ada,Lovelace,1990-12-10\n" * (3 * MB // 24)
    response = organizer.post(import_url(event), {"text": text})
    assert response.status_code == 413
    body = response.content.decode()
    assert "larger than 2 MB" in body and "your browser still holds what you typed" in body


def test_a_paste_over_the_import_limit_comes_back_in_the_box(organizer, event):
    text = HEADER + "Ada,Lovelace,1990-12-10\n" * (2 * MB // 24 + 10) + "Last,Line,2000-01-01"
    response = organizer.post(import_url(event), {"text": text})
    assert response.status_code == 200
    body = response.content.decode()
    assert "larger than 2 MB; split it into parts" in body
    assert "Last,Line,2000-01-01</textarea>" in body  # what was pasted, kept
    assert not Player.objects.exists()


def test_a_file_with_too_many_lines_is_refused_before_any_is_read(organizer, event):
    rows = "".join(f"Player{n},Surname,not-a-date,yes,yes\n" for n in range(MAX_ROWS + 1))
    upload = SimpleUploadedFile("big.csv", (HEADER + rows).encode(), content_type="text/csv")
    response = organizer.post(import_url(event), {"file": upload})
    body = response.content.decode()
    assert f"This has {MAX_ROWS + 2} lines; one import takes at most {MAX_ROWS}" in body
    assert "Line 2:" not in body  # refused whole, not read line by line
    assert not Player.objects.exists()


def test_a_file_at_the_limit_is_read(organizer, event):
    rows = "".join(f"Player{n},Surname,not-a-date,yes,yes\n" for n in range(MAX_ROWS))
    upload = SimpleUploadedFile("max.csv", (HEADER + rows).encode(), content_type="text/csv")
    body = organizer.post(import_url(event), {"file": upload}, follow=True).content.decode()
    assert "Nothing was imported." in body and "Line 2:" in body


def test_only_the_first_hundred_errors_are_listed(organizer, event):
    rows = "".join(f"Player{n},Surname,not-a-date,yes,yes\n" for n in range(500))
    response = organizer.post(import_url(event), {"text": HEADER + rows}, follow=True)
    body = response.content.decode()
    assert body.count("<li>Line ") == ERRORS_SHOWN
    assert "Line 2:" in body and f"Line {ERRORS_SHOWN + 1}:" in body
    assert f"Line {ERRORS_SHOWN + 2}:" not in body
    assert "…and 400 more problems not shown" in body


# The red team's file: 0.48 MB, one header line of 70,000 columns, which the header check
# (a count per name) held a worker on for minutes. At most 200 columns are read.
MAX_COLUMNS = 200


def test_a_header_of_seventy_thousand_columns_is_refused_from_its_count(organizer, event):
    header = "first_name,last_name,date_of_birth," + ",".join(f"c{n}" for n in range(69_997))
    upload = SimpleUploadedFile(
        "wide.csv", (header + "\nAda,Lovelace,1990-12-10\n").encode(), content_type="text/csv"
    )
    assert len(header.encode()) < 2 * MB
    response = organizer.post(import_url(event), {"file": upload}, follow=True)
    body = response.content.decode()
    assert response.status_code == 200
    assert (
        f"The first line names 70000 columns; a registration file has at most {MAX_COLUMNS}."
        in body
    )
    assert "Unknown column(s)" not in body  # refused before its 69,997 names were listed
    assert not Player.objects.exists()


def test_a_header_at_the_column_limit_is_checked_name_by_name(organizer, event):
    # 200 columns: the three required, then "status" (an export column the import
    # ignores) 197 times: one repeated name, reported once.
    header = "first_name,last_name,date_of_birth," + ",".join(["status"] * 197)
    response = organizer.post(
        import_url(event), {"text": header + "\nAda,Lovelace,1990-12-10\n"}, follow=True
    )
    body = response.content.decode()
    assert "Column(s) named twice: status." in body
    assert "at most 200" not in body
    assert not Player.objects.exists()
