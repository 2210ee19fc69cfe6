"""Qualifying into the Finals: the cut, its ties, declines, players of two regionals.

The rule lines are the Championship Rules' (Championship Rules, REGIONAL CHAMPIONSHIP DETAILS):
"From each event the 4 players with the highest Point scores (not net worth) will progress
through to the MONOPOLY Championship Finals"; JUNIOR: "From the 4 regional Junior
Championships, 1 junior competitor from each will progress". Expected standings are worked
out by hand in ``series_helpers.three_tables`` from the points table (19/10/5/3).
"""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from players.services import player_eject, player_withdraw
from scoring.services.advancement import advance_to_final
from scoring.services.posting import round_post
from scoring.services.ties import standings_tie_decide
from series import selectors, services
from series.models import JUNIOR, SENIOR, Entrant, PersonLink
from spectator.selectors import Release
from spectator.selectors import standings as public_standings
from tests.scoring.scoring_helpers import play
from tests.series.series_helpers import (
    LETTERS,
    enter,
    invite_previous_winner,
    play_round,
    regional,
    three_tables,
)
from tournament.formats import event_has_final
from tournament.models import Clock, Player, Table
from tournament.services import event_update

pytestmark = pytest.mark.django_db


def places(series, division=SENIOR) -> list[tuple[str, str, int | None]]:
    return [
        (e.alias, e.status, e.rank)
        for e in selectors.entrants_ordered(series=series, division=division)
    ]


def test_from_each_event_the_4_players_with_the_highest_point_scores_progress(series):
    """Championship Rules: "the 4 players with the highest Point scores (not net worth) will
    progress"; B, F and J share 10 points at fourth, and the organizer's tie-breakers after points
    (games won, then net worth) put B ahead."""
    event = regional("North", day=10)
    member = services.series_add_event(series=series, event=event)
    assert member.places == 4 and member.division == SENIOR
    event.refresh_from_db()
    assert not event_has_final(event=event)
    p = enter(event, LETTERS)
    play_round(event, three_tables(p))
    ids = {k: v.alias for k, v in p.items()}
    assert places(series) == [
        (ids["I"], "qualifier", 1),
        (ids["E"], "qualifier", 2),
        (ids["A"], "qualifier", 3),
        (ids["B"], "qualifier", 4),
    ]
    with pytest.raises(ValidationError, match="no final"):
        advance_to_final(event=event, by=None)


def test_a_regional_cut_defaults_to_points_then_games_won_then_the_head_judge(series):
    """Championship Rules: "From each event the 4 players with the highest Point scores (not net
    worth) will progress": a regional left at the series' default ranks by points, then games
    won, and nothing else; B, F and J (10 points, no win each) are the head judge's,
    though their net worth differs (3000, 2900, 2800). The public standings then say what
    broke each tie."""
    event = regional("North", day=10, tie_breakers=None)
    member = services.series_add_event(series=series, event=event)
    event.refresh_from_db()
    assert event.tie_breakers == ["points", "wins"]
    p = enter(event, LETTERS)
    play_round(event, three_tables(p))
    assert places(series) == []
    assert {row.alias for row in selectors.open_cut(member=member)} == {
        p["B"].alias,
        p["F"].alias,
        p["J"].alias,
    }
    standings_tie_decide(
        event=event, order=[p["F"].pk, p["J"].pk, p["B"].pk], by=None, reason="Roll-off"
    )
    services.qualifiers_fix(series=series, division=SENIOR)
    assert [alias for alias, _s, _r in places(series)][-1] == p["F"].alias
    rows = public_standings(event_pk=event.pk, release=Release(standings=True))
    said = {row.alias: row.tie_broken_by for row in rows.rows}
    assert said[p["J"].alias] == said[p["B"].alias] == "decided by the head judge"
    # F is below the 19-point players on points; I, E and A (19 points, a win each) stay
    # level at 1=, which the cut does not need decided.
    assert said[p["F"].alias] == said[p["A"].alias] == ""
    assert {row.place for row in rows.rows if row.alias in {p[k].alias for k in "IEA"}} == {"1="}


