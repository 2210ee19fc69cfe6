"""CSV import (all or nothing, idempotent) and export, as a service and through the pages."""

import csv
import datetime
import io

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from players.csv_columns import EXPORT_COLUMNS
from players.csv_io import ImportResult, import_registrations
from players.services import Registration, player_register, player_withdraw
from tournament.models import Player
from tournament.services import event_create

HEADER = (
    "first_name,last_name,email,date_of_birth,eligibility_declared,citizenship_declared,"
    "publicity_consent,family\n"
)
GOOD = (
    HEADER + "Ada,Lovelace,ada@example.org,1990-12-10,yes,yes,no,Lovelaces\n"
    "Grace,Hopper,grace@example.org,1986-12-09,TRUE,1,y,\n"
    "Alan,Turing,,1982-06-23,Y,true,0,\n"
)


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()
    yield
    cache.clear()


def make_event(name="Spring Championship", **fields):
    return event_create(
        name=name,
        organization="Atlantic Avenue Club",
        venue="Library Annex",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
        **fields,
    )


@pytest.fixture
def organizer(db):
    user = User.objects.create_user("olive", password="not-used")
    user.groups.add(Group.objects.get(name="Organizer"))
    return user


def import_url(event):
    return reverse("players:player_import", kwargs={"pk": event.pk})


def export_url(event):
    return reverse("players:player_export", kwargs={"pk": event.pk})


def messages_for(result: ImportResult, line: int) -> list[str]:
    return [message for number, message in result.errors if number == line]


# --- The service ---------------------------------------------------------------------


def test_good_file_imports_and_a_second_import_skips_everyone(event):
    result = import_registrations(event=event, text=GOOD)
    assert result == ImportResult(created=3, skipped_existing=0, errors=[])
    players = {p.first_name: p for p in Player.objects.all()}
    assert set(players) == {"Ada", "Grace", "Alan"}
    assert all(p.source == Player.Source.IMPORT for p in players.values())
    assert players["Ada"].signature == "Ada Lovelace"  # default signature
    assert players["Ada"].household == "lovelaces"
    assert players["Grace"].publicity_consent and not players["Alan"].publicity_consent
    aliases = {p.alias for p in players.values()}

    again = import_registrations(event=event, text=GOOD)
    assert again == ImportResult(created=0, skipped_existing=3, errors=[])
    assert Player.objects.count() == 3
    assert {p.alias for p in Player.objects.all()} == aliases


def test_header_order_is_free_and_bom_and_crlf_are_tolerated(event):
    text = (
        "\ufeffDate_Of_Birth,Last_Name,First_Name,Eligibility_Declared,citizenship_declared\r\n"
        "1990-12-10,Lovelace,Ada,yes,yes\r\n"
    )
    assert import_registrations(event=event, text=text).created == 1
    assert Player.objects.get().date_of_birth == datetime.date(1990, 12, 10)


def test_rows_already_registered_by_email_or_name_are_skipped(event):
    player_register(
        event=event,
        registration=Registration(
            first_name="ADA",
            last_name="lovelace",
            date_of_birth=datetime.date(1990, 12, 10),
            signature="Ada",
            email="someone@example.org",
            eligibility_declared=True,
            citizenship_declared=True,
        ),
    )
    grace = player_register(
        event=event,
        registration=Registration(
            first_name="Grace",
            last_name="Brewster",
            date_of_birth=datetime.date(1986, 12, 9),
            signature="Grace",
            email="GRACE@example.org",
            eligibility_declared=True,
            citizenship_declared=True,
        ),
    )
    player_withdraw(player=grace)  # withdrawn people are not signed up again by a re-import
    result = import_registrations(event=event, text=GOOD)
    assert result == ImportResult(created=1, skipped_existing=2, errors=[])
    assert Player.objects.count() == 3


def test_capacity_gives_seats_then_alternates_in_file_order(db):
    event = make_event(expected_players=2)
    assert import_registrations(event=event, text=GOOD).created == 3
    alan = Player.objects.get(first_name="Alan")
    assert alan.status == Player.Status.ALTERNATE and alan.alternate_position == 1
    assert Player.objects.filter(status=Player.Status.PLAYER).count() == 2


def test_two_bad_rows_among_good_ones_import_nothing(event):
    text = (
        HEADER + "Ada,Lovelace,ada@example.org,1990-12-10,yes,yes,no,\n"
        "Young,Person,young@example.org,2014-04-21,yes,yes,no,\n"
        "Grace,Hopper,grace@example.org,1986-12-09,yes,yes,no,\n"
        "No,Declaration,nodecl@example.org,1980-01-01,no,yes,no,\n"
        "Alan,Turing,,1982-06-23,yes,yes,no,\n"
    )
    result = import_registrations(event=event, text=text)
    assert result.created == 0 and not result.ok
    assert {line for line, _ in result.errors} == {3, 5}
    assert "at least 16" in messages_for(result, 3)[0]
    assert messages_for(result, 3)[0].startswith("date_of_birth: ")
    assert "publisher" in messages_for(result, 5)[0]
    assert not Player.objects.exists()


