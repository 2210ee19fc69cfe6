"""Two officials at once, and one tapping eight times: the red team's races, from threads.

Each request runs the whole stack (its own test client, session and, being its own
thread, its own database connection); the threads are released together by a barrier, so
the writes meet inside the database. Every answer must be a redirect (never a 500), each
action applied once, the alternates numbered 1..n with no number held by someone who
left, and the event able to start its round afterwards.

Like tests/resilience/test_burst_postgres.py this needs PostgreSQL: row locks and truly
concurrent connections; SQLite serialises every write on the file, so nothing races.
The same actions one after the other: tests/players/test_officials_double_taps.py.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from knockout.bracket import HIGHEST_ASSETS, TABLE_WINNERS
from knockout.selectors import confirmed_plan
from knockout.services import bracket_confirm
from seating.services import preseat_event
from tests.builders import event_with_players, user_with
from tests.resilience.test_burst_postgres import run_together
from tests.url_names import qualified
from tournament.models import Clock, Event, Player, Round, Table
from tournament.roles import HEAD_JUDGE, ORGANIZER

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: concurrent connections and row locks; SQLite serialises")


def logged_in(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def answered(outcomes) -> list:
    """The responses, each a redirect followed to a page: no 500, no exception."""
    for outcome in outcomes:
        assert not isinstance(outcome, Exception), outcome
        assert outcome.status_code == 200, outcome.status_code
        assert outcome.redirect_chain and outcome.redirect_chain[0][1] == 302
    return outcomes


def page_text(response) -> str:
    return " ".join(response.content.decode().split())


def seen_on(client: Client, page: str, action: str) -> str:
    html = client.get(page).content.decode()
    form = html.split(f'action="{action}"', 1)[1].split("</form>", 1)[0]
    found = re.search(r'name="seen" value="([^"]*)"', form)
    # A form without it sends none, and the test then shows what that costs.
    return found.group(1) if found else ""


def assert_alternates_dense(event: Event) -> list[str]:
    """Positions 1..n for the alternates, none for anyone else; the order's first names."""
    holders = list(
        Player.objects.filter(event=event, alternate_position__isnull=False)
        .order_by("alternate_position")
        .values_list("first_name", "status", "alternate_position")
    )
    assert [status for _name, status, _position in holders] == ["alternate"] * len(holders)
    assert [position for *_rest, position in holders] == list(range(1, len(holders) + 1))
    assert Player.objects.filter(event=event, status="alternate").count() == len(holders)
    return [name for name, *_rest in holders]


# --- Two organizers on the alternates ----------------------------------------------------


