"""Event creation rules and the demo-data command."""

import datetime
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.utils import timezone

from demo.event import load_demo_event
from scoring.models import TableSheet
from tournament.models import Event
from tournament.services import event_create

VALID = {
    "name": "Harbour Cup",
    "organization": "Boardwalk Club",
    "venue": "Pier Hall",
    "date": datetime.date(2030, 6, 1),
    "start_time": datetime.time(10, 0),
}


@pytest.mark.django_db
def test_event_create_applies_defaults():
    event = event_create(**VALID)
    assert event.pk is not None
    assert event.edition == "classic-us"
    assert event.format == "championship"
    assert (event.round_minutes, event.preliminary_rounds) == (90, 3)
    assert str(event) == "Harbour Cup"


@pytest.mark.django_db
def test_event_create_rejects_unknown_format():
    with pytest.raises(ValidationError) as excinfo:
        event_create(**VALID, format="speed-chess")
    assert "format" in excinfo.value.message_dict
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_event_create_rejects_zero_length_rounds():
    with pytest.raises(ValidationError) as excinfo:
        event_create(**VALID, round_minutes=0)
    assert "round_minutes" in excinfo.value.message_dict


@pytest.mark.django_db
def test_events_are_listed_newest_first():
    older = event_create(**{**VALID, "name": "Older", "date": datetime.date(2029, 1, 1)})
    newer = event_create(**{**VALID, "name": "Newer", "date": datetime.date(2031, 1, 1)})
    assert list(Event.objects.all()) == [newer, older]


@pytest.mark.django_db
def test_load_demo_is_idempotent():
    first = StringIO()
    call_command("load_demo", stdout=first)
    # The championship, with a club knockout and a junior event beside it, and the small
    # series: two regionals and two junior regionals, with their two finals.
    assert sorted(Event.objects.values_list("format", flat=True)) == (
        ["championship"] * (1 + 2 + 1) + ["club"] + ["junior"] * (1 + 2 + 1)
    )
    demo = Event.objects.get(name="Boardwalk Demo Open")
    assert demo.format == "championship"
    assert demo.organization == "Boardwalk Club"
    assert demo.venue == "Community Hall"
    # The demo day has been played: it ends as it is loaded, so it started today or,
    # loaded just after midnight, yesterday.
    assert demo.starts_at <= timezone.now()
    assert timezone.localdate() - demo.date <= datetime.timedelta(days=1)
    assert (demo.edition, demo.format) == ("classic-us", "championship")
    assert "Created demo event" in first.getvalue()
    assert "40 players and 3 alternates; 3 rounds posted; the final is seated." in (
        first.getvalue()
    )
    assert [r.kind for r in demo.rounds.order_by("number")] == ["preliminary"] * 3 + ["final"]

    second = StringIO()
    call_command("load_demo", stdout=second)
    assert Event.objects.count() == 3 + 6  # nothing new: the three events and the series' six
    assert demo.players.count() == 43
    assert demo.rounds.count() == 4
    assert "left the data alone" in second.getvalue()


@pytest.mark.django_db
def test_the_unplayed_demo_is_registered_and_pre_seated_only():
    demo = load_demo_event(play=False)
    assert demo.date == timezone.localdate() + datetime.timedelta(days=14)
    assert demo.start_time == datetime.time(10, 0)
    players = demo.players.all()
    assert players.filter(status="player").count() == 40
    alternates = players.filter(status="alternate").order_by("alternate_position")
    assert [a.alternate_position for a in alternates] == [1, 2, 3]
    # Families typed with different spacing and case still share one household.
    households = [h for h in players.values_list("household", flat=True) if h]
    assert {h: households.count(h) for h in set(households)} == {
        "marsh family": 3,
        "patel household": 2,
        "costa / silva": 2,
    }
    assert len({p.alias for p in players}) == players.count() == 43
    assert not players.exclude(checked_in_at=None).exists()
    # All three preliminary rounds are seated: ten tables of four, families apart, and
    # none has started.
    rounds = list(demo.rounds.all())
    assert len(rounds) == 3
    for round_ in rounds:
        assert not round_.has_started
        assert sorted(t.seats.count() for t in round_.tables.all()) == [4] * 10
        assert round_.seating_report["family_conflicts"] == 0
        assert round_.seating_report["repeat_meetings"] == 0
    assert not TableSheet.objects.exists()
    assert load_demo_event(play=False) is None


@pytest.mark.django_db
def test_load_demo_unplayed_option():
    out = StringIO()
    call_command("load_demo", "--unplayed", stdout=out)
    assert "40 players and 3 alternates; 0 rounds posted." in out.getvalue()
    assert not Event.objects.get().rounds.filter(started_at__isnull=False).exists()


@pytest.mark.django_db
def test_load_demo_leaves_existing_events_alone():
    event_create(**VALID)
    call_command("load_demo", stdout=StringIO())
    assert list(Event.objects.values_list("name", flat=True)) == ["Harbour Cup"]
