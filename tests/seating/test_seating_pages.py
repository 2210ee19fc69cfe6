"""The seating pages: pre-seat, publish, change seats at a price, start a round, roll.

Each test goes through the pages as an official would, and checks the database (not
only the HTML) so a page that says "done" without doing it fails.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.urls import reverse

from players.services import player_check_in, player_mark_no_show
from seating.services import preseat_event, round_start
from tests.builders import an_event, event_with_players, registered_players
from tests.url_names import qualified
from tournament.models import Player, Round, Seat, Table
from tournament.roles import HEAD_JUDGE, JUDGE, ORGANIZER

# People whose names cannot appear on a page by accident.
PIER_OPEN = {
    "name": "Pier Open",
    "date": datetime.date(2031, 3, 1),
    "first_name": "Firstname{n:02d}",
    "last_name": "Lastname{n:02d}",
    "signature": "{first_name} {last_name}",
}


def log_in(client, role: str):
    user, _created = User.objects.get_or_create(username=f"{role.lower().replace(' ', '-')}-user")
    user.groups.add(Group.objects.get(name=role))
    client.force_login(user)
    return client


def seats_of(event, number: int) -> dict[int, tuple[int, int]]:
    """player id -> (table number, position) in round ``number``."""
    return {
        seat.player_id: (seat.table.number, seat.position)
        for seat in Seat.objects.filter(round__event=event, round__number=number).select_related(
            "table"
        )
    }


def url(name: str, event, **kwargs) -> str:
    return reverse(qualified(name), kwargs={"pk": event.pk, **kwargs})


@pytest.mark.django_db
def test_an_organizer_pre_seats_every_round_from_the_page(client):
    event = event_with_players(players=12, **PIER_OPEN)
    late = Player.objects.get(first_name="Firstname00")
    Player.objects.filter(pk=late.pk).update(checked_in_at=None)
    client = log_in(client, ORGANIZER)

    response = client.post(url("seating_preseat", event), {"seed": "3"})
    assert response.status_code == 302
    assert sorted(Round.objects.filter(event=event).values_list("number", flat=True)) == [1, 2, 3]
    assert len(seats_of(event, 1)) == 11  # the late arrival is not seated...
    assert late.pk not in seats_of(event, 1)

    client.post(url("seating_preseat", event), {"include_unchecked": "on"})
    assert len(seats_of(event, 1)) == 12  # ...unless the organizer asks for everyone.

    page = client.get(url("seating", event)).content.decode()
    player = Player.objects.get(first_name="Firstname05")
    assert player.alias in page and player.full_name in page  # officials see both
    assert "as good as possible" in page  # 12 players, 3 rounds: no repeats needed
    assert "not checked in" in page  # the late arrival, seated on request, is flagged
    for number in (1, 2, 3):  # one round at a time, each behind its tab
        assert f'href="?round={number}"' in page
        one = client.get(url("seating", event), {"round": number}).content.decode()
        assert f'id="round-{number}"' in one
        assert {f'id="round-{n}"' in one for n in (1, 2, 3) if n != number} == {False}


@pytest.mark.django_db
def test_a_bad_seed_or_too_few_players_is_a_message_not_an_error(client):
    event = event_with_players(players=3, **PIER_OPEN)
    client = log_in(client, ORGANIZER)
    response = client.post(url("seating_preseat", event), {"seed": "-1"}, follow=True)
    assert "whole number" in response.content.decode()
    response = client.post(url("seating_preseat", event), {}, follow=True)
    assert "cannot fill a table" in response.content.decode()
    assert not Seat.objects.exists()


@pytest.mark.django_db
def test_published_tables_show_aliases_only_and_unpublished_ones_say_not_yet(client):
    """The organizer's publish button and the spectator page agree (tables released)."""
    from spectator.services import release_set

    event = event_with_players(players=9, **PIER_OPEN)
    preseat_event(event=event, time_limit=2)
    release_set(event=event, pages={"home": True, "tables": True}, by=None)
    public = reverse("spectator:tables", kwargs={"pk": event.pk, "number": 1})
    not_yet = "Nothing is posted here yet."
    assert not_yet in client.get(public).content.decode()

    organizer = log_in(client, ORGANIZER)
    response = organizer.post(url("seating_publish", event, round_number=1), {"published": "1"})
    assert response.status_code == 302
    organizer.logout()

    response = client.get(public)
    assert response.status_code == 200
    html = response.content.decode()
    assert not_yet not in html
    for player in Player.objects.filter(event=event):
        assert player.alias in html
        assert player.first_name not in html and player.last_name not in html
    assert "Firstname" not in html and "Lastname" not in html
    # Round 2 is seated but not published.
    round_2 = reverse("spectator:tables", kwargs={"pk": event.pk, "number": 2})
    assert not_yet in client.get(round_2).content.decode()
    home = client.get(event.get_absolute_url()).content.decode()
    assert public in home
    assert round_2 not in home

    organizer = log_in(client, ORGANIZER)
    organizer.post(url("seating_publish", event, round_number=1), {"published": "0"})
    organizer.logout()
    assert not_yet in client.get(public).content.decode()


