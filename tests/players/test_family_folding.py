"""Families are matched by their folded name: "The Lees" and "the lees " are one family.

People type their family as they like (Championship Rules: members of one family or household are
never seated at the same table); registration folds it into one household key, and every seating
step (the pre-seating, the judges' cost of a move) compares those keys, never the spelling.
"""

from __future__ import annotations

import pytest

from seating.services import preseat_event, seating_cost
from tests.builders import an_event, players_with_aliases, registered_players
from tests.scoring.scoring_helpers import make_round
from tournament.models import Player, Seat

LEES = {1: "The Lees", 2: "the lees ", 3: "  THE   LEES"}


@pytest.mark.django_db
def test_registration_folds_three_spellings_into_one_household():
    event = an_event(expected_players=8)
    people = registered_players(
        event, count=4, families={0: "The Lees", 1: "the lees ", 2: "  THE   LEES"}
    )
    households = [p.household for p in people]
    assert households[:3] == ["the lees"] * 3 and households[3] == ""
    # What they typed is kept (trimmed) for the organizer's list.
    assert [p.family for p in people[:3]] == ["The Lees", "the lees", "THE   LEES"]


@pytest.mark.django_db
def test_the_builders_make_a_family_spelled_differently_from_its_household():
    event = an_event()
    p = players_with_aliases(event, aliases=["Ann", "Bob", "Cy"], families=LEES)
    assert [(x.family, x.household) for x in p.values()] == [
        ("The Lees", "the lees"),
        ("the lees ", "the lees"),
        ("  THE   LEES", "the lees"),
    ]


@pytest.mark.django_db
def test_a_judges_seating_counts_two_spellings_at_one_table_as_a_family_conflict():
    event = an_event()
    p = players_with_aliases(
        event, aliases=list("ABCDEFGH"), families={1: "The Lees", 2: "the lees "}
    )
    # A and B (the Lees, spelled two ways) at table 1: one family conflict, by hand.
    make_round(event, 1, [[p[a] for a in "ABCD"], [p[a] for a in "EFGH"]])
    assert seating_cost(event=event).family_conflicts == 1
    # Apart, none.
    assert (
        seating_cost(
            event=event, replace={1: [[p[a].pk for a in "AECD"], [p[a].pk for a in "BFGH"]]}
        ).family_conflicts
        == 0
    )


@pytest.mark.django_db
def test_the_pre_seating_keeps_a_family_spelled_three_ways_apart():
    event = an_event(expected_players=12)
    people = players_with_aliases(
        event, aliases=[f"P{n:02}" for n in range(12)], checked_in=True, families=LEES
    )
    lees = {people["P00"].pk, people["P01"].pk, people["P02"].pk}
    preseat_event(event=event, seed=3, time_limit=2)
    tables = {}
    for seat in Seat.objects.filter(round__event=event):
        tables.setdefault((seat.round_id, seat.table_id), set()).add(seat.player_id)
    assert len({round_id for round_id, _t in tables}) == event.preliminary_rounds
    # 12 players at three tables of 4 can always hold three Lees at three tables.
    assert all(len(seated & lees) <= 1 for seated in tables.values())
    assert Player.objects.filter(event=event, household="the lees").count() == 3
