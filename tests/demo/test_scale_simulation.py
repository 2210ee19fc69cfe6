"""Events of 2,000 players: `simulate_event` at any size the format can seat,
bulk registration with the same rules as one by one, and a simulated event that adds up.

Points are checked against the rule book's table (tests/demo/simulation_helpers.py copies
Championship Rules, SCORING: "28; 25-14; 22-12-6; 19-10-5-3; 16-8-4-2-1"), never against
the code under test.
"""

from __future__ import annotations

import datetime
from collections import Counter
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from demo.simulation import FIRST_NAMES, LAST_NAMES, MAX_PLAYERS, event_simulate, people_generate
from demo.simulation import _registration as registration_of
from players.aliases import next_alias
from players.bulk_services import players_register_bulk
from players.services import player_register
from scoring.models import ResultLine, RoundPosting, TableSheet
from scoring.selectors import standings
from scoring.tie_breakers import TieBreakers
from seating.engine import table_pattern
from tests.demo.simulation_helpers import preliminary_rounds, rule_book_totals
from tournament.models import Event, Player, Seat, Table
from tournament.services import event_create

PLAIN_NAMES = len(FIRST_NAMES) * len(LAST_NAMES)


def _event(places: int, **fields) -> Event:
    return event_create(
        name="Bulk Open",
        format="championship",
        date=datetime.date(2027, 6, 5),
        start_time=datetime.time(9, 0),
        expected_players=places,
        organization="Boardwalk Club",
        venue="Community Hall",
        address="1 Boardwalk, Atlantic City",
        contact_name="Tournament Director",
        contact_email="director@example.org",
        charity="Children's Hospital",
        **fields,
    )


def test_people_beyond_the_plain_names_are_unique_and_small_events_keep_theirs():
    big = people_generate(count=2003, seed=4)
    names = [(p.first_name, p.last_name) for p in big]
    assert len(set(names)) == 2003  # registration refuses twins
    assert len(big) > PLAIN_NAMES  # the 900 plain names alone could not make it
    assert any("-" in p.last_name for p in big)
    small = people_generate(count=40, seed=4)
    assert small == people_generate(count=40, seed=4)
    assert big[:40] == small  # a bigger event does not change a small one's people
    assert MAX_PLAYERS >= 2000


@pytest.mark.django_db
def test_bulk_registration_places_people_as_one_by_one_registration_does():
    people = people_generate(count=14, seed=2)
    one_by_one, bulk = _event(10, alternates=3), _event(10, alternates=3)
    for person in people:
        player_register(
            event=one_by_one,
            registration=registration_of(person=person, event=one_by_one),
            source=Player.Source.IMPORT,
        )
    players_register_bulk(
        event=bulk, registrations=[registration_of(person=p, event=bulk) for p in people]
    )

    def places(event):
        return [
            (p.first_name, p.last_name, p.status, p.alternate_position, p.waiting_position)
            for p in Player.objects.filter(event=event).order_by("pk")
        ]

    assert places(bulk) == places(one_by_one)
    # 10 places, then the event's 3 alternates (Championship Rules, ALTERNATES), then the waiting
    # list.
    assert Counter(p[2] for p in places(bulk)) == {"player": 10, "alternate": 3, "waiting": 1}
    # Automatic aliases: each the first free one in the order seeded by the person.
    taken: list[str] = []
    for person in people:
        email = f"{person.first_name}.{person.last_name}@example.org".lower()
        taken.append(next_alias(taken=taken, seed=f"{bulk.pk}|{email}|{person.first_name}"))
    assert list(
        Player.objects.filter(event=bulk).order_by("pk").values_list("alias", flat=True)
    ) == (taken)


@pytest.mark.django_db
def test_bulk_registration_keeps_what_one_by_one_keeps_of_a_person():
    """Every field a registration gives (here the game language, and the
    trimmed address) is kept alike by both ways in."""
    import dataclasses

    people = people_generate(count=4, seed=3)
    one_by_one, bulk = _event(4), _event(4)
    regs = {}
    for event in (one_by_one, bulk):
        regs[event.pk] = [
            dataclasses.replace(
                registration_of(person=p, event=event), game_language="fr", city="  Lyon "
            )
            for p in people
        ]
    for reg in regs[one_by_one.pk]:
        player_register(event=one_by_one, registration=reg, source=Player.Source.IMPORT)
    players_register_bulk(event=bulk, registrations=regs[bulk.pk])
    fields = ("first_name", "last_name", "city", "game_language", "household", "signature")
    kept = {
        event.pk: list(Player.objects.filter(event=event).order_by("pk").values_list(*fields))
        for event in (one_by_one, bulk)
    }
    assert kept[bulk.pk] == kept[one_by_one.pk]
    assert {row[2:4] for row in kept[bulk.pk]} == {("Lyon", "fr")}


