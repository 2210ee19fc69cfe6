"""The event cockpit: the day's next action in every state, and what it needs.

The plan is a pure function of ``EventFacts``, so each state of the day is written out
here by hand; a few tests read the facts from real events (a simulated day) too. The needs
are worked by hand from the kit (Tournament Kit): "We recommend one director for every eight
players", "MONOPOLY Games One per table", "only 32 houses and 12 hotels", "Allow one score
sheet per player for each preliminary round and one for each player in the final game".
"""

from __future__ import annotations

import html
from dataclasses import replace

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from cockpit.plan import (
    CURRENT,
    DONE,
    EventFacts,
    RoundFacts,
    cockpit_plan,
    directors_needed,
    next_action,
    score_sheets_needed,
    tables_for,
)
from cockpit.selectors import day_needs, event_facts
from demo.simulation import event_simulate
from tests.builders import an_event, built_once_for_the_module, players_with_aliases
from tournament.models import Event, Player

BEFORE = EventFacts(
    knockout=False,
    has_final=True,
    planned_rounds=3,
    minimum_players=8,
    players=40,
    checked_in=0,
    alternates=3,
    started=False,
    bracket_confirmed=False,
)


def a_round(number: int, **changes) -> RoundFacts:
    base = RoundFacts(
        number=number,
        final=False,
        tables=10,
        published=True,
        clock_started=True,
        clock_ended=True,
        tables_playing=0,
        sheets_in=10,
        sheets_signed=10,
        sheets_approved=10,
        open_ties=0,
        posted=True,
    )
    return replace(base, **changes)


def action(facts: EventFacts):
    stage, act = next_action(facts)
    return stage, act.url_name, act.label


# --- Before play ---------------------------------------------------------------------------


def test_too_few_players_asks_for_registrations():
    stage, url, label = action(replace(BEFORE, players=5))
    assert (stage, url) == ("registration", "players:player_list")
    assert "5 of at least 8" in label


def test_players_registered_and_not_here_asks_for_check_in():
    stage, url, label = action(replace(BEFORE, checked_in=12))
    assert (stage, url) == ("check_in", "players:check_in")
    assert "12 of 40" in label


def test_after_the_start_the_missing_players_are_no_shows():
    stage, url, label = action(replace(BEFORE, checked_in=38, started=True))
    # The desk's list of those not here, one tap each (not the whole players list).
    assert (stage, url) == ("check_in", "players:check_in")
    assert "2 players" in label


def test_at_the_start_with_nobody_checked_in_the_desk_is_still_checking_in():
    assert action(replace(BEFORE, started=True))[:2] == ("check_in", "players:check_in")


def test_the_no_show_step_opens_the_desks_list_of_those_not_here():
    _stage, act = next_action(replace(BEFORE, checked_in=38, started=True))
    assert act.anchor == "not-here" and act.also == ()


def test_everyone_here_seats_the_rounds():
    assert action(replace(BEFORE, checked_in=40))[:2] == ("seating", "seating:seating")


def test_a_knockout_confirms_its_bracket_then_seats_round_one():
    knockout = replace(BEFORE, knockout=True, checked_in=40, planned_rounds=2)
    assert action(knockout)[2] == "Confirm the bracket"
    assert action(replace(knockout, bracket_confirmed=True))[2] == "Seat round 1"


# --- A round, step by step -----------------------------------------------------------------

SEATED = replace(BEFORE, checked_in=40)


NO_CLOCK = {"clock_started": False, "clock_ended": False}
RESULTS = "scoring:results_round"
CLOCK = "clock:clock_control"


@pytest.mark.parametrize(
    ("changes", "url", "words"),
    [
        ({**NO_CLOCK, "published": False}, "seating:seating", "Publish"),
        (NO_CLOCK, CLOCK, "Start the clock"),
        ({"clock_ended": False, "tables_playing": 4}, CLOCK, "4 tables still"),
        ({"sheets_in": 7, "sheets_signed": 6, "sheets_approved": 2}, RESULTS, "6 of 10 signed"),
        ({"open_ties": 2, "sheets_approved": 8}, RESULTS, "Decide 2 ties"),
        # The club kit posts from counter-signed sheets: no judge's approval is asked.
        ({"sheets_approved": 8}, RESULTS, "Post the results of round 1"),
        ({}, RESULTS, "Post the results of round 1"),
        # A championship's judges approve every sheet first (Championship Rules, BANKERS: the banker
        # signs "to confirm the final adjudicated scores"; JUDGES: "roaming Judges to adjudicate").
        (
            {"sheets_approved": 8, "approval_needed": True},
            RESULTS,
            "Approve the score sheets: 8 of 10 approved",
        ),
    ],
)
def test_round_one_in_each_state(changes, url, words):
    changes = {**changes, "posted": False}
    facts = replace(SEATED, rounds=(a_round(1, **changes), a_round(2, posted=False)))
    stage, got_url, label = action(facts)
    assert stage == "round-1" and got_url == url and words in label


def test_the_post_action_opens_the_round_at_its_post_button():
    facts = replace(SEATED, rounds=(a_round(1, posted=False),))
    _stage, act = next_action(facts)
    assert act.round_number == 1 and act.anchor == "post"


