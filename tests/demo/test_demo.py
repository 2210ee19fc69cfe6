"""The demo `make run` loads: a played championship day, built once for this module.

Numbers are checked against the rule book (tests/demo/simulation_helpers.py), not against the
code under test.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command

from demo.event import (
    DEMO_CLUB_NAME,
    DEMO_EVENT_NAME,
    DEMO_JUNIOR_NAME,
    DEMO_OFFICIALS,
    DEMO_PEOPLE,
    DEMO_SERIES_NAME,
)
from scoring.models import ResultLine, RoundPosting, TableSheet
from scoring.selectors import standings
from seating.engine import SeatingProblem, check_rounds
from series.models import Series
from tests.demo.simulation_helpers import preliminary_rounds, rule_book_totals
from tests.demo_rows import load_demo_rows
from tournament.models import Event, Player, Round, Seat, Table


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The played demo, built once for this module (it takes a few seconds)."""
    with django_db_blocker.unblock():
        event = load_demo_rows()
        try:
            yield event
        finally:
            # The demo's series outlives its events otherwise; seats and results
            # protect their players, tables their waves: those go first.
            Series.objects.all().delete()
            Table.objects.all().delete()
            Event.objects.all().delete()
            officials = [username for username, _role in DEMO_OFFICIALS]
            get_user_model().objects.filter(username__in=officials).delete()


@pytest.mark.django_db
def test_the_demo_has_40_players_then_3_alternates_in_registration_order(demo):
    names = [f"{p.first_name} {p.last_name}" for p in DEMO_PEOPLE]
    assert len(names) == len(set(names)) == 43
    players = Player.objects.filter(event=demo, status=Player.Status.PLAYER)
    assert sorted(p.full_name for p in players) == sorted(names[:40])
    alternates = Player.objects.filter(event=demo, status=Player.Status.ALTERNATE).order_by(
        "alternate_position"
    )
    assert [(a.full_name, a.alternate_position) for a in alternates] == [
        ("Yara Haddad", 1),
        ("Zeno Papas", 2),
        ("Alba Reyes", 3),
    ]
    assert not players.filter(checked_in_at=None).exists()
    households = Player.objects.filter(event=demo).values_list("household", flat=True)
    assert sorted(h for h in households if h) == sorted(
        ["marsh family"] * 3 + ["patel household"] * 2 + ["costa / silva"] * 2
    )


@pytest.mark.django_db
def test_the_demo_keeps_families_apart(demo):
    rounds = [
        [
            [s.player_id for s in table.seats.order_by("position")]
            for table in round_.tables.order_by("number")
        ]
        for round_ in preliminary_rounds(demo)
    ]
    players = Player.objects.filter(event=demo, status=Player.Status.PLAYER)
    problem = SeatingProblem(
        players=tuple(p.pk for p in players),
        rounds=3,
        families={p.pk: p.household or None for p in players},
    )
    checked = check_rounds(problem, rounds)
    assert checked.errors == ()
    assert checked.family_conflicts == 0
    # And counted by hand: no table holds two people of one household.
    household = {p.pk: p.household for p in players}
    for tables in rounds:
        for table in tables:
            keys = [household[pk] for pk in table if household[pk]]
            assert len(keys) == len(set(keys))


@pytest.mark.django_db
def test_every_demo_round_is_scored_approved_and_posted(demo):
    rounds = preliminary_rounds(demo)
    assert [r.number for r in rounds] == [1, 2, 3]
    for round_ in rounds:
        assert RoundPosting.objects.filter(round=round_).exists()
        assert round_.assignments_published and round_.has_started
        tables = list(round_.tables.all())
        assert len(tables) == 10
        for table in tables:
            assert table.status == Table.Status.SCORED
            assert table.sheet.status == TableSheet.Status.APPROVED
            assert table.sheet.report["valid"] is True
            seated = set(table.seats.values_list("player_id", flat=True))
            results = ResultLine.objects.filter(table=table)
            assert set(results.values_list("player_id", flat=True)) == seated
            assert {int(p["id"]) for p in table.sheet.data["players"]} == seated
            # Every player signed, then the banker.
            assert table.sheet.signatures.count() == len(seated) + 1
        assert all(w.clock.ended_at is not None for w in round_.waves.all())


