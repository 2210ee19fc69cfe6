"""Pre-seating an event, judges' moves and their cost, vacancies at the start of a round."""

from itertools import combinations

import pytest
from django.core.exceptions import ValidationError

from players.services import player_mark_no_show, player_withdraw
from seating.services import (
    meeting_history,
    move_cost,
    preseat_event,
    round_fill_vacancies,
    round_publish,
    round_start,
    seat_move,
    seats_swap,
    swap_cost,
)
from tests.builders import event_with_players
from tournament.models import Player, Round, Seat, Table
from tournament.play_order import table_record_play_order, table_roll_play_order

SEATING_CUP = {"name": "Seating Cup"}


def tables_by_round(event):
    result = {}
    for seat in Seat.objects.filter(round__event=event).select_related("round", "table"):
        result.setdefault(seat.round.number, {}).setdefault(seat.table.number, []).append(
            seat.player_id
        )
    return result


@pytest.mark.django_db
def test_preseating_21_players_seats_everyone_once_per_round_without_rematches():
    event = event_with_players(
        players=21, families={0: "lee", 1: "lee", 2: "lee", 5: "ruiz", 6: "ruiz"}, **SEATING_CUP
    )
    preseat_event(event=event)
    seating = tables_by_round(event)
    assert sorted(seating) == [1, 2, 3]
    households = dict(Player.objects.values_list("pk", "household"))
    pairs = []
    for tables in seating.values():
        assert sorted(len(t) for t in tables.values()) == [4, 4, 4, 4, 5]
        assert sorted(p for t in tables.values() for p in t) == sorted(households)
        for table in tables.values():
            for a, b in combinations(table, 2):
                pairs.append(frozenset((a, b)))
                assert not (households[a] and households[a] == households[b])
    assert len(pairs) == len(set(pairs)), "a pair met twice"
    report = Round.objects.get(event=event, number=1).seating_report
    assert (report["repeat_meetings"], report["family_conflicts"]) == (0, 0)


@pytest.mark.django_db
def test_meeting_history_lists_each_meeting_of_the_rounds_asked():
    event = event_with_players(players=8, **SEATING_CUP)
    preseat_event(event=event)
    seating = tables_by_round(event)
    # Two tables of four: six pairs a table, twelve a round.
    by_hand = [
        frozenset(pair)
        for number in (1, 2)
        for table in seating[number].values()
        for pair in combinations(table, 2)
    ]
    rounds = Round.objects.filter(event=event, number__in=[1, 2])
    history = meeting_history(rounds=rounds)
    assert len(history) == 24
    assert sorted(map(sorted, history)) == sorted(map(sorted, by_hand))
    assert meeting_history(rounds=Round.objects.none()) == []


@pytest.mark.django_db
def test_only_checked_in_players_are_seated_unless_asked():
    event = event_with_players(players=12, **SEATING_CUP)
    Player.objects.filter(first_name="P0").update(checked_in_at=None)
    preseat_event(event=event)
    assert Seat.objects.filter(round__number=1).count() == 11
    preseat_event(event=event, only_checked_in=False)
    assert Seat.objects.filter(round__number=1).count() == 12


@pytest.mark.django_db
def test_waves_split_tables_by_the_events_tables_per_wave():
    event = event_with_players(players=20, tables_per_wave=2, **SEATING_CUP)
    preseat_event(event=event)
    round_1 = Round.objects.get(event=event, number=1)
    assert [w.tables.count() for w in round_1.waves.order_by("number")] == [2, 2, 1]


@pytest.mark.django_db
def test_a_swap_shows_its_cost_before_it_is_made():
    event = event_with_players(players=16, **SEATING_CUP)
    preseat_event(event=event)
    seating = tables_by_round(event)
    # a met c at table 1 in round 1. In round 2 c sits elsewhere; swapping a with one of
    # c's round-2 tablemates puts a and c together again.
    a, c = seating[1][1][0], seating[1][1][1]
    seat_a = Seat.objects.get(round__number=2, player_id=a)
    seat_c = Seat.objects.get(round__number=2, player_id=c)
    seat_b = Seat.objects.filter(round__number=2, table=seat_c.table).exclude(player_id=c).first()
    cost = swap_cost(seat_a=seat_a, seat_b=seat_b)
    assert cost.before.repeat_meetings == 0
    assert cost.new_repeats > 0 and not cost.is_free
    seats_swap(seat_a=seat_a, seat_b=seat_b)
    seat_a.refresh_from_db()
    seat_b.refresh_from_db()
    assert seat_a.table_id != seat_b.table_id
    assert Seat.objects.filter(round__number=2).count() == 16


@pytest.mark.django_db
def test_a_move_must_keep_tables_within_the_size_rule():
    event = event_with_players(players=17, **SEATING_CUP)
    preseat_event(event=event)
    five = next(t for t in Table.objects.filter(round__number=1) if t.seats.count() == 5)
    four = next(t for t in Table.objects.filter(round__number=1) if t.seats.count() == 4)
    with pytest.raises(ValidationError):
        seat_move(seat_=four.seats.first(), to_table=five.number)
    leaving = five.seats.first()
    other_four = next(
        t for t in Table.objects.filter(round__number=1) if t.seats.count() == 4 and t != five
    )
    assert move_cost(seat_=leaving, to_table=other_four.number).after is not None
    seat_move(seat_=leaving, to_table=other_four.number)
    assert sorted(t.seats.count() for t in Table.objects.filter(round__number=1)) == [4, 4, 4, 5]


