"""What the organizer's series page and the series' public pages read: each final's
regionals and their state, its list, its alternates, what holds confirmation back, the
people seen at more than one event, and the champion.

The requirement: "Organizer: a series overview (events, their state, qualifiers,
confirmations)". Every standing below is worked by hand from the points table (Championship
Rules, SCORING: four remaining 19/10/5/3) in ``series_helpers.three_tables``: at North I, E,
A qualify with 19 points, B (10 points, 3000 cash) is fourth, F (2900) fifth, J (2800) sixth.
"""

from __future__ import annotations

import datetime

import pytest

from series import selectors, services
from series.models import JUNIOR, SENIOR, Entrant, PersonLink
from tests.series.series_helpers import (
    LETTERS,
    enter,
    play_round,
    regional,
    three_tables,
)

pytestmark = pytest.mark.django_db


def _junior_table(p):
    """One junior table: the most assets win (Championship Rules, JUNIOR); B has 5000."""
    return [{p["A"]: 1000, p["B"]: 5000, p["C"]: 2000, p["D"]: 3000}]


def test_the_overview_shows_each_finals_regionals_list_alternates_and_what_is_missing(series):
    """North is played, South (later) is not; B declines North's fourth place, which passes
    to F (5th); J is the alternate. The Finals' page then says: North 1 of 1 round posted with
    I, E, A, F; South 0 of 1 and not finished; nobody has answered; nobody accepted yet. The
    junior final, its regional played and its one qualifier accepted and confirmed, is shown
    apart with its own list."""
    north, south = regional("North", day=10), regional("South", day=17)
    junior = regional("Junior North", day=10, fmt="junior")
    for event in (north, south, junior):
        services.series_add_event(series=series, event=event)
    p = enter(north, LETTERS)
    enter(south, "ABCD")
    pj = enter(junior, "ABCD")
    play_round(north, three_tables(p))
    play_round(junior, _junior_table(pj))
    services.entrant_respond(entrant=Entrant.objects.get(player=p["B"]), accept=False, by=None)
    services.alternates_confirm(series=series, division=SENIOR, order=[p["J"].pk], by=None)
    junior_b = Entrant.objects.get(player=pj["B"])
    services.entrant_respond(entrant=junior_b, accept=True, by=None)
    services.entrants_confirm(series=series, division=JUNIOR, by=None)

    finals, juniors = selectors.series_overview(series=series)

    assert (finals.key, finals.label, finals.finals) == (SENIOR, "Finals", series.finals)
    north_state, south_state = finals.regionals
    assert north_state.member.event == north and south_state.member.event == south
    assert (north_state.complete, north_state.posted, north_state.rounds) == (True, 1, 1)
    assert (south_state.complete, south_state.posted, south_state.rounds) == (False, 0, 1)
    # The declined B holds no place: North's qualifiers are those holding one, best first.
    assert [e.player for e in north_state.qualifiers] == [p[k] for k in "IEAF"]
    assert south_state.qualifiers == [] and north_state.tied == [] and south_state.tied == []
    assert [e.player for e in finals.entrants] == [p[k] for k in "IEAFB"]
    assert [e.player for e in finals.alternates] == [p["J"]]
    assert [e.player for e in finals.waiting] == [p[k] for k in "IEAF"]
    assert finals.confirmation is None
    assert finals.problems == [
        "South is not finished.",
        "4 entrants have not answered yet.",
        "Nobody has accepted a place yet.",
    ]

    assert (juniors.key, juniors.label, juniors.finals) == (
        JUNIOR,
        "Junior finals",
        series.junior_finals,
    )
    [junior_state] = juniors.regionals
    assert [e.player for e in junior_state.qualifiers] == [pj["B"]]
    assert [e.pk for e in juniors.entrants] == [junior_b.pk]
    assert juniors.alternates == [] and juniors.waiting == []
    assert juniors.confirmation is not None and juniors.confirmation.division == JUNIOR
    # Confirmed: what is left to say is that its event has its registrations.
    assert juniors.problems == ["The final's event already has registrations."]


def test_a_regional_with_a_tie_at_its_cut_says_so_on_the_overview(series):
    """Championship Rules, TIE BREAKERS exhausted: B, F and J are level on points, wins and net
    worth at fourth; the overview shows them as the tie waiting for the head judge."""
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p, b=3000, f=3000, j=3000))
    # Another series' accepted entrant is not this one's.
    _invite(services.series_create(name="Rival", season="2030"), "Rival", division=SENIOR)
    finals = selectors.series_overview(series=series)[0]
    [state] = finals.regionals
    assert state.complete and state.qualifiers == []
    assert {row.registered for row in state.tied} == {p["B"], p["F"], p["J"]}
    assert finals.problems == [
        "North: a tie at the cut waits for the head judge.",
        "Nobody has accepted a place yet.",
    ]


