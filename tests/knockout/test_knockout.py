"""The club knockout through the services: places, the bracket, round by round to the final.

The rules are the kit's (Tournament Kit, "THE DAY OF THE TOURNAMENT"), quoted where they
are checked; every expected place and finalist is worked out by hand from the cash and
deeds written on the sheets here, never read back from the code.
"""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from knockout.bracket import HIGHEST_ASSETS, TABLE_WINNERS, WINNERS_ASSETS
from knockout.services import (
    bracket_confirm,
    knockout_seat_first_round,
    minimum_override_record,
)
from scoring.models import ResultLine
from scoring.selectors import knockout_progress, round_table_winners
from scoring.services.advancement import advance_to_final, knockout_advance
from scoring.services.posting import round_post, round_unpost
from scoring.services.sheets import sheet_submit
from scoring.services.signatures import sheet_sign
from scoring.services.ties import standings_tie_decide, tie_decide
from seating.services import preseat_event, round_start
from seating.vacancy_services import round_vacancies_decide
from tests.builders import an_event, players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Player, Round, Seat, Table


@pytest.fixture
def club(db):
    return an_event(
        name="Charity Night",
        fmt="club",
        organization="Harbour Club",
        venue="Pier Hall",
        date=datetime.date(2031, 6, 7),
    )


def checked_in(
    event, count: int, *, first: int = 1, families: dict[int, str] | None = None
) -> list[Player]:
    """``count`` players P01.. (from number ``first``), all checked in; ``families`` maps a
    number to a household."""
    aliases = [f"P{i:02d}" for i in range(first, first + count)]
    made = players_with_aliases(
        event, aliases=aliases, start=first, checked_in=True, households=families
    )
    return list(made.values())


def tables_of(round_: Round) -> list[list[Player]]:
    return [
        [s.player for s in Seat.objects.filter(table=t).select_related("player")]
        for t in Table.objects.filter(round=round_).order_by("number")
    ]


def finish(round_: Round) -> None:
    """The round was played: started, every game over (the clock pages are tested elsewhere)."""
    round_start(round_=round_)
    Table.objects.filter(round=round_).update(status=Table.Status.FINISHED)


def play_by_number(round_: Round, *, skip: int | None = None) -> None:
    """Each player holds 100 x their number in cash: the highest number wins every table
    (but table ``skip``, left for the test to play)."""
    for table in Table.objects.filter(round=round_).exclude(number=skip):
        seated = [s.player for s in Seat.objects.filter(table=table).select_related("player")]
        play(table, {p: 100 * int(p.alias[1:]) for p in seated})


def submit(table: Table, players: list[Player], data: dict) -> None:
    sheet = sheet_submit(
        table=table, data=data, expected_version=0, submission_key=uuid.uuid4(), by=None
    )
    for player in players:
        sheet_sign(sheet=sheet, player=player, initials="ok", by=None)
    sheet_sign(sheet=sheet, initials="BNK", by=None)


def places(table: Table, letters: dict[str, Player]) -> dict[str, int | None]:
    """Each player's place at ``table``, by the letter the test calls them."""
    letter = {player.pk: name for name, player in letters.items()}
    return {letter[line.player_id]: line.place for line in ResultLine.objects.filter(table=table)}


# --- A table's winner ---------------------------------------------------------------------


def seated_table(club, aliases: str) -> tuple[Table, dict[str, Player]]:
    players = checked_in(club, 24)
    bracket_confirm(event=club, method=TABLE_WINNERS, by=None)
    round_ = knockout_seat_first_round(event=club)
    finish(round_)
    table = table_of(round_, 1)
    seated = [s.player for s in Seat.objects.filter(table=table).order_by("position")]
    assert len(seated) == 4 and len(players) == 24
    return table, dict(zip(aliases, seated, strict=True))