def test_a_tie_at_fourth_the_tie_breakers_cannot_settle_goes_to_the_head_judge(series):
    """Championship Rules, TIE BREAKERS are exhausted: B, F and J are level on points, wins and net
    worth. Nobody of the regional is invited until the head judge orders them."""
    event = regional("North", day=10)
    member = services.series_add_event(series=series, event=event)
    p = enter(event, LETTERS)
    play_round(event, three_tables(p, b=3000, f=3000, j=3000))
    assert places(series) == []
    assert {row.alias for row in selectors.open_cut(member=member)} == {
        p["B"].alias,
        p["F"].alias,
        p["J"].alias,
    }
    assert selectors.confirm_problems(series=series, division=SENIOR)
    standings_tie_decide(
        event=event, order=[p["J"].pk, p["B"].pk, p["F"].pk], by=None, reason="Roll-off"
    )
    assert selectors.open_cut(member=member) == []
    services.qualifiers_fix(series=series, division=SENIOR)
    assert [alias for alias, _s, _r in places(series)][-1] == p["J"].alias
    assert len(places(series)) == 4


def test_a_player_in_two_regionals_takes_one_place_and_the_next_moves_up(series):
    """The requirement: "A player who qualifies twice takes one place and the next player of the
    other regional moves up." Matched across events by email."""
    north, south = regional("North", day=10), regional("South", day=17)
    services.series_add_event(series=series, event=north)
    services.series_add_event(series=series, event=south)
    pn = enter(north, LETTERS, emails={"A": "Twice@Example.org"})
    ps = enter(south, LETTERS, emails={"E": "twice@example.org"})
    services.persons_sync(series=series)
    assert (
        PersonLink.objects.get(player=pn["A"]).person
        == PersonLink.objects.get(player=ps["E"]).person
    )
    play_round(north, three_tables(pn))
    play_round(south, three_tables(ps))
    rows = places(series)
    assert (pn["A"].alias, "qualifier", 3) in rows
    south_aliases = [alias for alias, _s, _r in rows if alias.endswith(f"-{south.pk}")]
    # E (2nd at South) already holds North's place: I, A, B and F (5th) go from South.
    assert south_aliases == [ps[k].alias for k in "IABF"]
    assert len(rows) == 8


def test_a_declined_place_passes_to_the_next_player_of_the_same_regional(series):
    """The requirement: "A declined place passes to the next player of the same regional"."""
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    b = Entrant.objects.get(player=p["B"])
    services.entrant_respond(entrant=b, accept=False, by=None)
    rows = places(series)
    assert (p["F"].alias, "qualifier", 5) in rows
    assert (p["B"].alias, "declined", 4) in rows
    assert sum(1 for _a, status, _r in rows if status == "qualifier") == 4
    with pytest.raises(ValidationError):
        services.entrant_respond(entrant=b, accept=True, by=None)


def test_a_junior_regional_sends_its_top_one_by_net_worth(series):
    """Championship Rules, JUNIOR: "1 junior competitor from each will progress"; the most assets
    win."""
    junior = regional("Junior North", day=10, fmt="junior")
    member = services.series_add_event(series=series, event=junior)
    assert (member.division, member.places) == (JUNIOR, 1)
    p = enter(junior, "ABCD")
    play_round(junior, [{p["A"]: 1000, p["B"]: 5000, p["C"]: 2000, p["D"]: 3000}])
    assert places(series, JUNIOR) == [(p["B"].alias, "qualifier", 1)]
    assert places(series) == []


