"""Registration rules, aliases, alternates, no-shows and ejections, at the service level."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given, settings
from hypothesis import strategies as st

from players.aliases import all_aliases, next_alias
from players.alternates import alternate_move
from players.services import (
    Registration,
    player_eject,
    player_mark_no_show,
    player_register,
    player_set_alias,
    player_withdraw,
    registration_is_open,
)
from tournament.models import Player
from tournament.services import event_create

EVENT_DAY = datetime.date(2030, 5, 18)


def make_event(**fields):
    base = {
        "name": "Spring Open",
        "organization": "Club",
        "venue": "Hall",
        "date": EVENT_DAY,
        "start_time": datetime.time(10, 0),
    }
    return event_create(**{**base, **fields})


def reg(first="Ann", last="Lee", born=datetime.date(1990, 1, 1), **extra):
    values = {
        "first_name": first,
        "last_name": last,
        "date_of_birth": born,
        "signature": f"{first} {last}",
        "eligibility_declared": True,
        "citizenship_declared": True,
    }
    return Registration(**{**values, **extra})


def register(event, *args, **kwargs):
    return player_register(
        event=event, registration=reg(*args, **kwargs), source=Player.Source.ON_THE_DAY
    )


def errors_of(excinfo):
    return excinfo.value.message_dict


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("format_key", "expected"),
    [
        ("championship", (3, 4, 16, None, 4, 5, True)),
        # Tournament Kit: "a minimum of three and a maximum of five players" (its example's "36
        # tables of six" the bracket planner seats where six save a round).
        ("club", (2, 6, 8, None, 3, 5, False)),
        # Championship Rules, JUNIOR: "between 8 and 16 years old (16+ qualify for the senior
        # tournament)".
        ("junior", (1, 1, 8, 15, 4, 5, False)),
    ],
)
def test_formats_fill_in_their_defaults(format_key, expected):
    event = make_event(format=format_key)
    assert (
        event.preliminary_rounds,
        event.advancing,
        event.minimum_age,
        event.maximum_age,
        event.table_size_min,
        event.table_size_max,
        event.citizenship_declaration,
    ) == expected


@pytest.mark.django_db
def test_the_organizer_overrides_a_default_and_international_play_runs_120_minutes():
    event = make_event(format="club", preliminary_rounds=3, international=True)
    assert (event.preliminary_rounds, event.round_minutes) == (3, 120)


@pytest.mark.django_db
def test_pre_registration_closes_three_days_before_by_default():
    event = make_event()
    closes = event.registration_closes
    assert closes.date() == EVENT_DAY - datetime.timedelta(days=3)
    assert registration_is_open(event=event, now=closes - datetime.timedelta(seconds=1))
    assert not registration_is_open(event=event, now=closes)


@pytest.mark.django_db
def test_age_is_judged_on_the_event_date():
    event = make_event()  # championship: at least 16
    sixteenth_birthday = datetime.date(2014, 5, 18)
    assert register(event, born=sixteenth_birthday).pk
    with pytest.raises(ValidationError) as excinfo:
        register(event, "Bo", "Young", born=sixteenth_birthday + datetime.timedelta(days=1))
    assert "at least 16" in errors_of(excinfo)["date_of_birth"][0]


@pytest.mark.django_db
def test_junior_event_has_an_upper_age_and_under_16s_need_a_guardian():
    # Championship Rules: juniors "between 8 and 16 years old (16+ qualify for the senior
    # tournament)".
    event = make_event(format="junior")
    with pytest.raises(ValidationError) as excinfo:
        register(event, born=datetime.date(2014, 5, 18))  # 16 on the day: a senior
    message = errors_of(excinfo)["date_of_birth"][0]
    assert "up to 15 (16 on the day)" in message and "senior championship" in message
    with pytest.raises(ValidationError) as excinfo:
        register(event, born=datetime.date(2020, 1, 1))  # 10 on the day
    assert set(errors_of(excinfo)) == {"guardian_name", "guardian_consent"}
    child = register(
        event, born=datetime.date(2020, 1, 1), guardian_name="Cam Lee", guardian_consent=True
    )
    assert child.travel_flag


@pytest.mark.django_db
def test_eligibility_and_citizenship_declarations_are_required():
    event = make_event()
    with pytest.raises(ValidationError) as excinfo:
        register(event, eligibility_declared=False, citizenship_declared=False)
    assert set(errors_of(excinfo)) == {"eligibility_declared", "citizenship_declared"}


@pytest.mark.django_db
def test_duplicates_by_email_or_by_name_and_birth_date():
    event = make_event()
    register(event, email="ann@example.org")
    with pytest.raises(ValidationError) as excinfo:
        register(event, "Other", "Person", email="ANN@example.org")
    assert "email" in errors_of(excinfo)
    with pytest.raises(ValidationError) as excinfo:
        register(event, "ann", "LEE")
    assert "__all__" in errors_of(excinfo)
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_full_event_turns_registrants_into_ordered_alternates():
    event = make_event(expected_players=2)
    players = [register(event, f"P{i}", "X") for i in range(5)]
    assert [p.status for p in players] == ["player"] * 2 + ["alternate"] * 3
    assert [p.alternate_position for p in players[2:]] == [1, 2, 3]


@pytest.mark.django_db
def test_no_show_gives_the_seat_to_the_next_alternate_and_the_list_moves_up():
    event = make_event(expected_players=2)
    seated, _, first, second, third = [register(event, f"P{i}", "X") for i in range(5)]
    stepped_in = player_mark_no_show(player=seated)
    assert stepped_in == first
    first.refresh_from_db()
    seated.refresh_from_db()
    assert (seated.status, first.status, first.replaces) == ("no_show", "player", seated)
    positions = dict(
        Player.objects.filter(status="alternate").values_list("first_name", "alternate_position")
    )
    assert positions == {"P3": 1, "P4": 2}
    with pytest.raises(ValidationError):
        player_mark_no_show(player=seated)  # already gone


@pytest.mark.django_db
def test_no_show_with_no_alternates_leaves_the_seat_empty():
    event = make_event()
    assert player_mark_no_show(player=register(event)) is None


@pytest.mark.django_db
def test_ejection_needs_a_reason_and_keeps_it():
    event = make_event()
    player = register(event)
    with pytest.raises(ValidationError):
        player_eject(player=player, reason="  ")
    player_eject(player=player, reason="Cheating at table 4")
    player.refresh_from_db()
    assert (player.status, player.status_reason) == ("ejected", "Cheating at table 4")
    assert player.status_changed_at is not None


@pytest.mark.django_db
def test_withdrawn_alternate_closes_the_gap_and_reordering_works():
    event = make_event(expected_players=1)
    _, a, b, c = [register(event, f"P{i}", "X") for i in range(4)]
    player_withdraw(player=b)
    alternate_move(player=c, to_position=1)
    order = list(
        Player.objects.filter(status="alternate")
        .order_by("alternate_position")
        .values_list("first_name", "alternate_position")
    )
    assert order == [("P3", 1), ("P1", 2)]


@pytest.mark.django_db
def test_aliases_are_unique_in_an_event_whatever_the_case():
    event = make_event()
    one = register(event, "A", "A")
    two = register(event, "B", "B")
    with pytest.raises(ValidationError):
        player_set_alias(player=two, alias=one.alias.upper())
    player_set_alias(player=two, alias="  Banker's Friend ")
    two.refresh_from_db()
    assert two.alias == "Banker's Friend"


@pytest.mark.django_db
def test_three_hundred_registrations_get_three_hundred_aliases():
    event = make_event(expected_players=400, minimum_age=0)
    for i in range(300):
        register(event, f"F{i}", "L")
    aliases = list(Player.objects.values_list("alias", flat=True))
    assert len(set(a.casefold() for a in aliases)) == 300


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(all_aliases()), max_size=300), st.text(max_size=10))
def test_next_alias_is_never_taken(taken, seed):
    alias = next_alias(taken=taken, seed=seed)
    assert alias.casefold() not in {t.casefold() for t in taken}
    assert next_alias(taken=taken, seed=seed) == alias
