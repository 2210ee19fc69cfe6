"""Round 1 is a draw: seeded, its seed on the round, redrawn before publishing.

Championship Rules, PLAYER ASSIGNMENTS: "All three preliminary rounds will be “pre-seated” with the
goal to have minimal repetition of competition between players while also preventing family
members from same-table seating whenever possible." Dealing round 1 in registration order
seats friends who register together first; the draw shuffles them before the engine seats
them, and the later rounds keep the goal above.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from seating.draw import drawn
from seating.redraw import round_redraw
from seating.services import preseat_event, round_publish
from tests.builders import event_with_players
from tests.seating.test_seating_pages import log_in
from tournament.models import Player, Round, Seat
from tournament.roles import ORGANIZER

SEEDS = (1, 2, 3)


@given(
    players=st.lists(st.integers(), unique=True, max_size=60),
    seed=st.integers(min_value=0, max_value=10**9),
)
@settings(max_examples=200, deadline=None)
def test_the_draw_is_a_permutation_reproducible_from_its_seed(players, seed):
    once = drawn(players=players, seed=seed)
    assert sorted(once) == sorted(players)
    assert drawn(players=players, seed=seed) == once


def round_tables(event, number=1) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    seats = Seat.objects.filter(round__event=event, round__number=number)
    for table, player in seats.values_list("table__number", "player_id"):
        tables.setdefault(table, []).append(player)
    return [sorted(t) for _n, t in sorted(tables.items())]


def consecutive_tables(event) -> int:
    """Round 1's tables seating two players registered one after the other."""
    order = {
        pk: index
        for index, pk in enumerate(Player.objects.order_by("pk").values_list("pk", flat=True))
    }
    return sum(
        any(abs(order[a] - order[b]) == 1 for a, b in combinations(table, 2))
        for table in round_tables(event)
    )


@pytest.mark.django_db
def test_round_1_of_40_players_is_not_dealt_in_registration_order():
    """Dealt in order, each of 10 tables of four seats three pairs of consecutive
    registrants: 30 of 30 tables over three events. Drawn, a table of four out of 40 holds
    such a pair about one time in three (6 pairs × 2/39), so about 10 of 30; the seeds are
    fixed, so the count is too, and half of dealing in order is far above it."""
    total = 0
    for seed in SEEDS:
        event = event_with_players(players=40, name=f"Draw {seed}")
        preseat_event(event=event, seed=seed, time_limit=5)
        assert sorted(p for t in round_tables(event) for p in t) == sorted(
            Player.objects.filter(event=event).values_list("pk", flat=True)
        )
        total += consecutive_tables(event)
        Player.objects.filter(event=event).update(status=Player.Status.WITHDRAWN)
    assert total <= 15


@pytest.mark.django_db
def test_the_seed_is_recorded_and_the_same_seed_gives_the_same_tables():
    event = event_with_players(players=20, name="Seeded")
    preseat_event(event=event, seed=4242, time_limit=5)
    first = round_tables(event)
    assert set(Round.objects.filter(event=event).values_list("draw_seed", flat=True)) == {4242}
    preseat_event(event=event, seed=4242, time_limit=5)
    assert round_tables(event) == first
    preseat_event(event=event, seed=4243, time_limit=5)
    assert round_tables(event) != first


@pytest.mark.django_db
def test_a_redraw_changes_round_1_and_later_rounds_still_avoid_rematches_and_families():
    """Championship Rules: "minimal repetition of competition between players while also preventing
    family members from same-table seating": 24 players, 3 rounds, no one meets twice."""
    event = event_with_players(
        players=24, name="Redraw", families={0: "lee", 1: "lee", 10: "ruiz", 11: "ruiz"}
    )
    preseat_event(event=event, seed=7, time_limit=5)
    before = round_tables(event)
    round_1 = Round.objects.get(event=event, number=1)
    round_redraw(round_=round_1, seed=8, time_limit=5)
    round_1.refresh_from_db()
    assert round_1.draw_seed == 8 and round_tables(event) != before
    households = dict(Player.objects.filter(event=event).values_list("pk", "household"))
    pairs = []
    for number in (1, 2, 3):
        for table in round_tables(event, number):
            for a, b in combinations(table, 2):
                pairs.append(frozenset((a, b)))
                assert not (households[a] and households[a] == households[b])
    assert len(pairs) == len(set(pairs)), "a pair met twice"


@pytest.mark.django_db
def test_the_redraw_button_only_before_publishing(client):
    event = event_with_players(players=12, name="Button")
    preseat_event(event=event, seed=1, time_limit=5)
    round_1 = Round.objects.get(event=event, number=1)
    client = log_in(client, ORGANIZER)
    page = client.get(reverse("seating:seating", kwargs={"pk": event.pk}))
    url = reverse("seating:seating_redraw", kwargs={"pk": event.pk, "round_number": 1})
    assert url.encode() in page.content and b"Drawn with seed 1." in page.content
    answer = client.post(url, follow=True)
    assert answer.status_code == 200
    round_1.refresh_from_db()
    assert round_1.draw_seed != 1 and b"drawn again" in answer.content
    round_publish(round_=round_1)
    page = client.get(reverse("seating:seating", kwargs={"pk": event.pk}))
    assert url.encode() not in page.content
    seed = round_1.draw_seed
    answer = client.post(url, follow=True)
    round_1.refresh_from_db()
    assert answer.status_code == 200 and round_1.draw_seed == seed
    assert b"published" in answer.content
    # Round 2 has no redraw: it is seated to avoid rematches.
    answer = client.post(
        reverse("seating:seating_redraw", kwargs={"pk": event.pk, "round_number": 2}),
        follow=True,
    )
    assert answer.status_code == 200 and b"Only round 1 is drawn" in answer.content