def test_a_junior_who_qualified_at_15_plays_the_junior_finals_at_16(series):
    """Championship Rules, JUNIOR: "Competitors must be between 8 and 16 years old (16+ qualify for
    the senior tournament.)" at the regional, and "From the 4 regional Junior Championships, 1
    junior competitor from each will progress to the MONOPOLY Championship Finals": the
    qualification is the eligibility, so B (born 20 April 2014: 15 at the regional on the
    10th, 16 at the Finals on the 28th) is registered. South's winner has no guardian's
    consent (needed under 16), so that row alone is refused, naming its player."""
    north = regional("Junior North", day=10, fmt="junior")
    south = regional("Junior South", day=11, fmt="junior")
    for event in (north, south):
        services.series_add_event(series=series, event=event)
    n, s = enter(north, "ABCD"), enter(south, "EFGH")
    Player.objects.filter(pk=n["B"].pk).update(date_of_birth=datetime.date(2014, 4, 20))
    Player.objects.filter(pk=s["F"].pk).update(guardian_consent=False)
    play_round(north, [{n["A"]: 1000, n["B"]: 5000, n["C"]: 2000, n["D"]: 3000}])
    play_round(south, [{s["E"]: 1000, s["F"]: 5000, s["G"]: 2000, s["H"]: 3000}])
    assert places(series, JUNIOR) == [
        (n["B"].alias, "qualifier", 1),
        (s["F"].alias, "qualifier", 1),
    ]
    for entrant in Entrant.objects.filter(series=series, division=JUNIOR):
        services.entrant_respond(entrant=entrant, accept=True, by=None)
    # The confirm page says which row will be refused before anything is written.
    refusals = selectors.confirm_refusals(series=series, division=JUNIOR)
    assert list(refusals) == [Entrant.objects.get(player=s["F"]).pk]
    confirmed = services.entrants_confirm(series=series, division=JUNIOR, by=None)
    [finalist] = confirmed.registered
    assert (finalist.last_name, finalist.age_at_event) == (n["B"].last_name, 16)
    [(refused, why)] = confirmed.refused
    assert refused.player == s["F"]
    assert f"FirstF {s['F'].last_name}" in why and "consent" in why
    assert "16 or over" not in why


def test_the_organizer_changes_the_number_of_places_before_qualifying(series):
    north = regional("North", day=10)
    member = services.series_add_event(series=series, event=north)
    services.series_event_set_places(member=member, places=2)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    assert [a for a, _s, _r in places(series)] == [p["I"].alias, p["E"].alias]
    with pytest.raises(ValidationError):
        services.series_event_set_places(member=member, places=3)


def test_invited_alternates_and_confirming_registers_the_finals(series):
    """Championship Rules, World: "The previous World Tournament winner will also be invited";
    alternates come from the regionals' next-best players in the organizer's order."""
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    invited = invite_previous_winner(series)
    candidates = selectors.alternate_candidates(series=series, division=SENIOR)
    assert [c.player for c in candidates][:3] == [p["F"], p["J"], p["C"]]
    services.alternates_confirm(
        series=series, division=SENIOR, order=[p["J"].pk, p["F"].pk], by=None
    )
    assert selectors.confirm_problems(series=series, division=SENIOR)  # nobody answered
    for entrant in Entrant.objects.filter(status__in=["qualifier", "invited"]):
        services.entrant_respond(entrant=entrant, accept=True, by=None)
    confirmed = services.entrants_confirm(series=series, division=SENIOR, by=None)
    assert (len(confirmed.registered), confirmed.refused) == (7, [])
    finals = series.finals
    statuses = dict(Player.objects.filter(event=finals).values_list("last_name", "status"))
    assert statuses["Winner"] == Player.Status.PLAYER
    assert statuses[p["J"].last_name] == Player.Status.ALTERNATE
    assert Player.objects.get(event=finals, last_name=p["J"].last_name).alternate_position == 1
    invited.refresh_from_db()
    assert invited.finals_player is not None
    with pytest.raises(ValidationError):
        services.entrants_confirm(series=series, division=SENIOR, by=None)


