"""A regional's cut at its edges, who each qualifier's row says made it, and the series'
people: who is linked, and how many.

Standings worked out by hand in ``series_helpers.three_tables`` from the points table
(Championship Rules: 19/10/5/3): I, E, A, B take a regional's 4 places.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from scoring.services.posting import round_post
from series import selectors, services
from series.models import SENIOR, Entrant, PersonLink
from tests.series.series_helpers import LETTERS, enter, play_round, regional, three_tables

pytestmark = pytest.mark.django_db


def test_a_regional_with_exactly_as_many_players_as_places_sends_them_all(series):
    """Four players for North's 4 places: the cut falls after the last of them."""
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, "ABCD")
    play_round(north, [{p["A"]: 4000, p["B"]: 3000, p["C"]: 2000, p["D"]: 1000}])
    listed = [
        (e.player, e.rank) for e in selectors.entrants_ordered(series=series, division=SENIOR)
    ]
    assert listed == [(p["A"], 1), (p["B"], 2), (p["C"], 3), (p["D"], 4)]


def test_the_qualifiers_rows_keep_who_posted_the_round_that_sent_them(series):
    """Each entrant's row keeps who last changed it: North's qualifiers were made by the
    head judge posting its last round."""
    head_judge = User.objects.create_user("head-judge-north")
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    round_post(round_=play_round(north, three_tables(p), post=False), by=head_judge)
    made_by = {e.player: e.changed_by for e in Entrant.objects.filter(series=series)}
    assert made_by == {p[k]: head_judge for k in "IEAB"}


def test_people_are_the_series_own_linked_once_and_counted(series):
    """The series' people: every registration of its regionals linked once (by email, however
    capitalised), a later one with a known email joining that person, none of another
    event's; ``persons_sync`` says how many it linked each time."""
    north, south = regional("North", day=10), regional("South", day=17)
    outside = regional("Club night", day=12)
    services.series_add_event(series=series, event=north)
    n = enter(north, "ABC", emails={"A": "Ann@Example.org"})
    o = enter(outside, "AB", emails={"A": "ann@example.org"})
    assert services.persons_sync(series=series) == 3
    assert services.persons_sync(series=series) == 0
    services.series_add_event(series=series, event=south)
    s = enter(south, "AB", emails={"A": "ANN@example.org "})
    assert services.persons_sync(series=series) == 2
    ann = PersonLink.objects.get(player=n["A"]).person
    assert PersonLink.objects.get(player=s["A"]).person == ann
    assert PersonLink.objects.get(player=s["B"]).person != ann
    assert not PersonLink.objects.filter(player__in=o.values()).exists()


def test_regionals_qualify_in_date_order_not_in_the_order_they_were_created(series):
    """South (17 April) was created before North (10 April): North still qualifies first,
    so the person in both takes North's place and South's next player moves up."""
    south = regional("South", day=17)
    north = regional("North", day=10)
    services.series_add_event(series=series, event=south)
    services.series_add_event(series=series, event=north)
    ps = enter(south, LETTERS, emails={"E": "twice@example.org"})
    pn = enter(north, LETTERS, emails={"A": "Twice@Example.org"})
    play_round(north, three_tables(pn))
    play_round(south, three_tables(ps))
    assert [m.event for m in selectors.regionals(series=series, division=SENIOR)] == [north, south]
    held = {e.player for e in Entrant.objects.filter(series=series)}
    assert held == {pn[k] for k in "IEAB"} | {ps[k] for k in "IABF"}
