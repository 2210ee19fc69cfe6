"""`simulate_event` and demo.simulation: whole days through the real services.

Points are checked against the rule book (tests/demo/simulation_helpers.py), not against the
code under test.
"""

from __future__ import annotations

import datetime
import uuid
from collections import defaultdict
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from demo.event import demo_officials
from demo.simulation import (
    Officials,
    day_start,
    event_build,
    event_simulate,
    final_seat,
    people_generate,
    table_settle,
    wave_play,
)
from scoring.models import ResultLine, RoundPosting, StandingsTieDecision, TableSheet, TieDecision
from scoring.selectors import standings
from scoring.services.posting import round_post
from scoring.services.sheets import sheet_submit
from scoring.services.signatures import sheet_sign
from tests.demo.simulation_helpers import preliminary_rounds, rule_book_totals
from tournament.models import Event, Player, Round, Seat
from tournament.roles import BANK, HEAD_JUDGE_PERMISSION, JUDGE_PERMISSION, MANAGE


@pytest.mark.django_db
@pytest.mark.parametrize("players", [17, 40])
def test_simulate_event_plays_an_event_of_any_size(players):
    out = StringIO()
    call_command("simulate_event", "--players", str(players), "--seed", "3", stdout=out)
    event = Event.objects.get()
    assert event.players.filter(status=Player.Status.PLAYER).count() == players
    assert list(
        event.players.filter(status=Player.Status.ALTERNATE)
        .order_by("alternate_position")
        .values_list("alternate_position", flat=True)
    ) == [1, 2, 3]
    rounds = preliminary_rounds(event)
    assert len(rounds) == 3
    assert all(RoundPosting.objects.filter(round=r).exists() for r in rounds)
    assert (
        not TableSheet.objects.filter(table__round__event=event)
        .exclude(status=TableSheet.Status.APPROVED)
        .exists()
    )
    for round_ in rounds:
        assert sum(t.seats.count() for t in round_.tables.all()) == players
    assert {row.player.pk: row.points for row in standings(event=event, only_posted=True)} == (
        rule_book_totals(event)
    )
    final = event.rounds.get(kind=Round.Kind.FINAL)
    assert Seat.objects.filter(round=final).count() == 4
    assert f"{players} players" in out.getvalue()
    # Played to its winner: the final is posted, its first place named.
    assert RoundPosting.objects.filter(round=final).exists()
    winner = ResultLine.objects.get(table__round=final, place=1).player
    assert f"Winner: {winner.alias}" in out.getvalue()


@pytest.mark.django_db
def test_simulate_event_options_rounds_and_no_final():
    call_command(
        "simulate_event", "--players", "9", "--rounds", "2", "--no-final", stdout=StringIO()
    )
    event = Event.objects.get()
    assert [r.kind for r in event.rounds.order_by("number")] == ["preliminary"] * 2
    assert RoundPosting.objects.filter(round__event=event).count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--players", "3"], "at least 8 players, not 3"),
        (["--players", "11"], "11 players cannot be seated at tables of 4 to 5"),
        (["--players", "5001"], "at most 5000 players"),
        (["--players", "17", "--rounds", "0"], "1 to 10 preliminary rounds, not 0"),
    ],
)
def test_simulate_event_refuses_what_cannot_make_an_event(arguments, message):
    with pytest.raises(CommandError, match=message):
        call_command("simulate_event", *arguments, stdout=StringIO())
    assert not Event.objects.exists()


# --- The club knockout and the junior event ----------------------------------------------------


def table_winner(table) -> int:
    """The table's winner recomputed from its sheet (Tournament Kit, THE DAY OF THE TOURNAMENT): the
    last player left or the highest total assets, then the higher unmortgaged property
    value, then the head judge's recorded order."""
    survivors = [p for p in table.sheet.report["players"] if not p["bankrupt"]]
    best = max((p["net_worth"], p["unmortgaged_property_value"]) for p in survivors)
    level = sorted(
        p["id"] for p in survivors if (p["net_worth"], p["unmortgaged_property_value"]) == best
    )
    if len(level) > 1:
        decision = TieDecision.objects.filter(table=table).order_by("-at", "-pk").first()
        return int(decision.order[0])
    return int(level[0])


def goer(table) -> int:
    """Who goes on from ``table``: its winner, or, if the winner has withdrawn since (the
    simulation sends round 1's table 1 winner home), the next by assets on the sheet. Tournament
    Kit: "others will win by virtue of having the highest total assets at their table"."""
    winner = table_winner(table)
    if Player.objects.get(pk=winner).status == Player.Status.PLAYER:
        return winner
    survivors = sorted(
        (p for p in table.sheet.report["players"] if not p["bankrupt"] and int(p["id"]) != winner),
        key=lambda p: (p["net_worth"], p["unmortgaged_property_value"]),
        reverse=True,
    )
    return int(survivors[0]["id"])