@pytest.mark.django_db
def test_demo_standings_add_up_the_rule_books_points(demo):
    expected = rule_book_totals(demo)
    rows = standings(event=demo, only_posted=True)
    assert len(rows) == 40
    assert all(row.games == 3 for row in rows)
    assert {row.player.pk: row.points for row in rows} == expected
    # Championship Rules: every table hands out points, so the sum is not trivially zero.
    assert sum(expected.values()) > 0


@pytest.mark.django_db
def test_the_demo_final_seats_the_top_four_and_is_not_played(demo):
    final = demo.rounds.get(kind=Round.Kind.FINAL)
    assert final.tables.count() == 1
    finalists = set(Seat.objects.filter(round=final).values_list("player_id", flat=True))
    totals = rule_book_totals(demo)
    assert len(finalists) == 4
    assert min(totals[pk] for pk in finalists) >= max(
        points for pk, points in totals.items() if pk not in finalists
    )
    top4 = [row.player.pk for row in standings(event=demo, only_posted=True)[:4]]
    assert finalists == set(top4)
    assert not TableSheet.objects.filter(table__round=final).exists()
    assert not RoundPosting.objects.filter(round=final).exists()


@pytest.mark.django_db
def test_the_demo_is_loaded_once(demo):
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "left the data alone" in out.getvalue()
    assert sorted(Event.objects.values_list("name", "format")) == sorted(
        [
            (DEMO_CLUB_NAME, "club"),
            (DEMO_EVENT_NAME, "championship"),
            (DEMO_JUNIOR_NAME, "junior"),
            # The demo's small series: its regionals and both finals.
            *sorted(
                (f"{DEMO_SERIES_NAME}{suffix}", format)
                for suffix, format in (
                    (" Finals", "championship"),
                    (" Junior Finals", "junior"),
                    (" Junior Regional 1", "junior"),
                    (" Junior Regional 2", "junior"),
                    (" Regional 1", "championship"),
                    (" Regional 2", "championship"),
                )
            ),
        ]
    )


@pytest.mark.django_db
def test_the_demo_club_event_is_a_played_knockout_to_its_six_player_final(demo, client):
    # Tournament Kit: 30 players make six tables of five; "there must be six tables to give you the
    # required six players for the final".
    club = Event.objects.get(name=DEMO_CLUB_NAME)
    (round1,) = club.rounds.filter(kind=Round.Kind.PRELIMINARY)
    assert sorted(t.seats.count() for t in round1.tables.all()) == [5] * 6
    winners = set(
        ResultLine.objects.filter(table__round=round1, place=1).values_list("player_id", flat=True)
    )
    final = club.rounds.get(kind=Round.Kind.FINAL)
    assert set(Seat.objects.filter(round=final).values_list("player_id", flat=True)) == winners
    assert len(winners) == 6
    assert RoundPosting.objects.filter(round__event=club).count() == 2
    cache.clear()
    winner = ResultLine.objects.get(table__round=final, place=1).player
    assert winner.alias in client.get(f"/events/{club.pk}/winner/").content.decode()


@pytest.mark.django_db
def test_the_demo_junior_event_is_one_posted_game(demo):
    junior = Event.objects.get(name=DEMO_JUNIOR_NAME)
    assert [r.kind for r in junior.rounds.all()] == ["preliminary"]
    assert RoundPosting.objects.filter(round__event=junior).count() == 1
    assert junior.players.filter(status=Player.Status.PLAYER).count() == 12
    assert all(8 <= p.age_at_event <= 16 for p in junior.players.all())


@pytest.mark.django_db
def test_the_demo_public_site_is_released_and_shows_the_posted_standings(demo, client):
    cache.clear()
    leader = standings(event=demo, only_posted=True)[0]
    page = client.get(f"/events/{demo.pk}/standings/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Nothing is posted here yet" not in text
    assert leader.alias in text
    assert leader.player.last_name not in text
    final = client.get(f"/events/{demo.pk}/final/").content.decode()
    finalists = Player.objects.filter(seats__round__kind=Round.Kind.FINAL, event=demo)
    assert finalists.count() == 4 and all(p.alias in final for p in finalists)