def test_world_style_alternates_must_have_played_the_final(series):
    """Championship Rules: "Alternates for World Tournaments must have participated in the final of
    their National Tournament"; a regional without a final has none to offer."""
    series.alternates_played_final = True
    series.save()
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    assert selectors.alternate_candidates(series=series, division=SENIOR) == []
    with pytest.raises(ValidationError):
        services.alternates_confirm(series=series, division=SENIOR, order=[p["F"].pk], by=None)


def test_the_organizer_merges_and_splits_people(series):
    north, south = regional("North", day=10), regional("South", day=17)
    services.series_add_event(series=series, event=north)
    services.series_add_event(series=series, event=south)
    pn, ps = enter(north, "AB"), enter(south, "AB")
    services.persons_sync(series=series)
    a_north = PersonLink.objects.get(player=pn["A"]).person
    a_south = PersonLink.objects.get(player=ps["A"]).person
    assert a_north != a_south  # different emails: two people
    services.person_merge(series=series, keep=a_north, other=a_south)
    assert PersonLink.objects.get(player=ps["A"]).person == a_north
    services.person_split(series=series, player=ps["A"])
    assert PersonLink.objects.get(player=ps["A"]).person != a_north
    with pytest.raises(ValidationError):
        services.person_split(series=series, player=ps["A"])


def test_only_championship_and_junior_events_join_and_a_final_is_no_regional(series):
    with pytest.raises(ValidationError):
        services.series_add_event(series=series, event=series.finals)
    club = regional("Club", day=11, fmt="club")
    with pytest.raises(ValidationError):
        services.series_add_event(series=series, event=club)


def test_an_alternate_moves_up_when_a_qualifier_of_their_regional_declines(series):
    """Alternates "come from the regionals' next-best players"; a declined place
    "passes to the next player of the same regional", here the first alternate."""
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    services.alternates_confirm(
        series=series, division=SENIOR, order=[p["J"].pk, p["F"].pk], by=None
    )
    services.entrant_respond(entrant=Entrant.objects.get(player=p["B"]), accept=False, by=None)
    f = Entrant.objects.get(player=p["F"])
    assert (f.status, f.rank, f.alternate_position) == ("qualifier", 5, None)
    j = Entrant.objects.get(player=p["J"])
    assert (j.status, j.alternate_position) == ("alternate", 1)


def test_a_player_in_two_regionals_counts_for_the_earlier_by_date_whichever_posts_first(series):
    """The regionals qualify in date order, not in the order their last rounds are posted:
    South (17 April) posting before North (10 April) still gives the shared person North's
    place, and South's next player moves up, exactly as when North posts first."""
    north, south = regional("North", day=10), regional("South", day=17)
    services.series_add_event(series=series, event=south)
    services.series_add_event(series=series, event=north)
    pn = enter(north, LETTERS, emails={"A": "twice@example.org"})
    ps = enter(south, LETTERS, emails={"E": "Twice@Example.org"})
    play_round(south, three_tables(ps))
    # South waits for North, the earlier, to say whom it sends.
    assert places(series) == []
    play_round(north, three_tables(pn))
    rows = places(series)
    # North by hand (19/10/5/3, cash breaking the 10s): I, E, A (the shared person), B.
    north_aliases = [alias for alias, _s, _r in rows if alias.endswith(f"-{north.pk}")]
    assert north_aliases == [pn[k].alias for k in "IEAB"]
    # South: I 1st, E 2nd is the person already North's, so A, B and F (5th) move up.
    south_aliases = [alias for alias, _s, _r in rows if alias.endswith(f"-{south.pk}")]
    assert south_aliases == [ps[k].alias for k in "IABF"]
    assert ps["E"].alias not in [alias for alias, _s, _r in rows]
    assert len(rows) == 8