def seated(round_: Round) -> list[set[int]]:
    return [
        set(table.seats.values_list("player_id", flat=True))
        for table in round_.tables.order_by("number")
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        # Six tables of five: their six winners are the final (tests/knockout/test_bracket.py).
        (30, [[5] * 6]),
        # The smallest field of two rounds: 18 tables of three, then 6 tables of three.
        (54, [[3] * 18, [3] * 6]),
    ],
)
def test_simulate_event_club_plays_the_knockout_to_its_six_player_final(client, players, sizes):
    out = StringIO()
    call_command(
        "simulate_event", "--format", "club", "--players", str(players), "--seed", "5", stdout=out
    )
    event = Event.objects.get()
    assert event.format == "club" and event.bracket_confirmed_at is not None
    rounds = preliminary_rounds(event)
    assert [sorted(map(len, seated(r)), reverse=True) for r in rounds] == sizes
    # Tournament Kit: only table winners go on, round after round, and "the final round must have
    # six players".
    going_on = {p.pk for p in event.players.filter(status=Player.Status.PLAYER)}
    going_on |= {line.player_id for line in ResultLine.objects.filter(table__round=rounds[0])}
    for round_ in rounds:
        assert set().union(*seated(round_)) == going_on
        assert RoundPosting.objects.filter(round=round_).exists()
        going_on = {goer(table) for table in round_.tables.all()}
    final = event.rounds.get(kind=Round.Kind.FINAL)
    assert seated(final) == [going_on] and len(going_on) == 6
    assert RoundPosting.objects.filter(round=final).exists()
    if len(rounds) > 1:
        # Tournament Kit: "The final round must have six players": a winner who went home was
        # replaced, and the command says by whom.
        assert "Table 1 winner " in out.getvalue() and "(next by assets, place 2) went on." in (
            out.getvalue()
        )
    winner = Player.objects.get(pk=table_winner(final.tables.get()))
    assert f"Winner: {winner.alias}" in out.getvalue()
    # Its public pages are released, as the demo's are.
    assert winner.alias in client.get(f"/events/{event.pk}/winner/").content.decode()


@pytest.mark.django_db
def test_simulate_event_club_of_40_sends_the_six_highest_asset_totals_to_the_final():
    # Tournament Kit: with 37 to 53 players no knockout reaches six table winners; "choose six
    # winners from your preliminary round by highest total assets".
    call_command("simulate_event", "--format", "club", "--players", "40", stdout=StringIO())
    event = Event.objects.get()
    assert event.knockout_method == "highest_assets"
    (round1,) = preliminary_rounds(event)
    totals = sorted(
        ResultLine.objects.filter(table__round=round1).values_list("net_worth", "player_id"),
        reverse=True,
    )
    final = set(event.rounds.get(kind=Round.Kind.FINAL).seats.values_list("player_id", flat=True))
    sixth = totals[5][0]
    assert {pk for worth, pk in totals if worth > sixth} <= final
    assert len(final) == 6 and all(worth >= sixth for worth, pk in totals if pk in final)


@pytest.mark.django_db
def test_simulate_event_junior_plays_one_game_without_a_final():
    out = StringIO()
    call_command("simulate_event", "--format", "junior", "--players", "12", stdout=out)
    event = Event.objects.get()
    assert [r.kind for r in event.rounds.all()] == ["preliminary"]
    assert RoundPosting.objects.filter(round__event=event).count() == 1
    # Championship Rules, JUNIOR: "ages 8 to 16".
    assert all(8 <= p.age_at_event <= 16 for p in event.players.all())
    richest = ResultLine.objects.filter(table__round__event=event).order_by("-net_worth")[0]
    assert f"Winner: {richest.player.alias}" in out.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--format", "club", "--players", "20"], "at least 24 players, not 20"),
        (["--format", "club", "--players", "30", "--rounds", "2"], "Only a championship"),
        (["--format", "junior", "--players", "12", "--no-final"], "no final to leave out"),
    ],
)
def test_simulate_event_refuses_formats_options_that_do_not_fit(arguments, message):
    with pytest.raises(CommandError, match=message):
        call_command("simulate_event", *arguments, stdout=StringIO())
    assert not Event.objects.exists()


def fingerprint(event: Event) -> list:
    """Who sat where and what they scored, by name (aliases and pks differ per event)."""
    lines = ResultLine.objects.filter(table__round__event=event).select_related(
        "player", "table__round"
    )
    return sorted(
        (
            line.table.round.number,
            line.table.number,
            line.player.full_name,
            line.net_worth,
            line.place,
            line.points,
        )
        for line in lines
    ) + sorted(
        (seat.round.number, seat.table.number, seat.player.full_name)
        for seat in Seat.objects.filter(round__event=event).select_related(
            "round", "table", "player"
        )
    )


@pytest.mark.django_db
def test_simulation_is_deterministic_by_seed():
    first = event_simulate(players=17, seed=11).event
    again = event_simulate(players=17, seed=11).event
    other = event_simulate(players=17, seed=12).event
    assert fingerprint(first) == fingerprint(again)
    assert fingerprint(first) != fingerprint(other)