def test_the_last_player_left_is_the_outright_winner(club):
    # Tournament Kit: "some outright winners": three players bankrupt, A is left with $50 in cash.
    table, p = seated_table(club, "ABCD")
    data = {
        "edition": "classic-us",
        "players": [
            {"id": str(p["A"].pk), "bankrupt": False, "cash": 50},
            {"id": str(p["B"].pk), "bankrupt": True, "cash": 0, "out_order": 1},
            {"id": str(p["C"].pk), "bankrupt": True, "cash": 0, "out_order": 2},
            {"id": str(p["D"].pk), "bankrupt": True, "cash": 0, "out_order": 3},
        ],
        "properties": [],
    }
    submit(table, list(p.values()), data)
    # Bankrupt players follow the survivor, the last one out first.
    assert places(table, p) == {"A": 1, "D": 2, "C": 3, "B": 4}
    assert round_table_winners(round_=table.round)[0].winner == p["A"]


def test_the_highest_total_assets_win_then_the_higher_unmortgaged_property_value(club):
    # Tournament Kit: "others will win by virtue of having the highest total assets at their table".
    # A: $1000 + Boardwalk (printed price $400)            = $1400, unmortgaged $400
    # B: $1225 + Park Place mortgaged (half of $350 = $175) = $1400, unmortgaged $0
    # C: $1000 + Reading Railroad mortgaged (half of $200)  = $1100
    # D: $1300                                              = $1300
    # A and B tie on $1400; A's unmortgaged $400 beats B's $0: A wins the table.
    table, p = seated_table(club, "ABCD")
    data = {
        "edition": "classic-us",
        "players": [
            {"id": str(p["A"].pk), "bankrupt": False, "cash": 1000},
            {"id": str(p["B"].pk), "bankrupt": False, "cash": 1225},
            {"id": str(p["C"].pk), "bankrupt": False, "cash": 1000},
            {"id": str(p["D"].pk), "bankrupt": False, "cash": 1300},
        ],
        "properties": [
            {"position": 39, "owner": str(p["A"].pk)},
            {"position": 37, "owner": str(p["B"].pk), "mortgaged": True},
            {"position": 5, "owner": str(p["C"].pk), "mortgaged": True},
        ],
    }
    submit(table, list(p.values()), data)
    assert places(table, p) == {"A": 1, "B": 2, "D": 3, "C": 4}
    assert ResultLine.objects.get(player=p["A"]).net_worth == 1400


def test_a_tie_on_both_goes_to_the_head_judge_and_a_shared_first_place_has_no_winner(club):
    # A and B: $1500 each and no deeds; C $900, D $800. Level on assets and on unmortgaged
    # property, so the head judge names the table winner.
    table, p = seated_table(club, "ABCD")
    cash = {"A": 1500, "B": 1500, "C": 900, "D": 800}
    play(table, {p[a]: amount for a, amount in cash.items()})
    assert places(table, p) == {"A": 1, "B": 1, "C": 3, "D": 4}
    tie_decide(table=table, share_points=True, by=None, reason="Both asked to share")
    assert round_table_winners(round_=table.round)[0].winner is None
    tie_decide(table=table, order=[p["B"].pk, p["A"].pk], by=None, reason="Head judge's call")
    assert places(table, p) == {"B": 1, "A": 2, "C": 3, "D": 4}
    assert round_table_winners(round_=table.round)[0].winner == p["B"]


# --- Round 1 from the confirmed bracket ------------------------------------------------------


def test_round_1_sits_at_exactly_the_plans_tables_with_families_apart(club):
    # 29 players: one round reaches six table winners at six tables, "as close to four as
    # that allows": 5+5+5+5+5+4. The seating engine alone would make 7 tables (5+4x6).
    players = checked_in(
        club, 29, families={1: "marsh", 2: "marsh", 3: "marsh", 4: "patel", 5: "patel"}
    )
    bracket_confirm(event=club, method=TABLE_WINNERS, by=None)
    round_ = knockout_seat_first_round(event=club)
    tables = tables_of(round_)
    assert sorted((len(t) for t in tables), reverse=True) == [5, 5, 5, 5, 5, 4]
    assert {p.pk for t in tables for p in t} == {p.pk for p in players}
    for table in tables:
        households = [p.household for p in table if p.household]
        assert len(households) == len(set(households))
    assert round_.seating_report["table_sizes"] == [5, 5, 5, 5, 5, 4]
    assert round_.seating_report["players"] == 29