def test_a_later_regional_waits_while_an_earlier_one_waits_for_the_head_judge(series):
    """North's cut is level on every tie-breaker (B, F, J): until the head judge orders
    them, South (later) sends nobody either, since a person of both might be North's."""
    north, south = regional("North", day=10), regional("South", day=17)
    services.series_add_event(series=series, event=north)
    services.series_add_event(series=series, event=south)
    pn = enter(north, LETTERS)
    ps = enter(south, LETTERS)
    play_round(north, three_tables(pn, b=3000, f=3000, j=3000))
    play_round(south, three_tables(ps))
    assert places(series) == []
    standings_tie_decide(
        event=north, order=[pn["J"].pk, pn["B"].pk, pn["F"].pk], by=None, reason="Roll-off"
    )
    services.qualifiers_fix(series=series, division=SENIOR)
    rows = [alias for alias, _s, _r in places(series)]
    assert rows == [pn[k].alias for k in "IEAJ"] + [ps[k].alias for k in "IEAB"]


def test_a_player_ejected_or_withdrawn_from_a_regional_does_not_qualify(series):
    """I (1st) is ejected and E (2nd) withdraws before the round is posted: neither
    qualifies and their places pass on down the standings: A, B, then F and J (10 points
    each, 2900 and 2800 net worth, by hand from 19/10/5/3)."""
    event = regional("North", day=10)
    services.series_add_event(series=series, event=event)
    p = enter(event, LETTERS)
    round_ = play_round(event, three_tables(p), post=False)
    player_eject(player=p["I"], reason="Cheating with the bank", by=None)
    player_withdraw(player=p["E"], reason="Went home ill", by=None)
    round_post(round_=round_, by=None)
    assert [alias for alias, _s, _r in places(series)] == [p[k].alias for k in "ABFJ"]


def test_a_refused_finals_row_names_its_player_and_gives_every_reason(series):
    """Championship Rules, JUNIOR: "Any competitor under the age of 16 years must be accompanied
    to the event with a parent or guardian. We must also have signed consent". North's winner
    B gave neither a guardian's name nor consent: confirming the junior final refuses that row
    alone with one sentence naming B and alias, and both reasons."""
    north = regional("Junior North", day=10, fmt="junior")
    services.series_add_event(series=series, event=north)
    n = enter(north, "ABCD")
    Player.objects.filter(pk=n["B"].pk).update(guardian_name="", guardian_consent=False)
    play_round(north, [{n["A"]: 1000, n["B"]: 5000, n["C"]: 2000, n["D"]: 3000}])
    entrant = Entrant.objects.get(player=n["B"])
    services.entrant_respond(entrant=entrant, accept=True, by=None)
    reasons = (
        "Players under 16 need a parent or guardian's name. "
        "Players under 16 need their parent or guardian's consent."
    )
    # The confirm page says so first; with no junior final chosen there is nothing to refuse.
    assert selectors.confirm_refusals(series=series, division=JUNIOR) == {entrant.pk: reasons}
    junior_finals = series.junior_finals
    services.series_finals_set(series=series, division=JUNIOR, event=None)
    series.refresh_from_db()
    assert selectors.confirm_refusals(series=series, division=JUNIOR) == {}
    services.series_finals_set(series=series, division=JUNIOR, event=junior_finals)
    series.refresh_from_db()
    confirmed = services.entrants_confirm(series=series, division=JUNIOR, by=None)
    assert confirmed.registered == []
    [(refused, why)] = confirmed.refused
    assert refused.player == n["B"]
    assert why == f"FirstB {n['B'].last_name} ({n['B'].alias}) was not registered: {reasons}"