@pytest.mark.parametrize("attempt", range(4))
def test_two_organizers_withdraw_alternate_1_while_moving_the_list(attempt):
    """One withdraws alternate 1 (P4) while the other moves P4 down, P5 up and P7 up: the
    red team's 1-in-3 race, run four times on fresh events."""
    event = event_with_players(
        players=4,
        extra_players=4,
        alternates=4,
        table_size_min=4,
        table_size_max=4,
        preliminary_rounds=1,
        name=f"Race Cup {attempt}",
    )
    preseat_event(event=event, only_checked_in=False, time_limit=1.0)
    people = {p.first_name: p for p in Player.objects.filter(event=event)}
    olive = logged_in(user_with(ORGANIZER, f"olive{attempt}"))
    oscar = logged_in(user_with(ORGANIZER, f"oscar{attempt}"))

    def url(name: str, who: str) -> str:
        return reverse(qualified(name), kwargs={"pk": event.pk, "player_pk": people[who].pk})

    requests = [
        (olive, url("player_withdraw", "P4"), {"reason": ""}),
        (oscar, url("alternate_move", "P4"), {"direction": "down", "from": "1"}),
        (
            logged_in(user_with(ORGANIZER, f"ola{attempt}")),
            url("alternate_move", "P5"),
            {
                "direction": "up",
                "from": "2",
            },
        ),
        (
            logged_in(user_with(ORGANIZER, f"otto{attempt}")),
            url("alternate_move", "P7"),
            {
                "direction": "up",
                "from": "4",
            },
        ),
    ]
    answered(run_together(lambda r: r[0].post(r[1], r[2], follow=True), requests))

    withdrawn = Player.objects.get(pk=people["P4"].pk)
    assert (withdrawn.status, withdrawn.alternate_position) == ("withdrawn", None)
    order = assert_alternates_dense(event)
    assert sorted(order) == ["P5", "P6", "P7"]

    # Every later write still works: a move, a seated player withdrawing, the round start.
    moved = olive.post(url("alternate_move", order[-1]), {"direction": "up"}, follow=True)
    answered([moved])
    answered([olive.post(url("player_withdraw", "P0"), {"reason": ""}, follow=True)])
    order = assert_alternates_dense(event)
    judge = logged_in(user_with(HEAD_JUDGE, f"hugo{attempt}"))
    # 002: "Use of alternates is at the discretion of the Head Judge": filled, then started.
    answered([judge.post(decide_url(event), {"choice": "fill"}, follow=True)])
    start = reverse("seating:seating_start", kwargs={"pk": event.pk, "round_number": 1})
    answered([judge.post(start, follow=True)])
    round_1 = Round.objects.get(event=event, number=1)
    assert round_1.started_at is not None
    # The first alternate in order took P0's seat; the others are 1..n behind.
    seated = set(round_1.seats.values_list("player__first_name", flat=True))
    assert seated == {"P1", "P2", "P3", order[0]}
    assert assert_alternates_dense(event) == order[1:]


def decide_url(event: Event) -> str:
    """The head judge's choice on round 1's empty seats (seating.vacancy_views)."""
    return reverse("seating:seating_vacancies_decide", kwargs={"pk": event.pk, "round_number": 1})


def hall(*, name: str) -> tuple[Event, dict[str, Player]]:
    """One table of four (P0..P3) seated for round 1, alternates P4..P7, started at 00:00
    today so a no-show may be marked."""
    event = event_with_players(
        players=4,
        extra_players=4,
        alternates=4,
        table_size_min=4,
        table_size_max=4,
        preliminary_rounds=1,
        name=name,
        date=timezone.localdate(),
        start_time=datetime.time(0, 0),
    )
    preseat_event(event=event, only_checked_in=False, time_limit=1.0)
    return event, {p.first_name: p for p in Player.objects.filter(event=event)}


def test_a_no_show_tapped_twice_while_the_list_moves():
    """A judge taps "no-show" for P0 twice while organizers withdraw alternate 1 (P4) and
    move alternate 3 (P6) up: P0 is a no-show once, and the seat waits for the head judge
    (002, "Use of alternates is at the discretion of the Head Judge"), who fills it with
    the first in the list as it stands."""
    event, people = hall(name="No-show Cup")
    judge = user_with(HEAD_JUDGE, "hugo")

    def url(name: str, who: str) -> str:
        return reverse(qualified(name), kwargs={"pk": event.pk, "player_pk": people[who].pk})

    requests = [
        (logged_in(judge), url("player_no_show", "P0"), {}),
        (logged_in(judge), url("player_no_show", "P0"), {}),
        (logged_in(user_with(ORGANIZER, "olive")), url("player_withdraw", "P4"), {}),
        (logged_in(user_with(ORGANIZER, "oscar")), url("alternate_move", "P6"), {"from": "3"}),
    ]
    requests[3][2]["direction"] = "up"
    answered(run_together(lambda r: r[0].post(r[1], r[2], follow=True), requests))
    assert Player.objects.get(pk=people["P0"].pk).status == "no_show"
    assert not Player.objects.filter(replaces=people["P0"]).exists()
    assert Player.objects.get(pk=people["P4"].pk).status == "withdrawn"
    order = assert_alternates_dense(event)
    assert sorted(order) == ["P5", "P6", "P7"]

    answered([logged_in(judge).post(decide_url(event), {"choice": "fill"}, follow=True)])
    start = reverse("seating:seating_start", kwargs={"pk": event.pk, "round_number": 1})
    answered([logged_in(judge).post(start, follow=True)])
    round_1 = Round.objects.get(event=event, number=1)
    assert round_1.started_at is not None
    seated = Player.objects.filter(seats__round=round_1)
    assert sorted(p.status for p in seated) == ["player"] * 4
    assert Player.objects.get(replaces=people["P0"]).first_name == order[0]
    assert assert_alternates_dense(event) == order[1:]


