"""The organizer's list of a series' Finals entrants: its order and what it loads.

Standings worked out by hand in ``series_helpers.three_tables`` from the points table
(Championship Rules: 19/10/5/3): at each regional I, E, A, B qualify (by rank), F and J
come next.
"""

from __future__ import annotations

import pytest

from series import selectors, services
from series.models import SENIOR, Entrant
from tests.series.series_helpers import (
    LETTERS,
    enter,
    invite_previous_winner,
    play_round,
    regional,
    three_tables,
)

pytestmark = pytest.mark.django_db


def test_the_organizers_list_runs_by_regional_date_and_rank_then_invited_alternates_declined(
    series,
):
    """The Finals' entrants as the organizer's list shows them: the qualifiers regional by
    regional in the order of the regionals' dates (South, the 17th, was added and played
    first; North, the 10th, still comes first), each regional's by rank; then the invited,
    the alternates in the organizer's order (not by rank), the declined last.

    North's winner I declines: the place passes to North's next player, F (rank 5), an
    alternate until then, and the alternates close up (South's J and F, in that order)."""
    south, north = regional("South", day=17), regional("North", day=10)
    services.series_add_event(series=series, event=south)
    services.series_add_event(series=series, event=north)
    s = enter(south, LETTERS)
    play_round(south, three_tables(s))
    n = enter(north, LETTERS)
    play_round(north, three_tables(n))
    invited = invite_previous_winner(series)
    services.alternates_confirm(
        series=series, division=SENIOR, order=[s["J"].pk, n["F"].pk, s["F"].pk], by=None
    )
    services.entrant_respond(entrant=Entrant.objects.get(player=n["I"]), accept=False, by=None)
    rows = [
        (e.player, e.status, e.rank, e.alternate_position)
        for e in selectors.entrants_ordered(series=series, division=SENIOR)
    ]
    assert rows == [
        (n["E"], "qualifier", 2, None),
        (n["A"], "qualifier", 3, None),
        (n["B"], "qualifier", 4, None),
        (n["F"], "qualifier", 5, None),
        (s["I"], "qualifier", 1, None),
        (s["E"], "qualifier", 2, None),
        (s["A"], "qualifier", 3, None),
        (s["B"], "qualifier", 4, None),
        (None, "invited", None, None),
        (s["J"], "alternate", 6, 1),
        (s["F"], "alternate", 5, 2),
        (n["I"], "declined", 1, None),
    ]
    assert selectors.entrants_ordered(series=series, division=SENIOR)[8].pk == invited.pk


def test_the_organizers_list_reads_each_entrants_regional_player_and_invitation_at_once(
    series, django_assert_num_queries
):
    """The list shows each entrant's regional, alias, Finals registration and invitation:
    loaded with the entrants in one query, however long the list."""
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    invite_previous_winner(series)
    with django_assert_num_queries(1):
        shown = [
            (
                e.source and e.source.event.name,
                e.player and e.player.alias,
                e.finals_player and e.finals_player.alias,
                getattr(getattr(e, "invitation", None), "message", None),
            )
            for e in selectors.entrants_ordered(series=series, division=SENIOR)
        ]
    assert len(shown) == 5