@pytest.mark.django_db
def test_bulk_registration_is_all_or_nothing():
    people = people_generate(count=6, seed=1)
    event = _event(8)
    registrations = [registration_of(person=p, event=event) for p in people]
    with pytest.raises(ValidationError, match="Registration 7: .*already registered"):
        players_register_bulk(event=event, registrations=[*registrations, registrations[2]])
    assert not Player.objects.filter(event=event).exists()
    players_register_bulk(event=event, registrations=registrations)
    with pytest.raises(ValidationError, match="nobody has registered"):
        players_register_bulk(event=event, registrations=registrations)
    assert Player.objects.filter(event=event).count() == 6


@pytest.mark.django_db
@pytest.mark.parametrize("players", [8, 9, 10, 13])
def test_the_smallest_fields_are_simulated(players):
    """8 is the championship's minimum (Championship Rules); 9 and 10 make one or two tables of 5,
    13 a table of 5 beside two of 4."""
    out = StringIO()
    call_command(
        "simulate_event", "--players", str(players), "--rounds", "1", "--no-final", stdout=out
    )
    event = Event.objects.get()
    sizes = sorted(t.seats.count() for t in Table.objects.filter(round__event=event))
    assert sizes == sorted(table_pattern(players, 4, 5).sizes)
    assert sum(sizes) == players
    assert "1 preliminary round posted" in out.getvalue()


def _assert_consistent(event: Event, players: int, rounds: int) -> None:
    seated = set(event.players.filter(status=Player.Status.PLAYER).values_list("pk", flat=True))
    assert len(seated) == players
    posted = preliminary_rounds(event)
    assert len(posted) == rounds
    for round_ in posted:
        assert RoundPosting.objects.filter(round=round_).exists()
        seats = list(Seat.objects.filter(round=round_).values_list("player_id", "table_id"))
        # Everyone seated exactly once, nobody else, at tables of 4 or 5 (Championship Rules).
        assert sorted(p for p, _ in seats) == sorted(seated)
        assert set(Counter(t for _, t in seats).values()) <= {4, 5}
        tables = Table.objects.filter(round=round_)
        # One approved sheet per table, and one result line per seat.
        assert TableSheet.objects.filter(table__in=tables).count() == tables.count()
        assert not TableSheet.objects.filter(table__in=tables).exclude(status="approved").exists()
        assert ResultLine.objects.filter(table__in=tables).count() == players
    rows = standings(event=event, only_posted=True)
    assert {row.player.pk: row.points for row in rows} == rule_book_totals(event)
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    assert {row.games for row in rows} == {rounds}


@pytest.mark.django_db
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=8, max_value=26).filter(
        lambda n: not table_pattern(n, 4, 5).fallback
    ),
    rounds=st.integers(min_value=1, max_value=2),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_a_simulated_event_adds_up(players, rounds, seed):
    simulated = event_simulate(players=players, rounds=rounds, seed=seed, final=False)
    _assert_consistent(simulated.event, players, rounds)


@pytest.mark.django_db
def test_standings_rank_a_field_in_one_pass(monkeypatch, django_assert_max_num_queries):
    """The ranking groups players level on every tie-breaker in one pass over the sorted
    rows (it used to scan the rest of the list for each group: 2,000 players, 2 million
    comparisons), in a number of queries that does not depend on the field."""
    simulated = event_simulate(players=40, rounds=1, seed=5, final=False)
    calls = Counter()
    strength = TieBreakers.strength

    def counted(self, values):
        calls["strength"] += 1
        return strength(self, values)

    monkeypatch.setattr(TieBreakers, "strength", counted)
    with django_assert_max_num_queries(6):
        rows = standings(event=simulated.event, only_posted=True)
    assert len(rows) == 40
    assert calls["strength"] <= 2 * len(rows)  # the sort's key, then the grouping