def test_the_clock_starts_while_organizers_change_the_alternates():
    """P0 withdrew, so the head judge fills the seat (002, "Use of alternates is at the
    discretion of the Head Judge") while organizers withdraw alternate 1 (P4), move P5 down
    and P6 up; then the clock starts."""
    event, people = hall(name="Clock Cup")
    Player.objects.filter(pk=people["P0"].pk).update(status=Player.Status.WITHDRAWN)
    wave = Round.objects.get(event=event, number=1).waves.get()
    judge = user_with(HEAD_JUDGE, "hugo")

    def url(name: str, who: str) -> str:
        return reverse(qualified(name), kwargs={"pk": event.pk, "player_pk": people[who].pk})

    organizer = user_with(ORGANIZER, "olive")
    requests = [
        (logged_in(judge), decide_url(event), {"choice": "fill"}),
        (logged_in(organizer), url("player_withdraw", "P4"), {}),
        (logged_in(organizer), url("alternate_move", "P5"), {"direction": "down", "from": "2"}),
        (logged_in(organizer), url("alternate_move", "P6"), {"direction": "up", "from": "3"}),
    ]
    answered(run_together(lambda r: r[0].post(r[1], r[2], follow=True), requests))
    # The fill first: P4 took the seat, then withdrew from it before the start, so the head
    # judge finds an empty seat again and fills it; else the fill gave it to the next.
    answered([logged_in(judge).post(decide_url(event), {"choice": "fill"}, follow=True)])
    clock = reverse("clock:clock_start", kwargs={"pk": event.pk, "wave_pk": wave.pk})
    answered([logged_in(judge).post(clock, follow=True)])
    round_1 = Round.objects.get(event=event, number=1)
    assert round_1.started_at is not None
    assert Clock.objects.filter(wave=wave).count() == 1
    assert Player.objects.get(pk=people["P4"].pk).status == "withdrawn"
    seated = set(round_1.seats.values_list("player__first_name", flat=True))
    assert len(seated) == 4 and {"P1", "P2", "P3"} < seated
    assert set(round_1.seats.values_list("player__status", flat=True)) == {"player"}
    # One of P5..P7 sits in P0's place, the two others wait, numbered 1 and 2.
    waiting = assert_alternates_dense(event)
    assert sorted([*waiting, *(seated - {"P1", "P2", "P3"})]) == ["P5", "P6", "P7"]


def test_four_simultaneous_pre_seats_seat_once():
    event, _people = hall(name="Pre-seat Cup")
    organizer = user_with(ORGANIZER, "olive")
    clients = [logged_in(organizer) for _ in range(4)]
    action = reverse("seating:seating_preseat", kwargs={"pk": event.pk})
    seen = seen_on(clients[0], reverse("seating:seating", kwargs={"pk": event.pk}), action)
    before = set(Table.objects.values_list("pk", flat=True))
    outcomes = answered(
        run_together(
            lambda c: c.post(action, {"seen": seen, "include_unchecked": "on"}, follow=True),
            clients,
        )
    )
    texts = [page_text(o) for o in outcomes]
    assert sum("4 players seated for 1 round." in t for t in texts) == 1
    assert sum("Already seated: the tables changed" in t for t in texts) == 3
    # The re-seat replaced round 1's one table once: one new table, the old one gone.
    tables = set(Table.objects.filter(round__event=event).values_list("pk", flat=True))
    assert len(tables) == 1 and not tables & before