def test_an_alternate_who_qualifies_at_a_later_regional_takes_its_place_and_the_rest_close_up(
    series,
):
    """North's F is South's B (the same email): F is North's first alternate, J its second.
    At South (later) that person comes fourth (10 points, 3000 cash): an alternate may still
    qualify, so they take South's fourth place and J becomes the first alternate. South's
    qualifiers are listed by rank (I, E, A, then B), though B's place on the list is the
    older. Another series' alternates and this series' junior alternate keep their order."""
    north, south = regional("North", day=10), regional("South", day=17)
    junior = regional("Junior North", day=10, fmt="junior")
    for event in (north, south, junior):
        services.series_add_event(series=series, event=event)
    pn = enter(north, LETTERS)
    ps = enter(south, LETTERS, emails={"B": pn["F"].email})
    pj = enter(junior, "ABCD")
    play_round(north, three_tables(pn))
    play_round(junior, _junior_table(pj))
    services.alternates_confirm(
        series=series, division=SENIOR, order=[pn["F"].pk, pn["J"].pk], by=None
    )
    # The junior alternates: D (3000) then C (2000), after the qualifier B.
    services.alternates_confirm(
        series=series, division=JUNIOR, order=[pj["D"].pk, pj["C"].pk], by=None
    )
    rival = services.series_create(name="Rival", season="2030")
    east = regional("East", day=12)
    services.series_add_event(series=rival, event=east)
    services.series_event_set_places(member=rival.regionals.get(), places=1)
    pe = enter(east, "ABCD")
    play_round(east, [{pe["A"]: 4000, pe["B"]: 3000, pe["C"]: 2000, pe["D"]: 1000}])
    services.alternates_confirm(
        series=rival, division=SENIOR, order=[pe["B"].pk, pe["C"].pk], by=None
    )

    play_round(south, three_tables(ps))

    moved = Entrant.objects.get(person=PersonLink.objects.get(player=pn["F"]).person)
    assert (moved.status, moved.player, moved.rank, moved.alternate_position) == (
        "qualifier",
        ps["B"],
        4,
        None,
    )
    # The list names them by the alias and regional they qualified from.
    assert (moved.alias, moved.source.event) == (ps["B"].alias, south)
    _north, south_state = selectors.regional_states(series=series, division=SENIOR)
    assert [e.player for e in south_state.qualifiers] == [ps[k] for k in "IEAB"]

    def alternates(of, division=SENIOR):
        rows = Entrant.objects.filter(series=of, division=division, status="alternate")
        return sorted((e.alternate_position, e.player) for e in rows)

    assert alternates(series) == [(1, pn["J"])]
    assert alternates(series, JUNIOR) == [(1, pj["D"]), (2, pj["C"])]
    assert alternates(rival) == [(1, pe["B"]), (2, pe["C"])]


def test_a_declining_alternate_leaves_the_order_and_the_others_close_up(series):
    """Alternates in the organizer's order J, F, C (chosen again after a first order): F
    (second) declines and leaves the order; C becomes the second."""
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    # The organizer first chose C, F, J, then changed their mind: the new order replaces it.
    services.alternates_confirm(
        series=series, division=SENIOR, order=[p["C"].pk, p["F"].pk, p["J"].pk], by=None
    )
    services.alternates_confirm(
        series=series, division=SENIOR, order=[p["J"].pk, p["F"].pk, p["C"].pk], by=None
    )
    services.entrant_respond(entrant=Entrant.objects.get(player=p["F"]), accept=False, by=None)
    rows = Entrant.objects.filter(series=series, status="alternate").order_by("alternate_position")
    assert [(e.alternate_position, e.player) for e in rows] == [(1, p["J"]), (2, p["C"])]
    declined = Entrant.objects.get(player=p["F"])
    assert (declined.status, declined.alternate_position) == ("declined", None)


def test_the_people_page_lists_those_seen_at_more_than_one_event_first(series):
    """The series' people: a person seen at two events comes first, their registrations by
    the events' dates (North, 10 April, before South, 17 April, though South's registration
    was made first); then the others by email, one without an email last."""
    north, south = regional("North", day=10), regional("South", day=17)
    services.series_add_event(series=series, event=south)
    services.series_add_event(series=series, event=north)
    ps = enter(south, "A", emails={"A": "zed@example.org"})
    pn = enter(north, "AB", emails={"A": "Zed@Example.org", "B": "amy@example.org"})
    pn2 = enter(north, "C", emails={"C": "amy@example.org"})
    services.persons_sync(series=series)
    # North's C shares B's email but is someone else (a family address): split off, no email.
    services.person_split(series=series, player=pn2["C"])
    rows = selectors.people_rows(series=series)
    person = {
        player.pk: PersonLink.objects.get(player=player).person
        for player in (pn["A"], pn["B"], pn2["C"])
    }
    assert [(r.person_pk, r.email, r.players) for r in rows] == [
        (person[pn["A"].pk].pk, "zed@example.org", [pn["A"], ps["A"]]),
        (person[pn["B"].pk].pk, "amy@example.org", [pn["B"]]),
        (person[pn2["C"].pk].pk, "", [pn2["C"]]),
    ]
    rival = services.series_create(name="Rival", season="2030")
    assert selectors.people_rows(series=rival) == []