def _repeat_making_swap(event) -> tuple[int, int]:
    """Two round-2 players whose swap makes two round-1 tablemates meet again."""
    tables_1: dict[int, list[int]] = {}
    for player_id, (table, _position) in seats_of(event, 1).items():
        tables_1.setdefault(table, []).append(player_id)
    round_2 = seats_of(event, 2)
    a, c = tables_1[1][0], tables_1[1][1]
    b = next(p for p, (table, _pos) in round_2.items() if table == round_2[c][0] and p != c)
    return a, b


@pytest.mark.django_db
def test_a_swap_shows_its_cost_and_changes_nothing_until_confirmed(client):
    event = event_with_players(players=16, **PIER_OPEN)
    preseat_event(event=event, time_limit=2)
    a, b = _repeat_making_swap(event)
    before = seats_of(event, 2)
    client = log_in(client, JUDGE)
    change = url("seating_change", event, round_number=2)
    assert client.get(change).status_code == 200

    response = client.post(change, {"player": a, "swap_with": b})
    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r"This adds [1-9]\d* repeat meetings? and 0 family conflicts", html)
    assert 'name="confirm" value="1"' in html
    assert seats_of(event, 2) == before  # priced, not made

    response = client.post(change, {"player": a, "swap_with": b, "confirm": "1"})
    assert response.status_code == 302
    after = seats_of(event, 2)
    assert (after[a], after[b]) == (before[b], before[a])
    assert "have swapped seats" in client.get(response.url).content.decode()


@pytest.mark.django_db
def test_a_free_swap_says_it_costs_nothing(client):
    event = event_with_players(players=8, **PIER_OPEN)
    preseat_event(event=event, time_limit=2)
    round_1 = seats_of(event, 1)
    # Two players at the same table trade seats: nobody meets anyone new.
    a, b = [p for p, (table, _pos) in round_1.items() if table == 1][:2]
    client = log_in(client, ORGANIZER)
    response = client.post(
        url("seating_change", event, round_number=1), {"player": a, "swap_with": b}
    )
    assert "costs nothing" in response.content.decode()


@pytest.mark.django_db
def test_a_move_that_breaks_the_size_rule_shows_the_message_and_keeps_the_choices(client):
    # four tables of four: any single move leaves a table of three
    event = event_with_players(players=16, **PIER_OPEN)
    preseat_event(event=event, time_limit=2)
    before = seats_of(event, 1)
    mover = next(p for p, (table, _pos) in before.items() if table == 1)
    client = log_in(client, JUDGE)
    change = url("seating_change", event, round_number=1)
    for data in ({"player": mover, "to_table": 2}, {"player": mover, "to_table": 2, "confirm": 1}):
        response = client.post(change, data)
        html = response.content.decode()
        assert response.status_code == 200
        assert "Tables must keep 4 to 5 players" in html
        assert f'<option value="{mover}" selected>' in html
        assert '<option value="2" selected>' in html
        assert 'name="confirm" value="1"' not in html  # nothing to confirm
        assert seats_of(event, 1) == before