@pytest.mark.django_db
def test_a_dry_run_refuses_as_the_change_would_and_changes_nothing():
    event = event_with_players(players=17, **SEATING_CUP)
    preseat_event(event=event)
    before = tables_by_round(event)
    five = next(t for t in Table.objects.filter(round__number=1) if t.seats.count() == 5)
    four = next(t for t in Table.objects.filter(round__number=1) if t.seats.count() == 4)
    # 4 + 5 players: a move from the four to the five leaves 3 and makes 6, outside 4 to 5.
    with pytest.raises(ValidationError):
        seat_move(seat_=four.seats.first(), to_table=five.number, dry_run=True)
    # Legal moves and swaps pass their dry run and leave every seat where it was.
    seat_move(seat_=five.seats.first(), to_table=four.number, dry_run=True)
    seats_swap(seat_a=five.seats.first(), seat_b=four.seats.first(), dry_run=True)
    assert tables_by_round(event) == before
    # A round started refuses the dry run as it refuses the swap.
    round_start(round_=Round.objects.get(event=event, number=1))
    with pytest.raises(ValidationError):
        seats_swap(seat_a=five.seats.first(), seat_b=four.seats.first(), dry_run=True)


@pytest.mark.django_db
def test_a_no_show_is_replaced_by_the_first_alternate_at_the_start():
    event = event_with_players(players=16, extra_players=2, **SEATING_CUP)
    preseat_event(event=event)
    gone = Seat.objects.get(round__number=1, position=1, table__number=1).player
    first_alternate = Player.objects.get(alternate_position=1)
    player_mark_no_show(player=gone)  # the alternate takes the registration seat now...
    result = round_fill_vacancies(round_=Round.objects.get(event=event, number=1))
    # ... and the table seat at the start of the round.
    assert result.replaced == ((gone, first_alternate),)
    assert Seat.objects.get(round__number=1, table__number=1, position=1).player == (
        first_alternate
    )


@pytest.mark.django_db
def test_without_alternates_tables_are_rebalanced_moving_few_players():
    event = event_with_players(players=16, **SEATING_CUP)
    preseat_event(event=event)
    round_1 = Round.objects.get(event=event, number=1)
    # Two players of table 1 withdraw and no alternate is left: 14 players sit 5 + 5 + 4,
    # so table 1's two remaining players join two other tables and table 1 closes.
    leaving = [s.player for s in Seat.objects.filter(round=round_1, table__number=1)[:2]]
    for player in leaving:
        player_withdraw(player=player)
    result = round_fill_vacancies(round_=round_1)
    assert set(result.removed) == set(leaving)
    sizes = sorted(t.seats.count() for t in Table.objects.filter(round=round_1))
    assert sizes == [4, 5, 5]
    # Table 1 had two players left: they are the only ones who moved.
    assert len(result.moved) == 2


@pytest.mark.django_db
def test_a_started_round_cannot_be_changed_and_publishing_needs_seats():
    event = event_with_players(players=8, **SEATING_CUP)
    with pytest.raises(ValidationError):
        round_publish(round_=Round.objects.create(event=event, number=1))
    preseat_event(event=event)
    round_1 = Round.objects.get(event=event, number=1)
    round_start(round_=round_1)
    seats = list(Seat.objects.filter(round=round_1)[:2])
    with pytest.raises(ValidationError):
        seats_swap(seat_a=seats[0], seat_b=seats[1])
    assert round_publish(round_=round_1).assignments_published


@pytest.mark.django_db
def test_play_order_by_the_app_or_recorded_from_the_table():
    event = event_with_players(players=4, tables_per_wave=0, **SEATING_CUP)
    preseat_event(event=event)
    table = Table.objects.get(round__number=1)
    seated = list(table.seats.order_by("position").values_list("player_id", flat=True))
    rolled = table_roll_play_order(table=table, seed=7)
    assert sorted(rolled["token_order"]) == sorted(seated)
    # The order of play is the seat order turned to start at the highest roller.
    start = seated.index(rolled["starter"])
    assert rolled["play_order"] == seated[start:] + seated[:start]
    assert all(1 <= r <= 6 for rolls in rolled["token_rolls"].values() for r in rolls)
    assert all(2 <= r <= 12 for rolls in rolled["order_rolls"].values() for r in rolls)
    with pytest.raises(ValidationError):
        table_record_play_order(table=table, token_order=seated[:3], starter=seated[0])
    with pytest.raises(ValidationError):
        table_record_play_order(table=table, token_order=seated, starter=-1)
    recorded = table_record_play_order(table=table, token_order=seated, starter=seated[2])
    assert recorded["source"] == "table"
    assert recorded["play_order"] == [seated[2], seated[3], seated[0], seated[1]]