def test_duplicates_within_the_file_are_errors(event):
    text = (
        HEADER + "Ada,Lovelace,ada@example.org,1990-12-10,yes,yes,no,\n"
        "Augusta,King,ADA@example.org,1991-01-01,yes,yes,no,\n"
        "ada,lovelace,other@example.org,1990-12-10,yes,yes,no,\n"
    )
    result = import_registrations(event=event, text=text)
    assert messages_for(result, 3) == ["Same email as line 2."]
    assert messages_for(result, 4) == ["Same name and date of birth as line 2."]
    assert not Player.objects.exists()


def test_bad_date_and_bad_boolean_are_reported(event):
    text = (
        HEADER + "Ada,Lovelace,ada@example.org,31/31/1990,yes,yes,no,\n"
        "Grace,Hopper,grace@example.org,1986-12-09,maybe,yes,no,\n"
        "Alan,Turing,not-an-email,1982-06-23,yes,yes,no,\n"
    )
    result = import_registrations(event=event, text=text)
    assert "31/31/1990" in messages_for(result, 2)[0]
    assert "YYYY-MM-DD" in messages_for(result, 2)[0]
    assert "eligibility_declared" in messages_for(result, 3)[0]
    assert "maybe" in messages_for(result, 3)[0]
    assert "valid email" in messages_for(result, 4)[0]
    assert not Player.objects.exists()


def test_missing_required_column(event):
    text = "first_name,last_name,email\nAda,Lovelace,ada@example.org\n"
    result = import_registrations(event=event, text=text)
    assert [line for line, _ in result.errors] == [1]
    assert "date_of_birth" in result.errors[0][1]
    assert not Player.objects.exists()


def test_unknown_column_is_reported_rather_than_dropped(event):
    text = (
        "first_name,last_name,date_of_birth,eligibility_declared,citizenship_declared,emial\n"
        "Ada,Lovelace,1990-12-10,yes,yes,a@b.org\n"
    )
    result = import_registrations(event=event, text=text)
    assert result.errors == [(1, "Unknown column(s): emial.")]


def test_blank_required_values_and_extra_cells(event):
    text = HEADER + ",Lovelace,,1990-12-10,yes,yes,no,\nAda,Lovelace,,,yes,yes,no,,extra\n"
    result = import_registrations(event=event, text=text)
    assert "first_name: this is required." in messages_for(result, 2)
    assert "values but the header names" in messages_for(result, 3)[0]


def test_file_alias_is_reserved_before_automatic_aliases(event):
    automatic = import_registrations(event=make_event(name="Probe"), text=GOOD)
    assert automatic.ok
    taken = Player.objects.get(first_name="Ada").alias
    # Alan asks for the alias Ada would get automatically; both must import.
    text = (
        "first_name,last_name,email,date_of_birth,eligibility_declared,"
        "citizenship_declared,alias\n"
        f"Ada,Lovelace,ada@example.org,1990-12-10,yes,yes,\n"
        f"Alan,Turing,,1982-06-23,yes,yes,{taken}\n"
    )
    assert import_registrations(event=event, text=text).created == 2
    assert Player.objects.get(event=event, first_name="Alan").alias == taken
    assert Player.objects.get(event=event, first_name="Ada").alias != taken


def test_empty_file(event):
    result = import_registrations(event=event, text="")
    assert [line for line, _ in result.errors] == [1]


# --- The pages -----------------------------------------------------------------------


def test_import_page_upload_reports_counts(client, event, organizer):
    client.force_login(organizer)
    assert client.get(import_url(event)).status_code == 200
    upload = SimpleUploadedFile("players.csv", GOOD.encode(), content_type="text/csv")
    response = client.post(import_url(event), {"file": upload})
    assert response.status_code == 200
    assert "3 imported, 0 already registered." in response.content.decode()

    response = client.post(import_url(event), {"text": GOOD})
    assert "0 imported, 3 already registered." in response.content.decode()
    assert Player.objects.count() == 3


def test_import_page_lists_errors_and_says_nothing_was_imported(client, event, organizer):
    client.force_login(organizer)
    text = HEADER + "Ada,Lovelace,,1990-12-10,yes,yes,no,\nBad,Date,,1990-13-01,yes,yes,no,\n"
    response = client.post(import_url(event), {"text": text})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Nothing was imported." in body
    assert "Line 3:" in body and "1990-13-01" in body
    assert not Player.objects.exists()