def test_round_two_follows_a_posted_round_one():
    facts = replace(
        SEATED,
        rounds=(a_round(1), a_round(2, clock_started=False, clock_ended=False, posted=False)),
    )
    assert action(facts)[:2] == ("round-2", "clock:clock_control")


def test_every_preliminary_posted_seats_the_final():
    facts = replace(SEATED, rounds=(a_round(1), a_round(2), a_round(3)))
    assert action(facts) == ("final", "scoring:standings", "Seat the final")


def test_the_final_is_played_like_a_round():
    final = a_round(4, final=True, tables=1, published=False, clock_started=False,
                    clock_ended=False, sheets_in=0, sheets_signed=0, sheets_approved=0,
                    posted=False)  # fmt: skip
    facts = replace(SEATED, rounds=(a_round(1), a_round(2), a_round(3), final))
    # The final is not published on the seating page: its clock starts it.
    assert action(facts) == ("round-4", "clock:clock_control", "Start the clock of the final")


def test_a_winner_leads_to_the_forms():
    facts = replace(SEATED, rounds=(a_round(1), a_round(4, final=True)), winner=("Lucky Boot",))
    assert action(facts) == ("forms", "printouts:index", "Print the winner's forms")


def test_a_knockout_seats_its_next_round_then_the_final():
    knockout = replace(SEATED, knockout=True, planned_rounds=2, bracket_confirmed=True)
    assert action(replace(knockout, rounds=(a_round(1),)))[2] == "Seat round 2"
    assert action(replace(knockout, rounds=(a_round(1), a_round(2))))[2] == "Seat the final"


def test_a_junior_event_has_no_final_and_its_winner_comes_from_its_one_game():
    junior = replace(SEATED, has_final=False, planned_rounds=1)
    assert action(replace(junior, rounds=(a_round(1, posted=False),)))[0] == "round-1"
    assert action(replace(junior, rounds=(a_round(1),), winner=("Red Car",)))[0] == "forms"
    steps = [step.key for step in cockpit_plan(replace(junior, rounds=(a_round(1),))).steps]
    assert "final" not in steps


def test_the_steps_mark_done_and_current():
    facts = replace(SEATED, rounds=(a_round(1), a_round(2, sheets_signed=3, posted=False)))
    plan = cockpit_plan(facts)
    states = {step.key: step.state for step in plan.steps}
    assert states["registration"] == DONE and states["round-1"] == DONE
    assert states["round-2"] == CURRENT and states["round-3"] == "todo"
    round_two = next(step for step in plan.steps if step.key == "round-2")
    assert [(p.key, p.detail) for p in round_two.substeps][1:3] == [
        ("sheets", "10/10"),
        ("signed", "3/10"),
    ]
    counts = {count.label: count.value for count in plan.counts}
    assert counts["Sheets missing"] == "7" and counts["Checked in"] == "40/40"


# --- What the day needs, worked by hand ---------------------------------------------------


def test_forty_players_need_five_directors_and_ten_games():
    assert directors_needed(players=40) == 5  # 40 / 8
    assert directors_needed(players=41) == 6  # the forty-first needs a sixth
    assert tables_for(players=40, table_min=4, table_max=5) == 10  # tables of four
    assert tables_for(players=41, table_min=4, table_max=5) == 10  # one table of five
    assert tables_for(players=30, table_min=3, table_max=6) == 8  # 6 of 4 and 2 of 3
    assert tables_for(players=0, table_min=4, table_max=5) == 0


def test_score_sheets_one_per_player_per_round_and_per_finalist():
    assert score_sheets_needed(players=40, rounds=3, finalists=4) == 124


@pytest.fixture(scope="module")
def forty_once(django_db_setup, django_db_blocker):
    with built_once_for_the_module(django_db_blocker):
        yield event_simulate(players=40, seed=3, final=False).event.pk


@pytest.fixture
def forty(db, forty_once):
    return Event.objects.get(pk=forty_once)