def test_the_plans_short_tables_where_the_engine_would_choose_fewer(club):
    # 20 players (below the minimum, so with an override): the plan is six tables, 4+4+3+3+3+3
    # ("half of them at tables of three and half at tables of four", as near as 20 allows);
    # left to itself the engine would seat five tables of four.
    checked_in(club, 20)
    minimum_override_record(event=club, reason="Snowstorm: four tables stayed home", by=None)
    bracket_confirm(event=club, method=TABLE_WINNERS, by=None)
    round_ = knockout_seat_first_round(event=club)
    assert sorted((len(t) for t in tables_of(round_)), reverse=True) == [4, 4, 3, 3, 3, 3]


def test_seating_round_1_waits_for_a_plan_for_the_players_here_and_the_minimum(club, admin_user):
    players = checked_in(club, 23)
    with pytest.raises(ValidationError, match="Confirm a bracket"):
        knockout_seat_first_round(event=club)
    bracket_confirm(event=club, method=HIGHEST_ASSETS, by=admin_user)
    # Tournament Kit: "You must have a minimum of 24 players".
    with pytest.raises(ValidationError, match="minimum of 24 players; 23 are checked in"):
        knockout_seat_first_round(event=club)
    # A 24th player arrives: the plan for 23 no longer fits.
    late = checked_in(club, 1, first=24)[0]
    assert late.alias == "P24" and len(players) == 23
    with pytest.raises(ValidationError, match="for 23 players, but 24 are checked in"):
        knockout_seat_first_round(event=club)
    club = bracket_confirm(event=club, method=TABLE_WINNERS, by=admin_user)
    assert (club.knockout_method, club.bracket_confirmed_by) == (TABLE_WINNERS, admin_user)
    assert (club.preliminary_rounds, club.advancing) == (1, 6)
    assert club.bracket["rounds"][0]["tables"] == [4, 4, 4, 4, 4, 4]
    round_ = knockout_seat_first_round(event=club)
    assert len(tables_of(round_)) == 6
    # Knockout rounds are seated one at a time, never pre-seated together.
    with pytest.raises(ValidationError, match="knockout"):
        preseat_event(event=club)


def test_an_override_below_the_minimum_is_recorded_with_its_reason(club, admin_user):
    checked_in(club, 12)
    bracket_confirm(event=club, method=HIGHEST_ASSETS, by=admin_user)
    with pytest.raises(ValidationError, match="reason"):
        minimum_override_record(event=club, reason="   ", by=admin_user)
    minimum_override_record(event=club, reason="A club night, not for Hasbro", by=admin_user)
    club.refresh_from_db()
    assert club.minimum_override_reason == "A club night, not for Hasbro"
    assert club.minimum_override_by == admin_user and club.minimum_override_at is not None
    assert len(tables_of(knockout_seat_first_round(event=club))) == 3


def test_a_field_no_knockout_fits_cannot_be_confirmed_for_table_winners(club):
    # 37 to 53: no bracket of tables of 3 to 6 ends in exactly six table winners.
    checked_in(club, 40)
    with pytest.raises(ValidationError, match="40 players checked in cannot be planned"):
        bracket_confirm(event=club, method=TABLE_WINNERS, by=None)
    assert bracket_confirm(event=club, method=HIGHEST_ASSETS, by=None).bracket["players"] == 40


# --- Round after round to the final -----------------------------------------------------------


