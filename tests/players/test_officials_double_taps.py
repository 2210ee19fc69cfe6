"""Officials' writes sent twice, from a stale page, or over a list left broken.

Each write on the alternates and the seating takes the event's lock, reads again and
decides on what it finds (tournament/locks.py). Here, one request at a time: a page that
shows an older state, a second tap, and an alternates list broken the way the red team
left it (someone who withdrew still holding position 1). The same races from threads at
once, on PostgreSQL: tests/players/test_officials_races_postgres.py.

Expected orders are worked out by hand from Championship Rules, ALTERNATES ("in order", a list with
no gaps) and the fixtures' registration order.
"""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from knockout.services import bracket_confirm, knockout_seat_first_round
from players.alternates import alternate_move
from players.leave_services import player_undo_leave
from players.services import player_eject, player_mark_no_show, player_withdraw
from seating.round_tables import seating_stamp
from seating.services import preseat_event, round_start
from seating.vacancy_services import round_vacancies_decide
from tests.builders import event_with_players
from tournament.models import Player, Round, Seat, Table


def alternates(event) -> list[tuple[str, int]]:
    """(first name, position) of everyone holding an alternate position, in order."""
    return list(
        Player.objects.filter(event=event, alternate_position__isnull=False)
        .order_by("alternate_position")
        .values_list("first_name", "alternate_position")
    )


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def seen_on(page: str, action: str) -> str:
    """The ``seen`` value of the form posting to ``action`` on ``page``."""
    form = page.split(f'action="{action}"', 1)[1].split("</form>", 1)[0]
    return re.search(r'name="seen" value="([^"]*)"', form).group(1)


# --- The alternates ----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_stale_page_cannot_give_a_withdrawn_alternate_a_position(small_event, full_house):
    # full_house: Ada and Alan seated; Grace 1, Edsger 2, Barbara 3.
    grace = full_house[2]
    stale = Player.objects.get(pk=grace.pk)
    player_withdraw(player=grace, reason="")
    with pytest.raises(ValidationError, match="Swift Boot is no longer an alternate"):
        alternate_move(player=stale, to_position=1)
    assert alternates(small_event) == [("Edsger", 1), ("Barbara", 2)]


@pytest.mark.django_db
def test_a_second_withdrawal_says_already_done_and_changes_nothing(small_event, full_house):
    grace = full_house[2]
    player_withdraw(player=Player.objects.get(pk=grace.pk), reason="")
    with pytest.raises(ValidationError, match="Swift Boot has already withdrawn"):
        player_withdraw(player=Player.objects.get(pk=grace.pk), reason="")
    player_eject(player=Player.objects.get(pk=full_house[0].pk), reason="Cheating")
    with pytest.raises(ValidationError, match="Lucky Thimble has already been ejected"):
        player_eject(player=Player.objects.get(pk=full_house[0].pk), reason="Cheating")
    assert alternates(small_event) == [("Edsger", 1), ("Barbara", 2)]


@pytest.mark.django_db
def test_a_list_left_broken_is_mended_by_the_next_write(small_event, full_house):
    grace, barbara = full_house[2], full_house[4]
    # The state the race left: Grace withdrew but still holds position 1.
    Player.objects.filter(pk=grace.pk).update(status=Player.Status.WITHDRAWN)
    player_withdraw(player=barbara, reason="")
    assert alternates(small_event) == [("Edsger", 1)]


@pytest.mark.django_db
def test_moving_from_a_broken_list_works_and_leaves_it_dense(small_event, full_house):
    grace, barbara = full_house[2], full_house[4]
    Player.objects.filter(pk=grace.pk).update(status=Player.Status.WITHDRAWN)
    # Barbara, third, moves up one: among the two left (Edsger, Barbara) she is first.
    assert alternate_move(player=barbara, to_position=1) is True
    assert alternates(small_event) == [("Barbara", 1), ("Edsger", 2)]


@pytest.mark.django_db
def test_the_undo_of_a_withdrawal_puts_the_alternate_back_once(small_event, full_house):
    grace = full_house[2]
    player_withdraw(player=grace, reason="")
    player_undo_leave(player=Player.objects.get(pk=grace.pk))
    with pytest.raises(ValidationError, match="no withdrawal or ejection of Swift Boot"):
        player_undo_leave(player=Player.objects.get(pk=grace.pk))
    assert alternates(small_event) == [("Grace", 1), ("Edsger", 2), ("Barbara", 3)]