def test_day_needs_of_a_forty_player_event(forty):
    for name in ("alice", "bob"):
        User.objects.create_user(name).groups.add(Group.objects.get(name="Judge"))
    needs = day_needs(event=forty)
    assert needs.basis == "checked_in" and needs.players == 40 and needs.tables == 10
    officials = {need.label.split(" (")[0]: need for need in needs.officials}
    assert officials["Tournament directors"].needed == 5
    assert officials["Bankers"].needed == 10
    materials = [need.needed for need in needs.materials]
    # games, houses (10 x 32), hotels (10 x 12), sheets (40 x 3 + 4), registration forms
    assert materials[:4] == [10, 320, 120, 124]
    # The Tournament Kit's Participant Registration Form has twelve "Name Address" lines a sheet.
    registrants = Player.objects.filter(event=forty, status__in=("player", "alternate")).count()
    assert materials[4] == -(-registrants // 12)


def test_a_knockouts_score_sheets_are_its_seats_and_forms_come_twelve_a_sheet(db):
    # Tournament Kit: "Allow one score sheet per player for each preliminary round and one for each
    # player in the final game": in a knockout only the table winners play round 2. 148
    # players at tables of 3 to 5: 148 seats in round 1, 30 in round 2 (the bracket of
    # tests/knockout/test_bracket.py), 6 in the final: 184 sheets, not 148 x 2 + 6.
    club = an_event(name="Sheets", fmt="club")
    players_with_aliases(
        club, aliases=[f"P{i:03d}" for i in range(1, 149)], start=1, checked_in=True
    )
    materials = {need.label: need.needed for need in day_needs(event=club).materials}
    assert (
        materials["Score sheets (one per seat of each round of the bracket, and the final)"]
        == 148 + 30 + 6
    )
    # "Name Address" twelve times on the Participant Registration Form: 148 / 12 -> 13.
    assert materials["Participant registration forms (sheets of 12 lines)"] == 13


def test_a_played_simulated_day_ends_at_the_forms(db):
    played = event_simulate(players=16, seed=5, play_final=True).event
    facts = event_facts(event=played)
    assert facts.winner and all(r.posted for r in facts.rounds)
    assert next_action(facts)[0] == "forms"


def test_a_simulated_day_before_its_final_seats_it(forty):
    assert next_action(event_facts(event=forty))[0] == "final"


# --- The page ------------------------------------------------------------------------------


def test_the_cockpit_page_shows_the_next_action_and_needs(client, forty):
    user = User.objects.create_user("olive")
    user.groups.add(Group.objects.get(name="Organizer"))
    client.force_login(user)
    response = client.get(reverse("cockpit:cockpit", kwargs={"pk": forty.pk}))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="next-action"' in html and "Seat the final" in html
    assert "only 32 houses and 12 hotels" in html
    # The navigation inside the event marks the overview.
    assert 'data-section="overview" aria-current="page"' in html


def test_the_cockpit_refuses_a_banker(client, forty):
    user = User.objects.create_user("bo")
    user.groups.add(Group.objects.get(name="Banker"))
    client.force_login(user)
    assert client.get(reverse("cockpit:cockpit", kwargs={"pk": forty.pk})).status_code == 403


def test_no_event_is_a_404(client, db):
    user = User.objects.create_superuser("root")
    client.force_login(user)
    assert client.get(reverse("cockpit:cockpit", kwargs={"pk": 999})).status_code == 404


def test_checked_in_alternates_count_for_the_absent_players_seats(client, forty):
    # 40 seated and checked in (the simulated day): one goes missing, one alternate is here.
    seated = Player.objects.filter(event=forty, status="player").order_by("pk")
    Player.objects.filter(pk=seated[0].pk).update(checked_in_at=None)
    assert day_needs(event=forty).players == 40  # 39 + an alternate for the empty seat
    # The page says where the 40 come from while the check-in counter says 39.
    user = User.objects.create_user("olive")
    user.groups.add(Group.objects.get(name="Organizer"))
    client.force_login(user)
    page = client.get(reverse("cockpit:cockpit", kwargs={"pk": forty.pk})).content.decode()
    text = " ".join(html.unescape(page).split())
    assert "Counted from 40 players checked in, alternates taking absent players' seats" in text
    Player.objects.filter(event=forty, status="alternate").update(checked_in_at=None)
    assert day_needs(event=forty).players == 39


@pytest.mark.parametrize(("format_key", "players"), [("club", 24), ("junior", 8)])
def test_a_played_club_or_junior_day_ends_at_the_forms(db, format_key, players):
    from demo.formats import format_simulate

    played = format_simulate(format=format_key, players=players, seed=2).event
    facts = event_facts(event=played)
    assert facts.knockout is (format_key == "club")
    assert facts.has_final is (format_key == "club")
    assert facts.winner and all(r.posted for r in facts.rounds)
    assert next_action(facts)[0] == "forms"
    steps = [step.key for step in cockpit_plan(facts).steps]
    assert len(steps) == len(set(steps))
    assert ("final" in steps) is (format_key == "club")


def test_the_club_knockout_rounds_come_from_its_bracket(db):
    from demo.formats import format_simulate

    played = format_simulate(format="club", players=24, seed=2).event
    facts = event_facts(event=played)
    # A bracket of 24: one knockout round of six tables, then the six-player final.
    assert [r.final for r in facts.rounds] == [False] * facts.planned_rounds + [True]
    assert facts.rounds[0].tables == 6 and facts.rounds[-1].tables == 1


def test_every_step_of_the_day_links_its_page(client, forty):
    user = User.objects.create_user("olive")
    user.groups.add(Group.objects.get(name="Organizer"))
    client.force_login(user)
    html = client.get(reverse("cockpit:cockpit", kwargs={"pk": forty.pk})).content.decode()
    for name, extra in [
        ("players:player_list", {}),
        ("players:check_in", {}),
        ("seating:seating", {}),
        ("scoring:results_round", {"round_number": 1}),
        ("scoring:results_round", {"round_number": 3}),
        ("scoring:standings", {}),
        ("printouts:index", {}),
    ]:
        assert f'href="{reverse(name, kwargs={"pk": forty.pk, **extra})}"' in html, name