def test_54_players_two_rounds_of_table_winners_then_a_final_of_six(club):
    # 54 is the smallest field that needs two rounds (tests/knockout/test_bracket.py):
    # 18 tables of three, their 18 winners at six tables of three, those six winners in the
    # final.
    # Tournament Kit: "Only table winners" go on; here the highest number at each table wins it.
    checked_in(club, 54)
    bracket_confirm(event=club, method=TABLE_WINNERS, by=None)
    round1 = knockout_seat_first_round(event=club)
    finish(round1)
    with pytest.raises(ValidationError, match="Post round 1"):
        knockout_advance(event=club)
    play_by_number(round1)
    round_post(round_=round1, by=None)
    winners1 = {max(t, key=lambda p: int(p.alias[1:])).pk for t in tables_of(round1)}

    round2 = advance_to_final(event=club, by=None)
    assert (round2.number, round2.kind) == (2, Round.Kind.PRELIMINARY)
    tables2 = tables_of(round2)
    assert [len(t) for t in tables2] == [3] * 6
    assert {p.pk for t in tables2 for p in t} == winners1
    finish(round2)
    play_by_number(round2)
    round_post(round_=round2, by=None)
    winners2 = {max(t, key=lambda p: int(p.alias[1:])).pk for t in tables2}

    final = knockout_advance(event=club)
    assert final.kind == Round.Kind.FINAL
    # Tournament Kit: "there must be six tables to give you the required six players for the final".
    assert [{p.pk for p in t} for t in tables_of(final)] == [winners2]
    with pytest.raises(ValidationError, match="already has a final"):
        knockout_advance(event=club)


def winner_and_next(round_: Round, alias: str) -> tuple[Player, Player, Table]:
    """The player ``alias`` and the second-highest number at the table they played."""
    seat_ = Seat.objects.get(round=round_, player__alias=alias)
    seated = sorted(
        (s.player for s in Seat.objects.filter(table=seat_.table).select_related("player")),
        key=lambda p: int(p.alias[1:]),
        reverse=True,
    )
    return seated[0], seated[1], seat_.table


def test_a_table_winner_who_withdraws_is_replaced_by_their_tables_next_by_assets(club):
    # Tournament Kit: "others will win by virtue of having the highest total assets at their table",
    # "tables can be set up for a minimum of three" and "The final round must have six
    # players": the bracket keeps its shape when a winner goes home.
    checked_in(club, 54)
    bracket_confirm(event=club, method=TABLE_WINNERS, by=None)
    round1 = knockout_seat_first_round(event=club)
    finish(round1)
    play_by_number(round1)
    round_post(round_=round1, by=None)
    # P54 won their table (nobody holds more); they go home before round 2. The second
    # highest number at that table held the next most cash: they go on instead.
    winner, runner_up, _table = winner_and_next(round1, "P54")
    assert winner.alias == "P54"
    Player.objects.filter(pk=winner.pk).update(status=Player.Status.WITHDRAWN)
    round2 = knockout_advance(event=club)
    tables2 = tables_of(round2)
    assert sorted(len(t) for t in tables2) == [3] * 6
    seated2 = {p.alias for t in tables2 for p in t}
    assert "P54" not in seated2 and runner_up.alias in seated2

    # A round-2 player leaves after round 2 is seated: at its start an alternate never
    # takes the seat (round 2 belongs to winners), the next player by assets of the table
    # they won in round 1 does, and no table is left at two.
    Player.objects.create(
        event=club,
        first_name="Alt",
        last_name="Ernate",
        date_of_birth=datetime.date(1990, 1, 1),
        signature="Alt",
        signed_at=timezone.now(),
        alias="ALT",
        status=Player.Status.ALTERNATE,
        alternate_position=1,
        checked_in_at=timezone.now(),
    )
    # One who won their own round-1 table (not the runner-up who went on for P54: round 1
    # is a draw, so P54's table may be anywhere).
    leaving = next(p for t in tables2 for p in t if p.pk != runner_up.pk)
    won, their_next, _t = winner_and_next(round1, leaving.alias)
    assert won == leaving
    Player.objects.filter(pk=leaving.pk).update(status=Player.Status.WITHDRAWN)
    # Nothing fills the seat until the head judge chooses (002, ALTERNATES: "Use of
    # alternates is at the discretion of the Head Judge"); filling it here is the stand-in.
    with pytest.raises(ValidationError, match="1 empty seat to decide first"):
        round_start(round_=round2)
    result = round_vacancies_decide(round_=round2, choice="fill")
    round_start(round_=round2)
    assert [(a.pk, b.pk) for a, b in result.replaced] == [(leaving.pk, their_next.pk)]
    assert result.removed == ()
    assert sorted(len(t) for t in tables_of(round2)) == [3] * 6

    # Round 2 is played; its table 1 winner withdraws too: the final still seats six.
    Table.objects.filter(round=round2).update(status=Table.Status.FINISHED)
    play_by_number(round2)
    round_post(round_=round2, by=None)
    first_table = Table.objects.get(round=round2, number=1)
    seated = sorted(
        (s.player for s in first_table.seats.select_related("player")),
        key=lambda p: int(p.alias[1:]),
        reverse=True,
    )
    Player.objects.filter(pk=seated[0].pk).update(status=Player.Status.WITHDRAWN)
    final = knockout_advance(event=club)
    finalists = tables_of(final)
    assert [len(t) for t in finalists] == [6]
    assert seated[1].pk in {p.pk for p in finalists[0]}
    assert seated[0].pk not in {p.pk for p in finalists[0]}