def test_non_utf8_upload_gives_a_clear_message(client, event, organizer):
    client.force_login(organizer)
    latin1 = (HEADER + "Zoë,Müller,,1990-12-10,yes,yes,no,\n").encode("latin-1")
    upload = SimpleUploadedFile("players.csv", latin1, content_type="text/csv")
    response = client.post(import_url(event), {"file": upload})
    assert response.status_code == 200
    assert "not UTF-8" in response.content.decode()
    assert not Player.objects.exists()


def test_binary_upload_gives_a_clear_message(client, event, organizer):
    client.force_login(organizer)
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"
    upload = SimpleUploadedFile("photo.png", png, content_type="image/png")
    response = client.post(import_url(event), {"file": upload})
    assert response.status_code == 200
    assert "not UTF-8" in response.content.decode()


def test_text_that_is_not_a_registration_csv(client, event, organizer):
    client.force_login(organizer)
    response = client.post(import_url(event), {"text": "Dear organizer,\nhere are my friends"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Nothing was imported." in body
    assert "Missing required column(s)" in body


def test_empty_import_form_asks_for_a_file(client, event, organizer):
    client.force_login(organizer)
    response = client.post(import_url(event), {})
    assert response.status_code == 200
    assert "Choose a CSV file or paste its text." in response.content.decode()


def test_export_then_import_into_a_fresh_event(client, organizer):
    event = make_event(expected_players=2)
    player_register(
        event=event,
        registration=Registration(
            first_name="=cmd",
            last_name="O'Hara, Jr.",
            date_of_birth=datetime.date(1970, 1, 1),
            signature="Formula Person",
            telephone="+1 555 0100",
            address='1 "Quoted" Lane\nSecond line',
            eligibility_declared=True,
            citizenship_declared=True,
            publicity_consent=True,
            alias="Chosen Alias",
        ),
    )
    assert import_registrations(event=event, text=GOOD).created == 3
    client.force_login(organizer)
    response = client.get(export_url(event))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith("attachment;")
    text = response.content.decode("utf-8")

    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert list(rows[0]) == list(EXPORT_COLUMNS)
    assert rows[0]["first_name"] == "'=cmd"  # a spreadsheet will not run it
    assert [row["status"] for row in rows] == ["player", "player", "alternate", "alternate"]
    assert rows[2]["alternate_position"] == "1"
    assert rows[0]["signed_at"] and rows[0]["source"] == "self"

    fresh = make_event(name="Autumn Championship", expected_players=2)
    result = import_registrations(event=fresh, text=text)
    assert result == ImportResult(created=4, skipped_existing=0, errors=[])

    def record(p):
        return (
            p.first_name,
            p.last_name,
            p.email,
            p.date_of_birth,
            p.address,
            p.telephone,
            p.family,
            p.signature,
            p.alias,
            p.status,
            p.alternate_position,
            p.publicity_consent,
        )

    assert sorted(map(record, fresh.players.all())) == sorted(map(record, event.players.all()))
    assert fresh.players.get(alias="Chosen Alias").first_name == "=cmd"
    # And the export of the new event imports into it as "all already registered".
    again = client.get(export_url(fresh)).content.decode()
    assert import_registrations(event=fresh, text=again).skipped_existing == 4


def test_nul_characters_and_overlong_fields_are_line_errors(event):
    text = (
        HEADER
        + "A\x00da,Lovelace,,1990-12-10,yes,yes,no,\n"
        + "x" * 101
        + ",B,,1990-12-10,y,y,n,\n"
    )
    result = import_registrations(event=event, text=text)
    assert "NUL" in messages_for(result, 2)[0]
    assert "at most 100 characters" in messages_for(result, 3)[0]
    assert not Player.objects.exists()


def test_a_row_whose_email_differs_only_in_case_is_skipped_not_refused(event):
    """Emails match whatever their case on either side: the registered "Ann.Lee@Example.org"
    is the file's "ANN.LEE@example.ORG", though the name is spelled another way (so only
    the email can match). The row is skipped and the rest imported; the file is not refused
    (as it would be if the row went on and met "already registered with this email")."""
    player_register(
        event=event,
        registration=Registration(
            first_name="Ann",
            last_name="Lee",
            date_of_birth=datetime.date(1991, 5, 4),
            signature="Ann Lee",
            email="Ann.Lee@Example.org",
            eligibility_declared=True,
            citizenship_declared=True,
        ),
    )
    text = (
        HEADER + "Annie,Lee-Smith,ANN.LEE@example.ORG,1991-05-04,yes,yes,no,\n"
        "Grace,Hopper,grace@example.org,1986-12-09,yes,yes,no,\n"
    )
    result = import_registrations(event=event, text=text)
    assert result == ImportResult(created=1, skipped_existing=1, errors=[])
    assert sorted(Player.objects.values_list("first_name", flat=True)) == ["Ann", "Grace"]