def test_each_finalist_keeps_their_regional_alias_unless_another_finalist_has_it(series):
    """Each event keeps its own alias: the qualifiers play the Finals under their North
    aliases. Last year's winner and runner-up, invited, asked for I's and E's aliases in
    lower case; an alias belongs to one player of an event whatever its case, so each is
    given one of their own and registered all the same."""
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    for last_name, letter in (("Winner", "I"), ("Runner-up", "E")):
        services.entrant_invite(
            series=series,
            division=SENIOR,
            first_name="Previous",
            last_name=last_name,
            email=f"{last_name.lower()}@example.org",
            date_of_birth=datetime.date(1980, 5, 5),
            alias=p[letter].alias.lower(),
            reason="Last year's final",
            by=None,
        )
    for entrant in Entrant.objects.filter(series=series):
        services.entrant_respond(entrant=entrant, accept=True, by=None)
    confirmed = services.entrants_confirm(series=series, division=SENIOR, by=None)
    assert confirmed.refused == []
    aliases = dict(Player.objects.filter(event=series.finals).values_list("last_name", "alias"))
    assert {aliases[p[k].last_name] for k in "IEAB"} == {p[k].alias for k in "IEAB"}
    # Each of the two given an alias of their own: none shared, none empty.
    given = {aliases["Winner"].lower(), aliases["Runner-up"].lower()}
    assert len(given) == 2 and "" not in given
    assert not given & {p[k].alias.lower() for k in "IEAB"}


def test_world_style_alternates_come_from_the_players_of_their_national_final(series):
    """Championship Rules: "Alternates for World Tournaments must have participated in the final of
    their National Tournament". North sends 2 (I, E) and, its organizer keeping its own final,
    seats its top four (I, E, A, B) at it: A and B, finalists without a place, may be
    alternates; F and J, better placed than C but not finalists, may not."""
    series.alternates_played_final = True
    series.save()
    north = regional("North", day=10)
    member = services.series_add_event(series=series, event=north)
    services.series_event_set_places(member=member, places=2)
    event_update(event=north, ends_with_qualifiers=False)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    assert [alias for alias, _s, _r in places(series)] == [p["I"].alias, p["E"].alias]
    advance_to_final(event=north, by=None)
    candidates = selectors.alternate_candidates(series=series, division=SENIOR)
    assert [(c.player, c.rank) for c in candidates] == [(p["A"], 3), (p["B"], 4)]


def test_a_finalists_registration_is_their_qualifying_one_and_an_invited_ones_as_typed(series):
    """The Finals' registration of a qualifier copies their regional registration (name,
    contact details, family, consents, guardian, language, signature): they are not asked
    again. An invited entrant is registered with what the organizer typed, signed in their
    name, their declarations made by the invitation; without a date of birth typed, the
    registration still needs one (1 January 1990)."""
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    p = enter(north, LETTERS)
    details = {
        "address": "1 Old Kent Road",
        "city": "London",
        "region": "Greater London",
        "postal_code": "SE1 1AA",
        "telephone": "+44 20 7946 0000",
        "family": "Smith household",
        "publicity_consent": True,
        "guardian_name": "Mother Smith",
        "guardian_email": "mother@example.org",
        "language": "fr",
        "signature": "I. Smith",
        "date_of_birth": datetime.date(1985, 3, 3),
    }
    Player.objects.filter(pk=p["I"].pk).update(**details)
    play_round(north, three_tables(p))
    invited = invite_previous_winner(series)
    Entrant.objects.filter(pk=invited.pk).update(date_of_birth=None)
    for entrant in Entrant.objects.filter(series=series):
        services.entrant_respond(entrant=entrant, accept=True, by=None)
    services.entrants_confirm(series=series, division=SENIOR, by=None)

    finalist = Player.objects.get(event=series.finals, last_name=p["I"].last_name)
    assert {field: getattr(finalist, field) for field in details} == details
    assert (finalist.first_name, finalist.email) == ("FirstI", p["I"].email)
    assert finalist.eligibility_declared and finalist.citizenship_declared
    champion = Player.objects.get(event=series.finals, last_name="Winner")
    assert (
        champion.first_name,
        champion.email,
        champion.date_of_birth,
        champion.signature,
        champion.alias,
    ) == (
        "Previous",
        "champ@example.org",
        datetime.date(1990, 1, 1),
        "Previous Winner",
        "Old Champ",
    )
    assert champion.eligibility_declared and champion.citizenship_declared