@pytest.mark.django_db
def test_a_double_tap_on_up_moves_the_alternate_once(org_client, small_event, full_house):
    barbara = full_house[4]
    url = reverse("players:alternate_move", kwargs={"pk": small_event.pk, "player_pk": barbara.pk})
    page = org_client.get(reverse("players:player_list", kwargs={"pk": small_event.pk}))
    form = page.content.decode().split(f'action="{url}"', 1)[1].split("</form>", 1)[0]
    assert 'name="from" value="3"' in form
    first = org_client.post(url, {"direction": "up", "from": "3"}, follow=True)
    second = org_client.post(url, {"direction": "up", "from": "3"}, follow=True)
    assert (first.status_code, second.status_code) == (200, 200)
    assert "Quiet Iron is now alternate #2." in messages_of(first)
    assert "Quiet Iron is already alternate #2." in messages_of(second)
    assert alternates(small_event) == [("Grace", 1), ("Barbara", 2), ("Edsger", 3)]


@pytest.mark.django_db
def test_two_organizers_withdraw_and_move_the_same_alternate(org_client, small_event, full_house):
    grace = full_house[2]
    kwargs = {"pk": small_event.pk, "player_pk": grace.pk}
    withdrawn = org_client.post(reverse("players:player_withdraw", kwargs=kwargs), follow=True)
    moved = org_client.post(
        reverse("players:alternate_move", kwargs=kwargs),
        {"direction": "down", "from": "1"},
        follow=True,
    )
    assert (withdrawn.status_code, moved.status_code) == (200, 200)
    assert messages_of(moved) == ["Swift Boot is no longer an alternate."]
    assert alternates(small_event) == [("Edsger", 1), ("Barbara", 2)]


# --- A round starting over a broken list, and a double tap on no-show and start -------------


@pytest.fixture
def seated_four(db):
    """One table of four (P0..P3) and three alternates P4, P5, P6, round 1 seated."""
    event = event_with_players(
        players=4,
        extra_players=3,
        alternates=3,
        table_size_min=4,
        table_size_max=4,
        preliminary_rounds=1,
    )
    preseat_event(event=event, only_checked_in=False, time_limit=1.0)
    return event


@pytest.mark.django_db
def test_a_round_starts_over_a_broken_list_and_renumbers_it(seated_four):
    event = seated_four
    p0, p4 = (Player.objects.get(event=event, first_name=n) for n in ("P0", "P4"))
    # The broken state: P4 (alternate 1) withdrew yet holds position 1, and P0 left
    # their seat; no renumbering ran since.
    Player.objects.filter(pk__in=[p0.pk, p4.pk]).update(status=Player.Status.WITHDRAWN)
    round_1 = Round.objects.get(event=event, number=1)
    # 002: "Use of alternates is at the discretion of the Head Judge": the start waits for
    # the choice on P0's seat; the head judge fills it.
    with pytest.raises(ValidationError, match="1 empty seat to decide first"):
        round_start(round_=round_1)
    result = round_vacancies_decide(round_=round_1, choice="fill")
    round_start(round_=round_1)
    # P5 is the first alternate still in the event: P0's seat is theirs; P6 is next.
    assert [(left.first_name, new.first_name) for left, new in result.replaced] == [("P0", "P5")]
    assert alternates(event) == [("P6", 1)]
    seated = set(Seat.objects.filter(round=round_1).values_list("player__first_name", flat=True))
    assert seated == {"P1", "P2", "P3", "P5"}


@pytest.mark.django_db
def test_a_second_start_of_the_round_says_it_has_started(seated_four):
    round_1 = Round.objects.get(event=seated_four, number=1)
    round_start(round_=round_1)
    with pytest.raises(ValidationError, match="Round 1 has already started"):
        round_start(round_=Round.objects.get(pk=round_1.pk))


@pytest.mark.django_db
def test_a_double_tap_on_no_show_marks_once_and_promotes_nobody(seated_four):
    # Round 1 is seated: the seat waits for the head judge (002, "Use of alternates is at
    # the discretion of the Head Judge"), so no alternate moves, on either tap.
    p0 = Player.objects.get(event=seated_four, first_name="P0")
    assert player_mark_no_show(player=Player.objects.get(pk=p0.pk)) is None
    with pytest.raises(ValidationError, match="already a no-show"):
        player_mark_no_show(player=Player.objects.get(pk=p0.pk))
    assert alternates(seated_four) == [("P4", 1), ("P5", 2), ("P6", 3)]


# --- Seating ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_double_tap_on_pre_seat_seats_once(org_client, seated_four):
    event = seated_four
    action = reverse("seating:seating_preseat", kwargs={"pk": event.pk})
    page = org_client.get(reverse("seating:seating", kwargs={"pk": event.pk}))
    seen = seen_on(page.content.decode(), action)
    assert seen == seating_stamp(event=event)
    data = {"include_unchecked": "on", "seen": seen}
    first = org_client.post(action, data, follow=True)
    tables = list(Table.objects.filter(round__event=event).values_list("pk", flat=True))
    second = org_client.post(action, data, follow=True)
    assert (first.status_code, second.status_code) == (200, 200)
    assert "4 players seated for 1 round." in messages_of(first)
    assert messages_of(second) == [
        "Already seated: the tables changed since this page was opened. Look at them first; "
        "seat again from the page if they still need it."
    ]
    assert list(Table.objects.filter(round__event=event).values_list("pk", flat=True)) == tables


