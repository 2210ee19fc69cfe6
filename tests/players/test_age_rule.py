"""One age boundary between the junior and the senior event, said on every form.

Championship Rules, JUNIOR REGIONAL CHAMPIONSHIP DETAILS: "Competitors must be between 8 and 16
years old (16+ qualify for the senior tournament.)"; REGIONAL CHAMPIONSHIP DETAILS: "You must be
over 16 years of age". Read together: 16 on the event's date plays the senior event, juniors are
8 to 15. Both events are on 2030-04-20 here.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from players.csv_io import import_registrations
from tournament.formats import SENIOR_AGE, age_refusal
from tournament.models import Player
from tournament.roles import ORGANIZER
from tournament.services import event_create

DAY = datetime.date(2030, 4, 20)
SIXTEENTH_BIRTHDAY = "2014-04-20"  # 16 on the day
DAY_BEFORE = "2014-04-21"  # 15 on the day, 16 tomorrow


def make(format_key: str):
    return event_create(
        name=f"{format_key} heat",
        organization="Club",
        venue="Hall",
        date=DAY,
        start_time=datetime.time(10, 0),
        format=format_key,
    )


@pytest.mark.django_db
def test_both_formats_take_their_limits_from_the_one_boundary():
    junior, senior = make("junior"), make("championship")
    assert SENIOR_AGE == 16
    assert (junior.minimum_age, junior.maximum_age) == (8, 15)
    assert (senior.minimum_age, senior.maximum_age) == (16, None)
    for age in range(5, 30):
        # Every age from 8 is welcome at exactly one of the two events.
        welcome = [age_refusal(event=e, age=age) is None for e in (junior, senior)]
        assert welcome == ([False, False] if age < 8 else [age < 16, age >= 16]), age


@pytest.mark.django_db
def test_the_rule_is_said_on_the_public_and_the_on_the_day_form(client):
    junior, senior = make("junior"), make("championship")
    public = client.get(reverse("players:register", kwargs={"pk": senior.pk})).content
    assert b"Players must be 16 or over on the day of the event." in public
    assert b"Players under 16 play the junior championship." in public
    organizer = User.objects.create_user("olive", password="pw")
    organizer.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(organizer)
    door = client.get(reverse("players:player_add", kwargs={"pk": junior.pk})).content
    assert b"Players must be 8 to 15 years old on the day of the event." in door
    assert b"Players of 16 or over play the senior championship." in door


@pytest.mark.django_db
def test_the_csv_import_applies_the_same_rule():
    junior, senior = make("junior"), make("championship")
    header = "first_name,last_name,date_of_birth,guardian_name,guardian_consent,"
    header += "eligibility_declared,citizenship_declared\n"
    sixteen = f"Sam,Sixteen,{SIXTEENTH_BIRTHDAY},Pat Sixteen,yes,yes,yes\n"
    fifteen = f"Fay,Fifteen,{DAY_BEFORE},Pat Fifteen,yes,yes,yes\n"

    refused = import_registrations(event=junior, text=header + sixteen)
    assert not refused.ok
    assert "up to 15 (16 on the day)" in refused.errors[0][1]
    assert "senior championship" in refused.errors[0][1]
    assert import_registrations(event=junior, text=header + fifteen).ok

    refused = import_registrations(event=senior, text=header + fifteen)
    assert not refused.ok and "at least 16" in refused.errors[0][1]
    assert import_registrations(event=senior, text=header + sixteen).ok
    assert sorted(Player.objects.values_list("last_name", "event__format")) == [
        ("Fifteen", "junior"),
        ("Sixteen", "championship"),
    ]