def test_a_table_with_nobody_left_never_makes_a_table_of_two(club):
    # Tournament Kit: "a minimum of three". 54 players, 18 tables of three in round 1; every player
    # of one table goes home: 17 go on, and round 2 seats them at five tables (4,4,3,3,3)
    # rather than six with a table of two.
    checked_in(club, 54)
    bracket_confirm(event=club, method=TABLE_WINNERS, by=None)
    round1 = knockout_seat_first_round(event=club)
    finish(round1)
    play_by_number(round1)
    round_post(round_=round1, by=None)
    gone = [s.player_id for s in Seat.objects.filter(table__round=round1, table__number=1)]
    Player.objects.filter(pk__in=gone).update(status=Player.Status.WITHDRAWN)
    round2 = knockout_advance(event=club)
    assert sorted(len(t) for t in tables_of(round2)) == [3, 3, 3, 4, 4]


def test_a_shared_first_place_holds_the_next_round_until_the_head_judge_orders_it(club):
    checked_in(club, 54)
    bracket_confirm(event=club, method=TABLE_WINNERS, by=None)
    round1 = knockout_seat_first_round(event=club)
    finish(round1)
    play_by_number(round1, skip=1)
    # Table 1's two richest are level: the head judge lets them share first place.
    table = table_of(round1, 1)
    seated = sorted((s.player for s in Seat.objects.filter(table=table)), key=lambda p: p.alias)
    play(table, dict(zip(seated, [700, 900, 900], strict=True)))
    tie_decide(table=table, share_points=True, by=None, reason="Shared")
    round_post(round_=round1, by=None)
    with pytest.raises(ValidationError, match="Table 1 has no single winner"):
        knockout_advance(event=club)
    round_unpost(round_=round1)
    tie_decide(table=table, order=[seated[2].pk, seated[1].pk], by=None, reason="By lot")
    round_post(round_=round1, by=None)
    assert seated[2] in {p for t in tables_of(knockout_advance(event=club)) for p in t}


# Twelve players, highest assets ("choose six winners from your preliminary round by highest
# total assets"), three tables of four, cash by hand:
#   table 1  A 3000  B 2500  C 2000  D 100
#   table 2  E 2800  F 2000  G  900  H 800
#   table 3  I 1000  J  700  K  600  L 500
# The six highest asset totals of the whole round: A 3000, E 2800, B 2500, then C and F level
# on 2000 (neither won a table; one game each, so every tie-breaker is level), then I 1000.
# Six places: A, E, B, C, F, I -- C and F share fourth place, both go. With four places the
# cut falls between C and F: the head judge decides.
HIGHEST = [
    {"A": 3000, "B": 2500, "C": 2000, "D": 100},
    {"E": 2800, "F": 2000, "G": 900, "H": 800},
    {"I": 1000, "J": 700, "K": 600, "L": 500},
]