def test_once_a_finals_entrants_are_confirmed_its_list_is_changed_in_its_event(series):
    """Confirming registers the junior final's entrants in its event, once: from then on its
    list refuses every change (an answer, an invitation, alternates, confirming again) and
    says to change them in the event. The senior Finals' list, and another series' junior
    list, are not confirmed and still change."""
    junior = regional("Junior North", day=10, fmt="junior")
    services.series_add_event(series=series, event=junior)
    p = enter(junior, "ABCD")
    play_round(junior, [{p["A"]: 1000, p["B"]: 5000, p["C"]: 2000, p["D"]: 3000}])
    winner = Entrant.objects.get(player=p["B"])
    services.entrant_respond(entrant=winner, accept=True, by=None)
    services.entrants_confirm(series=series, division=JUNIOR, by=None)

    def invite(of, division):
        return services.entrant_invite(
            series=of,
            division=division,
            first_name="Host",
            last_name="Wildcard",
            email="",
            date_of_birth=datetime.date(2016, 1, 1),
            alias=f"Host {of.pk} {division}",
            reason="Host's wild card",
            by=None,
        )

    refusals = (
        lambda: services.entrant_respond(entrant=winner, accept=False, by=None),
        lambda: invite(series, JUNIOR),
        lambda: services.alternates_confirm(
            series=series, division=JUNIOR, order=[p["D"].pk], by=None
        ),
        lambda: services.entrants_confirm(series=series, division=JUNIOR, by=None),
    )
    for refused in refusals:
        with pytest.raises(ValidationError) as error:
            refused()
        assert error.value.code == "confirmed"
        assert error.value.messages == [
            "This final's entrants are confirmed and registered; change them in its event."
        ]
    assert invite(series, SENIOR).status == "invited"
    rival = services.series_create(name="Rival", season="2030")
    assert invite(rival, JUNIOR).status == "invited"


def test_a_regional_keeping_its_own_final_counts_its_preliminary_rounds_posted_only(series):
    """The series page's "rounds posted" of a regional is of its preliminary rounds (the
    ones its qualifiers come from): its own final, posted too, is not one more."""
    north = regional("North", day=10)
    member = services.series_add_event(series=series, event=north)
    event_update(event=north, ends_with_qualifiers=False)
    p = enter(north, LETTERS)
    play_round(north, three_tables(p))
    final = advance_to_final(event=north, by=None)
    table = final.tables.get()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    Clock.objects.create(wave=table.wave, duration_seconds=90 * 60, started_at=timezone.now())
    finalists = [seat.player for seat in table.seats.order_by("position")]
    play(table, {player: 4000 - 100 * i for i, player in enumerate(finalists)})
    round_post(round_=final, by=None)
    (state,) = selectors.regional_states(series=series, division=SENIOR)
    assert state.member == member
    assert (state.posted, state.rounds) == (1, north.preliminary_rounds) == (1, 1)


def test_alternates_come_from_the_regionals_already_played_a_later_one_included(series):
    """North (the 10th) has not played yet; South (the 17th) has: South's players are the
    candidates so far (none of them on the list yet: the earlier regional comes first), and
    North's join once it is played."""
    north, south = regional("North", day=10), regional("South", day=17)
    services.series_add_event(series=series, event=north)
    services.series_add_event(series=series, event=south)
    enter(north, LETTERS)
    s = enter(south, LETTERS)
    play_round(south, three_tables(s))
    candidates = selectors.alternate_candidates(series=series, division=SENIOR)
    assert {c.player for c in candidates} == set(s.values())
    assert {c.member.event for c in candidates} == {south}
