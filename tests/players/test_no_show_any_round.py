"""No-shows at every round's start, and the head judge's choice on the empty seats.

Championship Rules, PLAYER NO SHOW: "Game starts will not wait on any player. If a player is not
seated at the official start time of any round, the player abdicates his/her seat for the rest of
the tournament to an alternate." Championship Rules, ALTERNATES: "Alternates will be ordered prior
to the tournament start to determine who should step-up to take vacancies should they come
available. [...] Use of alternates is at the discretion of the Head Judge." Championship Rules,
NUMBER OF PLAYERS: "Preliminary rounds will have a goal of seating four players per table. If the
number of players is not divisible by four, then some or all tables will have five players."

The field: 16 seated at four tables of four (tables of 4-5), alternates 1, 2, 3 (P16, P17,
P18), two preliminary rounds; round 1 has been played.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from clock.services import clock_start
from players.no_show_selectors import no_show_refusal, no_show_undo_refusal
from players.no_show_services import player_undo_no_show
from players.services import player_mark_no_show
from seating.services import preseat_event
from seating.vacancy_services import round_vacancies_decide
from tests.builders import event_with_players
from tests.seating.test_seating_pages import log_in
from tournament.models import Clock, Event, Player, Round, Seat, Table
from tournament.roles import HEAD_JUDGE

NOW = timezone.now()


def _event(*, table_size_min: int = 4) -> Event:
    event = event_with_players(
        players=16,
        extra_players=3,
        alternates=3,
        table_size_min=table_size_min,
        table_size_max=5,
        preliminary_rounds=2,
    )
    preseat_event(event=event, only_checked_in=False, seed=7, time_limit=2)
    round_1 = Round.objects.get(event=event, number=1)
    for wave in round_1.waves.all():
        clock_start(wave=wave, now=NOW - datetime.timedelta(hours=3))
    Table.objects.filter(round=round_1).update(status=Table.Status.SCORED)
    return event


@pytest.fixture
def event(db) -> Event:
    return _event()


def round_2(event: Event) -> Round:
    return Round.objects.get(event=event, number=2)


def schedule_round_2(event: Event, start: datetime.datetime) -> None:
    round_2(event).waves.update(scheduled_start=start)


def at_table(event: Event, table: int) -> list[Player]:
    seats = Seat.objects.filter(round=round_2(event), table__number=table).order_by("position")
    return [seat_.player for seat_ in seats]


def sizes(event: Event) -> list[int]:
    return [len(at_table(event, t.number)) for t in round_2(event).tables.order_by("number")]


def alternates(event: Event) -> list[tuple[str, int]]:
    return list(
        Player.objects.filter(event=event, status=Player.Status.ALTERNATE)
        .order_by("alternate_position")
        .values_list("first_name", "alternate_position")
    )


def two_no_shows_at_table_1(event: Event) -> list[Player]:
    schedule_round_2(event, NOW - datetime.timedelta(minutes=1))
    gone = at_table(event, 1)[:2]
    for player in gone:
        assert no_show_refusal(player=player) is None
        assert player_mark_no_show(player=player) is None
    return gone


def test_a_round_2_no_show_is_refused_before_its_wave_starts_and_allowed_from_then(event):
    # "not seated at the official start time of any round": round 2's start, not round 1's.
    player = at_table(event, 1)[0]
    schedule_round_2(event, NOW + datetime.timedelta(hours=1))
    refusal = no_show_refusal(player=player, now=NOW)
    assert refusal.startswith("Not before the start of round 2 (")
    schedule_round_2(event, NOW - datetime.timedelta(minutes=1))
    assert no_show_refusal(player=player, now=NOW) is None


def test_the_view_refuses_before_round_2_and_marks_after(event, client):
    player = at_table(event, 1)[0]
    head_judge = log_in(client, HEAD_JUDGE)
    mark = reverse("players:player_no_show", kwargs={"pk": event.pk, "player_pk": player.pk})
    schedule_round_2(event, NOW + datetime.timedelta(hours=1))
    page = head_judge.post(mark, follow=True).content.decode()
    assert "Not before the start of round 2" in page
    player.refresh_from_db()
    assert player.status == Player.Status.PLAYER
    schedule_round_2(event, NOW - datetime.timedelta(minutes=1))
    page = head_judge.post(mark, follow=True).content.decode()
    assert "The seat waits for the head judge" in page
    player.refresh_from_db()
    assert player.status == Player.Status.NO_SHOW


def test_a_round_without_a_start_time_waits_for_the_head_judge_to_call_it(event, client):
    # "The Head Judge holds the official timepiece" (Championship Rules, TIME KEEPING).
    player = at_table(event, 1)[0]
    assert "it has no start time yet" in no_show_refusal(player=player)
    head_judge = log_in(client, HEAD_JUDGE)
    call = reverse("seating:seating_call_start", kwargs={"pk": event.pk, "round_number": 2})
    page = head_judge.post(call, {"wave": 1}, follow=True).content.decode()
    assert "no-shows can be marked now" in page
    assert no_show_refusal(player=player) is None


def test_nothing_fills_the_seat_until_the_head_judge_chooses(event):
    gone = two_no_shows_at_table_1(event)
    # Marked, the seats still hold the no-shows; no alternate moved.
    assert at_table(event, 1)[:2] == gone
    assert alternates(event) == [("P16", 1), ("P17", 2), ("P18", 3)]
    # The clock will not start (nor the round) while the seats are undecided.
    with pytest.raises(ValidationError, match="2 empty seats to decide first"):
        clock_start(wave=round_2(event).waves.first())
    assert not Clock.objects.filter(wave__round=round_2(event)).exists()
    assert not round_2(event).has_started
    assert at_table(event, 1)[:2] == gone


def test_fill_the_alternates_take_the_seats_in_order(event):
    gone = two_no_shows_at_table_1(event)
    round_vacancies_decide(round_=round_2(event), choice="fill")
    # "who should step-up to take vacancies": alternate 1 the first seat, 2 the second.
    assert [p.first_name for p in at_table(event, 1)[:2]] == ["P16", "P17"]
    assert gone[0] not in at_table(event, 1)
    assert alternates(event) == [("P18", 1)]
    assert sizes(event) == [4, 4, 4, 4]
    clock_start(wave=round_2(event).waves.first())
    assert round_2(event).has_started


def test_leave_is_refused_when_a_table_falls_below_its_minimum(event):
    two_no_shows_at_table_1(event)
    with pytest.raises(ValidationError, match="Table 1 would have 2 players, fewer than the 4"):
        round_vacancies_decide(round_=round_2(event), choice="leave")
    assert sizes(event) == [4, 4, 4, 4]


def test_leave_the_table_plays_short_when_the_rule_allows(db):
    event = _event(table_size_min=3)
    schedule_round_2(event, NOW - datetime.timedelta(minutes=1))
    gone = at_table(event, 2)[0]
    player_mark_no_show(player=gone)
    round_vacancies_decide(round_=round_2(event), choice="leave")
    assert sizes(event) == [4, 3, 4, 4]
    assert gone not in at_table(event, 2)
    assert alternates(event) == [("P16", 1), ("P17", 2), ("P18", 3)]


def test_rebalance_moves_players_to_even_the_tables(event):
    two_no_shows_at_table_1(event)
    stay = at_table(event, 1)[2:]
    round_vacancies_decide(round_=round_2(event), choice="rebalance")
    # 14 players at tables of 4-5: 5 + 5 + 4 (three tables; four would need 16).
    assert sorted(sizes(event), reverse=True) == [5, 5, 4]
    assert all(Seat.objects.filter(round=round_2(event), player=p).exists() for p in stay)
    assert alternates(event) == [("P16", 1), ("P17", 2), ("P18", 3)]


def test_undo_works_until_the_next_game_starts_and_is_refused_after(event):
    late, other = two_no_shows_at_table_1(event)
    round_vacancies_decide(round_=round_2(event), choice="fill")
    # Late but before the clock: the seat is theirs again, P16 back to alternate 1.
    assert no_show_undo_refusal(player=late) is None
    player_undo_no_show(player=late)
    assert at_table(event, 1)[0] == late
    assert alternates(event) == [("P16", 1), ("P18", 2)]
    clock_start(wave=round_2(event).waves.first())
    other.refresh_from_db()
    assert no_show_undo_refusal(player=other).startswith("Play has started")
    with pytest.raises(ValidationError, match="Play has started"):
        player_undo_no_show(player=other)


def test_undo_after_leaving_the_seat_seats_the_player_again(db):
    event = _event(table_size_min=3)
    schedule_round_2(event, NOW - datetime.timedelta(minutes=1))
    gone = at_table(event, 2)[0]
    player_mark_no_show(player=gone)
    round_vacancies_decide(round_=round_2(event), choice="leave")
    player_undo_no_show(player=Player.objects.get(pk=gone.pk))
    assert gone in at_table(event, 2) and sizes(event) == [4, 4, 4, 4]


def test_the_start_page_lists_the_empty_seats_and_the_alternates_in_order(event, client):
    late, other = two_no_shows_at_table_1(event)
    head_judge = log_in(client, HEAD_JUDGE)
    page = head_judge.get(
        reverse("seating:seating_vacancies", kwargs={"pk": event.pk, "round_number": 2})
    ).content.decode()
    empty = page[page.index('id="vacancies"') : page.index('id="alternates"')]
    assert empty.index(late.alias) < empty.index(other.alias)
    assert empty.count('class="vacancy"') == 2
    waiting = page[page.index('id="alternates"') : page.index('id="choose"')]
    names = [Player.objects.get(event=event, first_name=n).alias for n in ("P16", "P17", "P18")]
    assert waiting.index(names[0]) < waiting.index(names[1]) < waiting.index(names[2])
    assert 'value="fill"' in page and 'value="rebalance"' in page
    # Leaving is offered disabled, with the reason beside it.
    assert 'id="choose-leave" disabled' in page and "fewer than the 4" in page
    # Every choice carries the officials' key, so a double tap is applied once.
    choose = page[page.index('id="choose"') :]
    assert choose.count('name="idempotency_key"') == 3


def test_the_head_judges_choice_on_the_page_fills_the_seats(event, client):
    two_no_shows_at_table_1(event)
    head_judge = log_in(client, HEAD_JUDGE)
    decide = reverse("seating:seating_vacancies_decide", kwargs={"pk": event.pk, "round_number": 2})
    page = head_judge.post(decide, {"choice": "fill"}, follow=True).content.decode()
    assert "The alternates took the empty seats in their order." in page
    assert 'id="no-vacancy"' in page
    again = head_judge.post(decide, {"choice": "fill"}, follow=True).content.decode()
    assert "No seat is empty in round 2: nothing to decide." in again


def test_the_cockpit_asks_for_the_choice_before_the_start(event):
    from cockpit.plan import _round_action
    from cockpit.selectors import _round_facts

    two_no_shows_at_table_1(event)
    Round.objects.filter(pk=round_2(event).pk).update(assignments_published=True)
    facts = _round_facts(round_2(event))
    assert facts.vacancies == 2
    action = _round_action(facts)
    assert action.url_name == "seating:seating_vacancies" and action.round_number == 2
    assert action.label == "Decide 2 empty seats of round 2"
    round_vacancies_decide(round_=round_2(event), choice="fill")
    assert _round_action(_round_facts(round_2(event))).url_name == "clock:clock_control"
