"""The organizer's list of a series' Finals entrants: its order and what it loads.

Standings worked out by hand in ``series_helpers.three_tables`` from the points table
(Championship Rules: 19/10/5/3): at each regional I, E, A, B qualify (by rank), F and J
come next.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

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


def test_two_regionals_of_one_day_are_listed_one_after_the_other_and_no_other_series(series):
    """Two regionals on the same day: each one's qualifiers together, the one added first
    first, each by rank; a regional of another series (a rival's, in the same division)
    adds nobody to this list."""
    east, west = regional("East", day=10), regional("West", day=10)
    services.series_add_event(series=series, event=east)
    services.series_add_event(series=series, event=west)
    rival = services.series_create(name="Rival", season="2030")
    elsewhere = regional("Elsewhere", day=3)
    services.series_add_event(series=rival, event=elsewhere)
    e, w, x = enter(east, LETTERS), enter(west, LETTERS), enter(elsewhere, LETTERS)
    play_round(east, three_tables(e))
    play_round(west, three_tables(w))
    play_round(elsewhere, three_tables(x))
    listed = [
        entrant.player for entrant in selectors.entrants_ordered(series=series, division=SENIOR)
    ]
    assert listed == [e["I"], e["E"], e["A"], e["B"], w["I"], w["E"], w["A"], w["B"]]


def test_the_organizers_list_reads_each_entrants_regional_player_and_invitation_at_once(
    series, django_assert_num_queries
):
    """The list shows each entrant's regional, alias, Finals registration and invitation:
    loaded with the entrants in one query, however long the list (here after confirming,
    each entrant registered in the Finals)."""
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    invite_previous_winner(series)
    for entrant in Entrant.objects.filter(series=series, division=SENIOR):
        services.entrant_respond(entrant=entrant, accept=True, by=None)
    services.entrants_confirm(series=series, division=SENIOR, by=None)
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
    assert all(finals_alias for _, _, finals_alias, _ in shown)


def test_an_alternate_moved_up_keeps_who_recorded_the_decline_that_moved_them(series):
    """Each entrant's row keeps who last changed it: the organizer who records North's B
    declining is the one who moved F, the first alternate, up to B's place."""
    organizer = User.objects.create_user("organizer-north")
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    services.alternates_confirm(series=series, division=SENIOR, order=[p["F"].pk], by=None)
    declined = Entrant.objects.get(player=p["B"])
    services.entrant_respond(entrant=declined, accept=False, by=organizer)
    moved = Entrant.objects.get(player=p["F"])
    assert (moved.status, moved.rank, moved.changed_by) == ("qualifier", 5, organizer)