def play_highest_assets(club) -> dict[str, Player]:
    players = {p.alias: p for p in checked_in(club, 12)}
    minimum_override_record(event=club, reason="Club night", by=None)
    bracket_confirm(event=club, method=HIGHEST_ASSETS, by=None)
    round1 = knockout_seat_first_round(event=club)
    finish(round1)
    # Rename the seats to the letters above, table by table, so the cash is as written.
    letters = {}
    for table, cash in zip(
        Table.objects.filter(round=round1).order_by("number"), HIGHEST, strict=True
    ):
        seated = [s.player for s in Seat.objects.filter(table=table).order_by("position")]
        for player, letter in zip(seated, cash, strict=True):
            letters[letter] = player
        play(table, {letters[a]: amount for a, amount in cash.items()})
    round_post(round_=round1, by=None)
    assert len(players) == 12
    return letters


def test_37_to_53_table_winners_then_the_six_highest_assets_of_their_round(club):
    # Tournament Kit: "You can choose six winners from your preliminary round by highest total
    # assets", here after a round of table winners. 40 players: ten tables of four; each table's
    # highest number wins it; those ten play two tables of five; the six highest numbers
    # among them (cash 100 x number) play the final.
    checked_in(club, 40)
    bracket_confirm(event=club, method=WINNERS_ASSETS, by=None)
    round1 = knockout_seat_first_round(event=club)
    assert [len(t) for t in tables_of(round1)] == [4] * 10
    finish(round1)
    play_by_number(round1)
    round_post(round_=round1, by=None)
    winners1 = sorted(max(int(p.alias[1:]) for p in t) for t in tables_of(round1))
    round2 = knockout_advance(event=club)
    assert (round2.number, round2.kind) == (2, Round.Kind.PRELIMINARY)
    assert sorted(len(t) for t in tables_of(round2)) == [5, 5]
    assert sorted(int(p.alias[1:]) for t in tables_of(round2) for p in t) == winners1
    finish(round2)
    play_by_number(round2)
    round_post(round_=round2, by=None)
    final = knockout_advance(event=club)
    assert final.kind == Round.Kind.FINAL
    (seated,) = tables_of(final)
    assert sorted(int(p.alias[1:]) for p in seated) == winners1[-6:]


def test_highest_assets_sends_the_six_richest_of_the_whole_round_to_the_final(club):
    letters = play_highest_assets(club)
    final = knockout_advance(event=club)
    assert final.kind == Round.Kind.FINAL
    names = {pk: a for a, p in letters.items() for pk in [p.pk]}
    assert {names[p.pk] for t in tables_of(final) for p in t} == set("AEBCFI")


def test_highest_assets_tie_at_the_cut_goes_to_the_head_judge(club):
    letters = play_highest_assets(club)
    club.refresh_from_db()
    club.bracket = {**club.bracket, "final_players": 4}
    club.save(update_fields=["bracket"])
    with pytest.raises(ValidationError, match="straddle the cut"):
        knockout_advance(event=club)
    standings_tie_decide(
        event=club, order=[letters["F"].pk, letters["C"].pk], by=None, reason="Drawn by lot"
    )
    final = knockout_advance(event=club)
    seated = {p.pk for t in tables_of(final) for p in t}
    assert seated == {letters[a].pk for a in "AEBF"}


# --- The standings page: the knockout and its next round --------------------------------------


def test_the_standings_page_seats_the_final_from_round_1s_table_winners(client, club):
    client.force_login(User.objects.create_superuser("olive", password="pw"))
    checked_in(club, 24)
    bracket_confirm(event=club, method=TABLE_WINNERS, by=None)
    round1 = knockout_seat_first_round(event=club)
    finish(round1)
    standings_url = reverse("scoring:standings", kwargs={"pk": club.pk})
    page = client.get(standings_url).content.decode()
    assert "Post round 1 first" in page
    play_by_number(round1)
    round_post(round_=round1, by=None)
    # The highest number at each table wins it (100 x the number in cash).
    winners = {max(t, key=lambda p: int(p.alias[1:])).alias for t in tables_of(round1)}
    page = client.get(standings_url).content.decode()
    for alias in winners:
        assert f"<strong>{alias}</strong>" in page
    assert "Seat the final" in page
    response = client.post(reverse("scoring:final_seat", kwargs={"pk": club.pk}), follow=True)
    # Posting round 1 released the final page (the site is not held): it shows the table.
    assert [str(m) for m in response.context["messages"]] == [
        "The final is seated as round 2: the public final page shows it."
    ]
    final = Round.objects.get(event=club, kind=Round.Kind.FINAL)
    assert {s.player.alias for s in final.seats.all()} == winners