def test_generated_people_are_distinct_with_about_one_in_ten_in_a_family():
    people = people_generate(count=200, seed=4)
    assert len({(p.first_name, p.last_name) for p in people}) == 200
    in_family = [p for p in people if p.family]
    assert len(in_family) == 20
    families = defaultdict(set)
    for p in in_family:
        families[p.family].add(p.last_name)
    assert all(len(group) == 1 for group in families.values())
    assert people_generate(count=200, seed=4) == people


# --- Ties the engine leaves to the head judge -------------------------------------------------


@pytest.mark.django_db
def test_ties_at_a_table_and_at_the_cut_are_decided_before_posting_and_seating():
    """Three identical tables: each has two players level at the bottom (the table's tie),
    and the three runners-up are level on every standings key across the cut of four."""
    people = people_generate(count=15, seed=0)
    event = event_build(
        name="Tie Cup",
        people=people,
        places=12,
        start=day_start(rounds=1, round_minutes=90),
        seed=0,
        rounds=1,
    )
    round_ = event.rounds.get()
    officials = Officials()
    for wave in round_.waves.all():
        wave_play(
            wave=wave, seed=0, start=day_start(rounds=1, round_minutes=90), officials=officials
        )
    for table in round_.tables.order_by("number"):
        seated = list(table.seats.order_by("position").select_related("player"))
        cash = [3000, 2000, 1000, 1000]
        data = {
            "edition": "classic-us",
            "players": [
                {"id": str(s.player_id), "bankrupt": False, "cash": amount}
                for s, amount in zip(seated, cash, strict=True)
            ],
            "properties": [],
        }
        sheet = sheet_submit(
            table=table, data=data, expected_version=0, submission_key=uuid.uuid4(), by=None
        )
        for s in seated:
            sheet_sign(sheet=sheet, player=s.player, initials="X", by=None)
        sheet_sign(sheet=sheet, initials="BNK", by=None)
        sheet.refresh_from_db()
        assert len(sheet.report["unresolved_ties"]) == 1
        table_settle(sheet=sheet, seed=0, officials=officials)
    assert TieDecision.objects.filter(table__round=round_).count() == 3
    round_post(round_=round_, by=None)

    final = final_seat(event=event, seed=0, officials=officials)
    decision = StandingsTieDecision.objects.get(event=event)
    winners = set(ResultLine.objects.filter(place=1).values_list("player_id", flat=True))
    runners_up = set(ResultLine.objects.filter(place=2).values_list("player_id", flat=True))
    assert set(decision.order) == runners_up
    finalists = set(Seat.objects.filter(round=final).values_list("player_id", flat=True))
    assert finalists == winners | {decision.order[0]}
    assert {row.player.pk: row.points for row in standings(event=event, only_posted=True)} == (
        rule_book_totals(event)
    )
    # The table ties were settled by order: places 3 and 4 with 5 and 3 points.
    assert sorted(ResultLine.objects.filter(place__gte=3).values_list("points", flat=True)) == (
        [Decimal(3)] * 3 + [Decimal(5)] * 3
    )


def test_day_start_leaves_room_for_the_whole_day():
    now = datetime.datetime(2030, 6, 1, 18, 7, tzinfo=datetime.UTC)
    start = day_start(rounds=3, round_minutes=90, now=now)
    assert start.minute % 15 == 0
    # Three rounds of 90 minutes, the last turns (10) and two breaks (30) fit before now.
    assert start + datetime.timedelta(minutes=3 * 100 + 2 * 30) <= now


# --- The demo's officials ---------------------------------------------------------------------


@pytest.mark.django_db
def test_demo_officials_can_log_in_only_when_logins_are_asked_for():
    officials = demo_officials(logins=True)
    users = [officials.organizer, officials.head_judge, officials.judge, officials.banker]
    assert [u.username for u in users] == ["organizer", "headjudge", "judge", "banker"]
    assert all(u.check_password(u.username) for u in users)
    assert officials.organizer.has_perm(MANAGE)
    assert officials.head_judge.has_perm(HEAD_JUDGE_PERMISSION)
    assert officials.judge.has_perm(JUDGE_PERMISSION)
    assert not officials.judge.has_perm(HEAD_JUDGE_PERMISSION)
    assert officials.banker.has_perm(BANK)


@pytest.mark.django_db
def test_demo_officials_without_logins_have_no_usable_password():
    officials = demo_officials(logins=False)
    assert not officials.organizer.has_usable_password()
    assert not officials.banker.has_usable_password()


@pytest.mark.django_db
def test_an_existing_account_is_never_changed_by_the_demo():
    User = get_user_model()
    User.objects.create_user("judge", password="their own passphrase")
    User.objects.create_user("banker", password="their own passphrase")  # not in Banker
    officials = demo_officials(logins=True)
    judge = User.objects.get(username="judge")
    assert judge.check_password("their own passphrase")
    assert not judge.groups.exists()
    assert officials.judge == judge
    assert officials.banker is None  # may not bank, so no table is given to it