# --- Eight taps on "seat round 1", and "confirm" against "seat" ----------------------------


@pytest.fixture
def knockout() -> Event:
    """A club knockout with 24 checked in, its plan confirmed: six tables of four."""
    event = event_with_players(players=24, fmt="club", name="Charity Night")
    bracket_confirm(event=event, method=TABLE_WINNERS, by=None)
    return event


def test_eight_simultaneous_seat_round_1_seat_it_once(knockout):
    organizer = user_with(ORGANIZER, "olive")
    clients = [logged_in(organizer) for _ in range(8)]
    action = reverse("knockout:knockout_seat", kwargs={"pk": knockout.pk})
    seating = reverse("seating:seating", kwargs={"pk": knockout.pk})
    seen = seen_on(clients[0], seating, action)
    before = list(Table.objects.values_list("pk", flat=True))
    outcomes = answered(
        run_together(lambda c: c.post(action, {"seen": seen}, follow=True), clients)
    )
    texts = [page_text(o) for o in outcomes]
    seated = [t for t in texts if "Round 1 is seated at 6 tables." in t]
    already = [t for t in texts if "Already seated: the tables changed" in t]
    assert (len(seated), len(already)) == (1, 7)
    tables = Table.objects.filter(round__event=knockout).exclude(pk__in=before)
    assert sorted(t.seats.count() for t in tables) == [4] * 6

    judge = logged_in(user_with(HEAD_JUDGE, "hugo"))
    start = reverse("seating:seating_start", kwargs={"pk": knockout.pk, "round_number": 1})
    answered([judge.post(start, follow=True)])
    assert Round.objects.get(event=knockout, number=1).started_at is not None


@pytest.mark.parametrize("attempt", range(3))
def test_confirm_racing_seat_round_1_never_leaves_another_plans_tables(attempt):
    """28 players: the table winners' plan seats round 1 at 5+5+5+5+4+4, the highest
    assets' at seven tables of four (knockout.bracket, worked in test_bracket.py). One
    organizer seats round 1 for the first while another confirms the second."""
    event = event_with_players(players=28, fmt="club", name=f"Pier Night {attempt}")
    bracket_confirm(event=event, method=TABLE_WINNERS, by=None)
    olive = logged_in(user_with(ORGANIZER, f"olive{attempt}"))
    oscar = logged_in(user_with(ORGANIZER, f"oscar{attempt}"))
    seat = reverse("knockout:knockout_seat", kwargs={"pk": event.pk})
    confirm = reverse("knockout:knockout_confirm", kwargs={"pk": event.pk})
    seen = seen_on(olive, reverse("seating:seating", kwargs={"pk": event.pk}), seat)
    answered(
        run_together(
            lambda r: r[0].post(r[1], r[2], follow=True),
            [(olive, seat, {"seen": seen}), (oscar, confirm, {"method": HIGHEST_ASSETS})],
        )
    )
    event.refresh_from_db()
    assert event.knockout_method == HIGHEST_ASSETS
    plan = confirmed_plan(event=event)
    sizes = sorted(
        (t.seats.count() for t in Table.objects.filter(round__event=event, round__number=1)),
        reverse=True,
    )
    # Either round 1 sits at the confirmed plan's tables, or it was cleared to seat again.
    assert sizes in ([], list(plan.rounds[0].tables))
    assert list(plan.rounds[0].tables) == [4] * 7

    # Whatever the order, round 1 can then be seated and started.
    seen = seen_on(olive, reverse("seating:seating", kwargs={"pk": event.pk}), seat)
    answered([olive.post(seat, {"seen": seen}, follow=True)])
    judge = logged_in(user_with(HEAD_JUDGE, f"hugo{attempt}"))
    start = reverse("seating:seating_start", kwargs={"pk": event.pk, "round_number": 1})
    answered([judge.post(start, follow=True)])
    round_1 = Round.objects.get(event=event, number=1)
    assert round_1.started_at is not None
    assert sorted(t.seats.count() for t in round_1.tables.all()) == [4] * 7
