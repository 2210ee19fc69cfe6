"""The waiting list (part 3): Championship Rules, ALTERNATES, "three alternate positions
will be secured". Registrants beyond the places and the event's alternates wait, are told so, are
shown apart, are never seated, checked in or public, and move up only when the organizer
promotes them (with a confirmation, undone while nothing depends on it).
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.urls import reverse

from players.csv_io import import_registrations, registrations_for_export
from players.selectors import player_search
from players.services import Registration, player_check_in, player_register, player_withdraw
from players.waiting_services import waiting_promote, waiting_return
from seating.services import preseat_event, round_publish, seating_roster
from spectator.following import followable_aliases
from spectator.selectors import Release
from tournament.models import Event, Player
from tournament.roles import ORGANIZER
from tournament.services import event_create


@pytest.fixture(autouse=True)
def clean_cache():
    cache.clear()
    yield
    cache.clear()


def make_event(places: int = 8, **fields) -> Event:
    return event_create(
        name="Waiting Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2031, 3, 1),
        start_time=datetime.time(10, 0),
        expected_players=places,
        **fields,
    )


def register(event: Event, n: int, **extra) -> Player:
    return player_register(
        event=event,
        registration=Registration(
            first_name=f"Person{n}",
            last_name="Queue",
            date_of_birth=datetime.date(1990, 1, 1),
            signature=f"Person{n} Queue",
            eligibility_declared=True,
            citizenship_declared=True,
            email=f"p{n}@example.org",
        ),
        **extra,
    )


def statuses(event: Event) -> list[tuple[str, int | None, int | None]]:
    return list(
        Player.objects.filter(event=event)
        .order_by("pk")
        .values_list("status", "alternate_position", "waiting_position")
    )


@pytest.fixture
def org_client(client, db):
    user = User.objects.create_user("olive", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_thirteen_registrants_for_eight_places_make_three_alternates_and_two_waiting():
    # A report: "Today 13 registrants for 8 places made 5 alternates." The championship
    # secures three (Championship Rules, ALTERNATES); the other two wait, in registration order.
    event = make_event(8)
    assert event.alternates == 3
    people = [register(event, n) for n in range(13)]
    assert statuses(event) == [
        *[("player", None, None)] * 8,
        ("alternate", 1, None),
        ("alternate", 2, None),
        ("alternate", 3, None),
        ("waiting", None, 1),
        ("waiting", None, 2),
    ]
    # An alternate withdraws: the freed position is the organizer's to give, so the next
    # person to register still waits behind the two already waiting.
    player_withdraw(player=people[8])
    late = register(event, 13)
    assert (late.status, late.waiting_position) == ("waiting", 3)
    alternates = Player.objects.filter(status="alternate").order_by("alternate_position")
    assert [p.pk for p in alternates] == [people[9].pk, people[10].pk]
    assert [p.alternate_position for p in alternates] == [1, 2]


@pytest.mark.django_db
def test_promotion_goes_to_a_free_place_first_then_to_the_end_of_the_alternates():
    event = make_event(2, alternates=1)
    a, b, alt, w1, w2 = (register(event, n) for n in range(5))
    assert (alt.status, w1.waiting_position, w2.waiting_position) == ("alternate", 1, 2)
    # Every place taken: the end of the alternates, even beyond the one the event secures.
    w2 = waiting_promote(player=w2)
    assert (w2.status, w2.alternate_position) == ("alternate", 2)
    w1.refresh_from_db()
    assert w1.waiting_position == 1
    # A player withdraws: the next promotion is to the free place.
    player_withdraw(player=a)
    w1 = waiting_promote(player=w1)
    assert (w1.status, w1.alternate_position, w1.waiting_position) == ("player", None, None)
    with pytest.raises(ValidationError, match="not on the waiting list"):
        waiting_promote(player=w1)


@pytest.mark.django_db
def test_undoing_a_promotion_puts_them_back_in_registration_order_until_they_are_seated():
    event = make_event(4, alternates=0)
    people = [register(event, n) for n in range(7)]
    first, second, third = people[4:]
    assert [p.waiting_position for p in (first, second, third)] == [1, 2, 3]
    player_withdraw(player=people[0])
    second = waiting_promote(player=second)
    assert second.status == "player"
    first.refresh_from_db()
    third.refresh_from_db()
    assert (first.waiting_position, third.waiting_position) == (1, 2)
    # Undone: second registered before third, so number 2 again.
    second = waiting_return(player=second)
    assert (second.status, second.waiting_position) == ("waiting", 2)
    third.refresh_from_db()
    assert third.waiting_position == 3
    # Promoted again and seated in a round: the tables depend on it now.
    second = waiting_promote(player=second)
    preseat_event(event=event, only_checked_in=False, time_limit=1)
    with pytest.raises(ValidationError, match="seated in a round"):
        waiting_return(player=second)


@pytest.mark.django_db
def test_nobody_waiting_is_checked_in_seated_searched_or_public():
    event = make_event(4, alternates=0)
    for n in range(4):
        register(event, n)
    waiting = register(event, 4)
    assert waiting.status == "waiting"
    with pytest.raises(ValidationError, match="cannot check in"):
        player_check_in(player=waiting)
    assert waiting not in seating_roster(event=event, only_checked_in=False)
    assert waiting not in player_search(event=event, query="")
    preseat_event(event=event, only_checked_in=False, time_limit=1)
    round_publish(round_=event.rounds.get(number=1))
    aliases = followable_aliases(event_pk=event.pk, release=Release(tables=True, standings=True))
    assert len(aliases) == 4 and waiting.alias not in aliases


@pytest.mark.django_db
def test_withdrawing_from_the_waiting_list_closes_the_gap():
    event = make_event(1, alternates=0)
    register(event, 0)
    w1, w2, w3 = (register(event, n) for n in (1, 2, 3))
    player_withdraw(player=w2)
    w1.refresh_from_db()
    w3.refresh_from_db()
    assert (w1.waiting_position, w3.waiting_position) == (1, 2)


@pytest.mark.django_db
def test_the_public_form_says_so_before_and_after(client):
    event = make_event(1, alternates=0)
    register(event, 0)
    url = reverse("players:register", kwargs={"pk": event.pk})
    assert "you join the waiting list" in client.get(url).content.decode()
    data = {
        "first_name": "Wanda",
        "last_name": "Wait",
        "date_of_birth": "1990-12-10",
        "eligibility_declared": "on",
        "citizenship_declared": "on",
        "signature": "Wanda Wait",
    }
    response = client.post(url, data, follow=True)
    body = response.content.decode()
    assert "You are on the waiting list" in body and "waiting list as number 1" in body
    assert Player.objects.get(first_name="Wanda").status == "waiting"


@pytest.mark.django_db
def test_the_organizer_sees_the_waiting_list_apart_and_promotes_with_a_confirmation(org_client):
    event = make_event(2, alternates=1)
    for n in range(3):
        register(event, n)
    waiting = register(event, 3, source=Player.Source.ON_THE_DAY)
    players = reverse("players:player_list", kwargs={"pk": event.pk})
    body = org_client.get(players).content.decode()
    section = body[body.index('id="waiting"') :]
    assert waiting.alias in section and "Person3 Queue" in section
    assert waiting.alias not in body[body.index('id="alternates"') : body.index('id="waiting"')]

    promote = reverse("players:waiting_promote", kwargs={"pk": event.pk, "player_pk": waiting.pk})
    confirm = org_client.get(promote).content.decode()
    assert "alternate number 2" in confirm and "back to the waiting list" in confirm
    waiting.refresh_from_db()
    assert waiting.status == "waiting"  # the GET only asks

    response = org_client.post(promote, follow=True)
    waiting.refresh_from_db()
    assert (waiting.status, waiting.alternate_position) == ("alternate", 2)
    assert "is now alternate number 2" in response.content.decode()
    back = reverse("players:waiting_return", kwargs={"pk": event.pk, "player_pk": waiting.pk})
    assert back in response.content.decode()

    response = org_client.post(back, follow=True)
    waiting.refresh_from_db()
    assert (waiting.status, waiting.waiting_position) == ("waiting", 1)
    assert "back on the waiting list, number 1" in response.content.decode()


@pytest.mark.django_db
def test_a_csv_import_beyond_the_alternates_waits_and_the_export_keeps_the_order():
    event = make_event(1, alternates=1)
    text = (
        "first_name,last_name,date_of_birth,eligibility_declared,citizenship_declared\n"
        + "".join(f"Row{n},Import,1980-01-0{n + 1},yes,yes\n" for n in range(4))
    )
    result = import_registrations(event=event, text=text)
    assert result.ok and result.created == 4
    exported = [(p.first_name, p.status) for p in registrations_for_export(event=event)]
    assert exported == [
        ("Row0", "player"),
        ("Row1", "alternate"),
        ("Row2", "waiting"),
        ("Row3", "waiting"),
    ]
    assert [p.waiting_position for p in Player.objects.filter(status="waiting")] == [1, 2]