@pytest.mark.django_db
def test_a_legal_move_is_priced_then_made(client):
    event = event_with_players(players=17, **PIER_OPEN)  # 5 + 4 + 4 + 4
    preseat_event(event=event, time_limit=2)
    five = next(t for t in Table.objects.filter(round__number=1) if t.seats.count() == 5)
    four = next(t for t in Table.objects.filter(round__number=1) if t.seats.count() == 4)
    mover = five.seats.first().player_id
    client = log_in(client, ORGANIZER)
    change = url("seating_change", event, round_number=1)
    response = client.post(change, {"player": mover, "to_table": four.number})
    assert "confirm" in response.content.decode()
    assert seats_of(event, 1)[mover][0] == five.number
    client.post(change, {"player": mover, "to_table": four.number, "confirm": "1"})
    assert seats_of(event, 1)[mover][0] == four.number


@pytest.mark.django_db
def test_the_form_asks_for_exactly_one_kind_of_change(client):
    event = event_with_players(players=8, **PIER_OPEN)
    preseat_event(event=event, time_limit=2)
    a, b = list(seats_of(event, 1))[:2]
    client = log_in(client, JUDGE)
    change = url("seating_change", event, round_number=1)
    for data in ({"player": a}, {"player": a, "swap_with": b, "to_table": 2}):
        assert "either a player to swap" in client.post(change, data).content.decode()
    assert (
        "two different players"
        in client.post(change, {"player": a, "swap_with": a}).content.decode()
    )


@pytest.mark.django_db
def test_a_started_round_refuses_changes(client):
    event = event_with_players(players=8, **PIER_OPEN)
    preseat_event(event=event, time_limit=2)
    round_start(round_=Round.objects.get(event=event, number=1))
    a, b = list(seats_of(event, 1))[:2]
    before = seats_of(event, 1)
    client = log_in(client, JUDGE)
    response = client.post(
        url("seating_change", event, round_number=1), {"player": a, "swap_with": b, "confirm": 1}
    )
    assert "seats can no longer change" in response.content.decode()
    assert seats_of(event, 1) == before


@pytest.mark.django_db
def test_a_head_judge_starts_a_round_and_the_first_alternate_replaces_a_no_show(client):
    event = event_with_players(players=8, extra_players=2, **PIER_OPEN)
    preseat_event(event=event, time_limit=2)
    round_1 = Round.objects.get(event=event, number=1)
    gone = Seat.objects.get(round=round_1, table__number=1, position=1).player
    first_alternate = Player.objects.get(event=event, alternate_position=1)
    player_check_in(player=first_alternate)
    player_mark_no_show(player=gone)

    judge = log_in(client, JUDGE)
    assert judge.post(url("seating_start", event, round_number=1)).status_code == 403
    judge.logout()

    head_judge = log_in(client, HEAD_JUDGE)
    change_page = head_judge.get(url("seating_change", event, round_number=1)).content.decode()
    assert url("seating_start", event, round_number=1) in change_page
    # 002: "Use of alternates is at the discretion of the Head Judge": the start is refused
    # while the seat is undecided, and the head judge lands on the round's start page.
    refused = head_judge.post(url("seating_start", event, round_number=1), follow=True)
    assert refused.redirect_chain[-1][0] == url("seating_vacancies", event, round_number=1)
    assert "1 empty seat to decide first" in refused.content.decode()
    assert not Round.objects.get(pk=round_1.pk).has_started
    response = head_judge.post(
        url("seating_vacancies_decide", event, round_number=1), {"choice": "fill"}, follow=True
    )
    html = response.content.decode()
    assert "The alternates took the empty seats in their order." in html
    assert (
        f"{first_alternate.alias} ({first_alternate.full_name}) takes the seat of "
        f"{gone.alias} ({gone.full_name})"
    ) in html
    response = head_judge.post(url("seating_start", event, round_number=1), follow=True)
    assert "Round 1 has started" in response.content.decode()
    round_1.refresh_from_db()
    assert round_1.has_started
    assert Seat.objects.get(round=round_1, table__number=1, position=1).player == first_alternate