@pytest.fixture
def knockout(db):
    """A club knockout with 26 checked in: round 1 at 4+4+4+4+5+5, and 24 at six tables of
    four (tests/knockout/test_knockout_pages.py, from the kit's plans)."""
    return event_with_players(players=26, fmt="club", name="Charity Night")


@pytest.mark.django_db
def test_a_double_tap_on_seat_round_1_seats_once(org_client, knockout):
    bracket_confirm(event=knockout, method="table_winners", by=None)
    action = reverse("knockout:knockout_seat", kwargs={"pk": knockout.pk})
    page = org_client.get(reverse("seating:seating", kwargs={"pk": knockout.pk}))
    seen = seen_on(page.content.decode(), action)
    first = org_client.post(action, {"seen": seen}, follow=True)
    tables = sorted(Table.objects.filter(round__event=knockout).values_list("pk", flat=True))
    second = org_client.post(action, {"seen": seen}, follow=True)
    assert "Round 1 is seated at 6 tables. Next: publish it, then start it." in messages_of(first)
    assert messages_of(second)[0].startswith("Already seated:")
    assert sorted(Table.objects.filter(round__event=knockout).values_list("pk", flat=True)) == (
        tables
    )


@pytest.mark.django_db
def test_seat_round_1_reads_the_plan_confirmed_before_it(knockout):
    """A confirmation that came first (its lock released) is the plan round 1 sits at; a
    page that still showed no tables seats it, since confirming seats nothing."""
    seen = seating_stamp(event=knockout)
    bracket_confirm(event=knockout, method="table_winners", by=None)
    Player.objects.filter(event=knockout, first_name__in=["P24", "P25"]).update(checked_in_at=None)
    bracket_confirm(event=knockout, method="table_winners", by=None)
    round_1 = knockout_seat_first_round(event=knockout, seen=seen, time_limit=1.0)
    # 24 players: the plan's round 1 is six tables of four, never the plan for 26.
    assert sorted(t.seats.count() for t in round_1.tables.all()) == [4] * 6


@pytest.mark.django_db
def test_a_confirmation_after_seating_clears_a_round_1_of_other_tables(knockout):
    bracket_confirm(event=knockout, method="table_winners", by=None)
    knockout_seat_first_round(event=knockout, time_limit=1.0)
    Player.objects.filter(event=knockout, first_name__in=["P24", "P25"]).update(checked_in_at=None)
    bracket_confirm(event=knockout, method="table_winners", by=None)
    assert not Table.objects.filter(round__event=knockout).exists()


@pytest.mark.django_db
def test_a_double_tap_on_confirm_swaps_two_players_once(org_client):
    event = event_with_players(players=8, table_size_min=4, table_size_max=4, preliminary_rounds=1)
    preseat_event(event=event, only_checked_in=False, time_limit=1.0)
    round_1 = Round.objects.get(event=event, number=1)
    one, two = (Seat.objects.filter(table__round=round_1, table__number=n).first() for n in (1, 2))
    url = reverse("seating:seating_change", kwargs={"pk": event.pk, "round_number": 1})
    choice = {"player": one.player_id, "swap_with": two.player_id}
    priced = org_client.post(url, choice).content.decode()
    confirm = priced.split('class="notice seat-change-confirm"', 1)[1].split("</form>", 1)[0]
    assert 'name="from_table" value="1"' in confirm
    data = {**choice, "to_table": "", "confirm": "1", "from_table": "1"}
    first = org_client.post(url, data, follow=True)
    second = org_client.post(url, data, follow=True)
    assert first.status_code == second.status_code == 200
    assert second.redirect_chain == []  # the page again, with the refusal on the form
    assert (
        f"Already done: {one.player.alias} sits at table 2 now. Look again first."
        in second.content.decode().replace("&#x27;", "'")
    )
    tables = {s.player_id: s.table.number for s in Seat.objects.filter(round=round_1)}
    assert (tables[one.player_id], tables[two.player_id]) == (2, 1)


@pytest.mark.django_db
def test_a_double_tap_on_fill_a_seat_fills_the_one_empty_seat(org_client, small_event, full_house):
    player_withdraw(player=full_house[1], reason="")  # Alan leaves: one of two seats empty
    url = reverse("players:alternate_fill_seat", kwargs={"pk": small_event.pk})
    first = org_client.post(url, follow=True)
    second = org_client.post(url, follow=True)
    assert "Swift Boot takes an empty seat." in messages_of(first)
    assert messages_of(second) == ["No seat is empty: every place has its player."]
    assert alternates(small_event) == [("Edsger", 1), ("Barbara", 2)]