def test_a_knockouts_round_1_is_drawn_and_drawn_again_at_the_plans_tables(club):
    """Tournament Kit: "the first preliminary round" of a knockout decides who goes on, so friends
    who register together must not meet by registration order: round 1 is drawn from a seed
    recorded on the round, and drawn again (same players, the plan's tables) on request
    until it is published."""
    from seating.redraw import round_redraw
    from seating.services import round_publish

    players = checked_in(club, 29)
    bracket_confirm(event=club, method=TABLE_WINNERS, by=None)
    round_ = knockout_seat_first_round(event=club, seed=11)
    assert round_.draw_seed == 11
    before = sorted(sorted(p.pk for p in t) for t in tables_of(round_))
    round_ = round_redraw(round_=round_, seed=12)
    after = sorted(sorted(p.pk for p in t) for t in tables_of(round_))
    assert round_.draw_seed == 12 and after != before
    assert sorted(len(t) for t in after) == [4, 5, 5, 5, 5, 5]
    assert {pk for t in after for pk in t} == {p.pk for p in players}
    round_publish(round_=round_)
    with pytest.raises(ValidationError, match="published"):
        round_redraw(round_=round_, seed=13)


def test_the_knockouts_progress_names_each_rounds_winners_and_what_is_seated_next(club, event):
    # 54 players: 18 tables of three, then their 18 winners at six tables, then a final of
    # six (as above). The standings page reads where the knockout stands from this.
    # A championship is no knockout; its rounds and its final are nothing to the club's progress.
    championship = players_with_aliases(event, aliases="ABCD")
    make_round(event, 1, [list(championship.values())])
    Round.objects.create(event=event, number=2, kind=Round.Kind.FINAL)
    assert knockout_progress(event=event) is None
    checked_in(club, 54)
    bracket_confirm(event=club, method=TABLE_WINNERS, by=None)
    before = knockout_progress(event=club)
    assert before.plan is not None and len(before.plan.rounds) == 2
    assert (before.rounds, before.next_stage, before.next_number, before.waiting_for) == (
        [],
        "",
        None,
        None,
    )
    round1 = knockout_seat_first_round(event=club)
    finish(round1)
    seated = knockout_progress(event=club)
    assert [(r.round, r.posted) for r in seated.rounds] == [(round1, False)]
    assert seated.waiting_for == round1
    assert (seated.next_stage, seated.next_number) == ("round", 2)

    play_by_number(round1)
    round_post(round_=round1, by=None)
    posted = knockout_progress(event=club)
    (shown,) = posted.rounds
    assert shown.posted and posted.waiting_for is None
    # The highest number at each table wins it (100 x the number in cash).
    assert [t.winner for t in shown.tables] == [
        max(t, key=lambda p: int(p.alias[1:])) for t in tables_of(round1)
    ]
    assert (posted.next_stage, posted.next_number) == ("round", 2)

    round2 = advance_to_final(event=club, by=None)
    finish(round2)
    play_by_number(round2)
    round_post(round_=round2, by=None)
    last = knockout_progress(event=club)
    assert [r.round.number for r in last.rounds] == [1, 2]
    assert (last.next_stage, last.next_number) == ("final", None)
    knockout_advance(event=club)
    done = knockout_progress(event=club)
    # The final is the knockout's end, not one of its rounds.
    assert ([r.round.number for r in done.rounds], done.next_stage) == ([1, 2], "")