@pytest.mark.django_db
def test_fill_vacancies_now_seats_the_alternate_without_starting(client):
    event = event_with_players(players=8, extra_players=1, **PIER_OPEN)
    preseat_event(event=event, time_limit=2)
    gone = Seat.objects.get(round__number=1, table__number=2, position=3).player
    player_mark_no_show(player=gone)
    client = log_in(client, ORGANIZER)
    response = client.post(url("seating_fill_vacancies", event, round_number=1), follow=True)
    alternate = Player.objects.get(event=event, first_name="Firstname08")
    assert f"{alternate.alias} ({alternate.full_name}) takes the seat" in response.content.decode()
    assert Seat.objects.get(round__number=1, table__number=2, position=3).player == alternate
    assert not Round.objects.get(event=event, number=1).has_started


@pytest.mark.django_db
def test_rolling_for_a_table_shows_token_and_play_order_by_alias(client):
    event = event_with_players(players=8, **PIER_OPEN)
    preseat_event(event=event, time_limit=2)
    client = log_in(client, ORGANIZER)
    page = client.get(url("seating", event)).content.decode()
    assert "Roll for token and play order" in page and "Play order" not in page

    response = client.post(url("seating_roll", event, round_number=1, table_number=1))
    assert response.status_code == 302 and response.url.endswith("#round-1-table-1")
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    stored = table.play_order
    assert sorted(stored["play_order"]) == sorted(table.seats.values_list("player_id", flat=True))

    page = client.get(url("seating", event)).content.decode()
    card = page[page.index('id="round-1-table-1"') :]
    card = card[: card.index("</article>")]
    assert "Token choice" in card and "Play order" in card
    listed = card[card.index('class="play-order-list"') :]
    aliases = [Player.objects.get(pk=pk).alias for pk in stored["play_order"]]
    positions = [listed.index(alias) for alias in aliases]
    assert positions == sorted(positions)  # in the rolled order
    first = stored["play_order"][0]
    assert f"rolled {', '.join(map(str, stored['order_rolls'][str(first)]))}" in listed
    # Rolled once: no second roll to fish for a better order.
    assert "Roll for token and play order" not in card


@pytest.mark.django_db
def test_the_seating_page_is_linked_from_the_organizers_pages(client):
    event = event_with_players(players=4, **PIER_OPEN)
    client = log_in(client, ORGANIZER)
    seating = url("seating", event)
    cockpit = reverse("cockpit:cockpit", kwargs={"pk": event.pk})
    assert cockpit in client.get(reverse("cockpit:events_home")).content.decode()
    assert seating in client.get(cockpit).content.decode()
    assert seating in client.get(url("player_list", event)).content.decode()
    assert "No round is seated yet" in client.get(seating).content.decode()


@pytest.mark.django_db
def test_the_organizer_gives_a_table_its_banker_and_records_the_tables_rolls(client):
    from seating.services import table_assign_banker

    event = _seated_event_for_bankers()
    organizer = User.objects.create_user("org", password="x")
    organizer.groups.add(Group.objects.get(name="Organizer"))
    banker = User.objects.create_user("bert", password="x")
    banker.groups.add(Group.objects.get(name="Banker"))
    judge = User.objects.create_user("jude", password="x")
    judge.groups.add(Group.objects.get(name="Judge"))
    client.force_login(organizer)
    base = f"/organizer/events/{event.pk}/seating/1/tables/1/"

    page = client.get(f"/organizer/events/{event.pk}/seating/").content.decode()
    assert "bert" in page and "jude" not in page  # only bankers are offered
    client.post(base + "banker/", {"banker": banker.pk})
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    assert table.banker == banker
    with pytest.raises(ValidationError):
        table_assign_banker(table=table, banker=judge)

    seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
    bad = {f"token_{p}": 1 for p in seats} | {"starter": seats[1]}
    response = client.post(base + "rolls/", bad, follow=True)
    assert "each number once" in response.content.decode()
    no_starter = {f"token_{p}": i for i, p in enumerate(seats, 1)}
    response = client.post(base + "rolls/", no_starter, follow=True)
    assert "rolled highest and starts" in response.content.decode()
    table.refresh_from_db()
    assert table.play_order == {}
    # Token choice in reverse seat order; the player in seat 2 rolled highest and starts,
    # then play passes to the left: seats 3, 4, 1 (Championship Rules, TOKEN ASSIGNMENT & GAME
    # START).
    good = {f"token_{p}": len(seats) - i for i, p in enumerate(seats)} | {"starter": seats[1]}
    client.post(base + "rolls/", good)
    table.refresh_from_db()
    assert table.play_order["source"] == "table"
    assert table.play_order["token_order"] == list(reversed(seats))
    assert table.play_order["play_order"] == [seats[1], seats[2], seats[3], seats[0]]