def test_the_champion_is_the_junior_finals_winner_by_alias(series):
    """Championship Rules, JUNIOR: "the competitor who accumulates the most assets (net worth)
    being the overall winner": B, with 5000, is the junior champion; the senior Finals, not
    played, has none yet."""
    finals = series.junior_finals
    p = enter(finals, "ABCD")
    assert selectors.champion_aliases(series=series, division=JUNIOR) == ()
    play_round(finals, _junior_table(p))
    assert selectors.champion_aliases(series=series, division=JUNIOR) == (p["B"].alias,)
    assert selectors.champion_aliases(series=series) == ()


def _invite(series, name: str, *, division: str = JUNIOR, accept: bool = True):
    entrant = services.entrant_invite(
        series=series,
        division=division,
        first_name=name,
        last_name="Wildcard",
        email=f"{name.lower()}@example.org",
        date_of_birth=datetime.date(2016 if division == JUNIOR else 1980, 6, 1),
        alias=name,
        reason="Host's wild card",
        by=None,
    )
    if not accept:
        return entrant
    return services.entrant_respond(entrant=entrant, accept=True, by=None)


def test_fewer_juniors_accepted_than_the_junior_finals_needs_is_a_warning(series):
    """The junior final is one game at one table of at least 4 (Championship Rules, JUNIOR: "1
    junior competitor from each" of the 4 regionals). Counted are the junior final's
    entrants who hold a place and accepted: not one still to answer, not an alternate, not
    the senior Finals' or another series' entrants. One accepted: a warning; four: none."""
    first, second = (
        regional("Junior North", day=10, fmt="junior"),
        regional("Junior South", day=11, fmt="junior"),
    )
    senior = regional("North", day=10)
    for event in (first, second, senior):
        services.series_add_event(series=series, event=event)
    p1, p2, ps = enter(first, "ABCD"), enter(second, "ABCD"), enter(senior, LETTERS)
    for event, p in ((first, p1), (second, p2)):
        play_round(event, _junior_table(p))
    play_round(senior, three_tables(ps))
    services.entrant_respond(entrant=Entrant.objects.get(player=p1["B"]), accept=True, by=None)
    services.alternates_confirm(series=series, division=JUNIOR, order=[p1["D"].pk], by=None)
    services.entrant_respond(entrant=Entrant.objects.get(player=p1["D"]), accept=True, by=None)
    for letter in "IEAB":  # the whole senior list accepts
        services.entrant_respond(
            entrant=Entrant.objects.get(player=ps[letter]), accept=True, by=None
        )
    rival = services.series_create(name="Rival", season="2030")
    _invite(rival, "Rivalkid")
    _invite(rival, "Waitingkid", accept=False)

    assert selectors.confirm_warnings(series=series, division=JUNIOR) == [
        "Only 1 entrant has accepted: Junior Finals needs at least 4 players."
    ]
    # What else holds the junior final back: South's winner has not answered. A series
    # without a final's event is asked to choose one first.
    assert selectors.confirm_problems(series=series, division=JUNIOR) == [
        "1 entrant has not answered yet."
    ]
    assert selectors.confirm_problems(series=rival, division=JUNIOR) == [
        "Choose the final's event first (above the regionals)."
    ]
    assert selectors.confirm_warnings(series=series, division=SENIOR) == [
        "Only 4 entrants have accepted: Finals needs at least 8 players."
    ]
    services.entrant_respond(entrant=Entrant.objects.get(player=p2["B"]), accept=True, by=None)
    _invite(series, "Hostkid")
    _invite(series, "Secondkid")
    assert selectors.confirm_warnings(series=series, division=JUNIOR) == []


def test_alternates_are_offered_by_rank_across_the_regionals_each_person_once(series):
    """Alternates "come from the regionals' next-best players": after North's and South's
    four qualifiers (I, E, A, B at each), the fifth of each (F), then the sixth (J), North
    before South at the same rank. North's F is South's F too (one email): offered once,
    from North, the earlier."""
    north, south = regional("North", day=10), regional("South", day=17)
    for event in (north, south):
        services.series_add_event(series=series, event=event)
    pn = enter(north, LETTERS)
    ps = enter(south, LETTERS, emails={"F": pn["F"].email})
    play_round(north, three_tables(pn))
    play_round(south, three_tables(ps))
    candidates = selectors.alternate_candidates(series=series, division=SENIOR)
    assert [(c.player, c.member.event, c.rank) for c in candidates[:3]] == [
        (pn["F"], north, 5),
        (pn["J"], north, 6),
        (ps["J"], south, 6),
    ]
    assert ps["F"] not in [c.player for c in candidates]