def _seated_event_for_bankers():
    event = an_event(name="Banker Cup")
    registered_players(
        event, count=8, checked_in=False, first_name="B{n}", last_name="Y", signature="y"
    )
    preseat_event(event=event, only_checked_in=False)
    return event


@pytest.mark.django_db
def test_a_re_seat_tapped_by_mistake_is_undone_with_its_bankers_and_publication(client):
    # Nothing irreversible on one tap; the re-seat keeps what it replaced.
    event = event_with_players(players=16, **PIER_OPEN)
    banker = User.objects.create_user("rosa", password="x")
    banker.groups.add(Group.objects.get(name="Banker"))
    client = log_in(client, ORGANIZER)
    client.post(url("seating_preseat", event), {"seed": "1"})
    page = client.get(url("seating", event)).content.decode()
    assert url("seating_reseat_undo", event) not in page  # a first seating replaces nothing
    client.post(url("seating_publish", event, round_number=1), {"published": "1"})
    a, b = _repeat_making_swap(event)  # a judge's move: the seating is not the engine's
    client.post(
        url("seating_change", event, round_number=2), {"player": a, "swap_with": b, "confirm": "1"}
    )
    client.post(url("seating_banker", event, round_number=2, table_number=3), {"banker": banker.pk})
    first = {n: seats_of(event, n) for n in (1, 2, 3)}

    client.post(url("seating_preseat", event), {"seed": "7"})
    assert {n: seats_of(event, n) for n in (1, 2, 3)} != first
    assert Table.objects.get(round__event=event, round__number=2, number=3).banker is None
    assert not Round.objects.get(event=event, number=1).assignments_published
    assert url("seating_reseat_undo", event) in client.get(url("seating", event)).content.decode()

    response = client.post(url("seating_reseat_undo", event), follow=True)
    assert "rounds 1, 2, 3 have their tables from before again" in response.content.decode()
    assert {n: seats_of(event, n) for n in (1, 2, 3)} == first
    assert Round.objects.get(event=event, number=1).assignments_published
    assert Table.objects.get(round__event=event, round__number=2, number=3).banker == banker
    # Once undone, there is nothing left to undo.
    response = client.post(url("seating_reseat_undo", event), follow=True)
    assert "There is no re-seat of all rounds to undo." in response.content.decode()


@pytest.mark.django_db
def test_a_re_seat_stands_once_a_seat_is_moved_or_a_round_starts(client):
    event = event_with_players(players=16, **PIER_OPEN)
    preseat_event(event=event, seed=1, time_limit=2)
    preseat_event(event=event, seed=2, time_limit=2)
    client = log_in(client, ORGANIZER)
    a, b = _repeat_making_swap(event)
    client.post(
        url("seating_change", event, round_number=2), {"player": a, "swap_with": b, "confirm": "1"}
    )
    moved = {n: seats_of(event, n) for n in (1, 2, 3)}
    response = client.post(url("seating_reseat_undo", event), follow=True)
    assert "Seats of round 2 have been changed since the re-seat" in response.content.decode()
    assert {n: seats_of(event, n) for n in (1, 2, 3)} == moved

    preseat_event(event=event, seed=3, time_limit=2)
    round_start(round_=Round.objects.get(event=event, number=1))
    response = client.post(url("seating_reseat_undo", event), follow=True)
    assert "Round 1 has started since, so the new seating stands." in response.content.decode()
