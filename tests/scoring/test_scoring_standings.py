"""Standings, alternates, the judges' round view, CSV rows and the move to the final.

The main example is worked out by hand below, from the rule book's points table
(Championship Rules, SCORING: four remaining 19/10/5/3, three remaining 22/12/6), not from the code.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from scoring import selectors, tie_breakers
from scoring.models import ResultLine, TableSheet
from scoring.results_board import results_board
from scoring.services.advancement import advance_to_final
from scoring.services.posting import round_post, round_unpost
from scoring.services.sheets import sheet_approve, sheet_save_draft
from scoring.services.ties import standings_tie_breakers_set, standings_tie_decide, tie_decide
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, sheet_data, table_of
from tournament.models import Clock, Player, Round, Seat, Table

# Eight players, two tables of four, three rounds; cash only, so net worth = cash.
#
# Round 1  T1 A B C D : A 3000 (19)  B 2000 (10)  C 1500 (5)  D 1000 (3)
#          T2 E F G H : E 2800 (19)  F 2500 (10)  G 1200 (5)  H  900 (3)
# Round 2  T1 A C E G : C 3100 (19)  A 2900 (10)  G 1000 (5)  E  800 (3)
#          T2 B D F H : H bankrupt, three remain: B 4000 (22) F 2000 (12) D 1600 (6) H 0 (0)
# Round 3  T1 A F C H : F 3500 (19)  C 2000 (10)  A 1500 (5)  H 1000 (3)
#          T2 B E D G : E 2600 (19)  G 2200 (10)  B 1800 (5)  D 1700 (3)
#
#        points        wins  total net worth            best game
# A  19 + 10 +  5 = 34   1   3000 + 2900 + 1500 = 7400   3000
# B  10 + 22 +  5 = 37   1   2000 + 4000 + 1800 = 7800   4000
# C   5 + 19 + 10 = 34   1   1500 + 3100 + 2000 = 6600   3100
# D   3 +  6 +  3 = 12   0   1000 + 1600 + 1700 = 4300   1700
# E  19 +  3 + 19 = 41   2   2800 +  800 + 2600 = 6200   2800
# F  10 + 12 + 19 = 41   1   2500 + 2000 + 3500 = 8000   3500
# G   5 +  5 + 10 = 20   0   1200 + 1000 + 2200 = 4400   2200
# H   3 +  0 +  3 =  6   0    900 +    0 + 1000 = 1900   1000
#
# By points: E and F tie on 41, E has two wins to F's one -> E 1st, F 2nd; B 3rd (37);
# A and C tie on 34 with one win each, A's 7400 net worth beats C's 6600 -> A 4th, C 5th;
# then G, D, H. The four finalists: E, F, B, A (C misses the cut on net worth).
# By assets (club): F 8000, B 7800, A 7400, C 6600, E 6200, G 4400, D 4300, H 1900.

ROUNDS = [
    [
        ("ABCD", {"A": 3000, "B": 2000, "C": 1500, "D": 1000}, ""),
        ("EFGH", {"E": 2800, "F": 2500, "G": 1200, "H": 900}, ""),
    ],
    [
        ("ACEG", {"C": 3100, "A": 2900, "G": 1000, "E": 800}, ""),
        ("BDFH", {"B": 4000, "F": 2000, "D": 1600}, "H"),
    ],
    [
        ("AFCH", {"F": 3500, "C": 2000, "A": 1500, "H": 1000}, ""),
        ("BEDG", {"E": 2600, "G": 2200, "B": 1800, "D": 1700}, ""),
    ],
]


def play_example(event, judge, *, post=True) -> tuple[dict[str, Player], list[Round]]:
    players = players_with_aliases(event, aliases="ABCDEFGH")
    rounds = []
    for number, tables in enumerate(ROUNDS, start=1):
        round_ = make_round(
            event, number, [[players[a] for a in seats] for seats, _c, _b in tables]
        )
        for index, (_seats, cash, bankrupt) in enumerate(tables, start=1):
            play(
                table_of(round_, index),
                {players[a]: amount for a, amount in cash.items()},
                [players[a] for a in bankrupt],
            )
        if post:
            round_post(round_=round_, by=judge)
        rounds.append(round_)
    return players, rounds


def summary(rows) -> list[tuple]:
    return [(r.rank, r.alias, r.points, r.wins, r.net_worth, r.best_game, r.tied) for r in rows]


def test_standings_of_the_hand_worked_example(event, judge):
    play_example(event, judge)
    rows = selectors.standings(event=event, only_posted=True)
    assert summary(rows) == [
        (1, "E", Decimal(41), 2, 6200, 2800, False),
        (2, "F", Decimal(41), 1, 8000, 3500, False),
        (3, "B", Decimal(37), 1, 7800, 4000, False),
        (4, "A", Decimal(34), 1, 7400, 3000, False),
        (5, "C", Decimal(34), 1, 6600, 3100, False),
        (6, "G", Decimal(20), 0, 4400, 2200, False),
        (7, "D", Decimal(12), 0, 4300, 1700, False),
        (8, "H", Decimal(6), 0, 1900, 1000, False),
    ]
    assert {r.games for r in rows} == {3}


def test_the_four_best_by_points_advance_to_a_final_table(event, judge):
    players, rounds = play_example(event, judge)
    final = advance_to_final(event=event, by=judge)
    assert (final.kind, final.number) == ("final", 4)
    tables = list(Table.objects.filter(round=final))
    assert len(tables) == 1
    seated = {s.player.alias for s in Seat.objects.filter(round=final).select_related("player")}
    assert seated == {"E", "F", "B", "A"}
    assert final.waves.count() == 1
    with pytest.raises(ValidationError, match="already has a final"):
        advance_to_final(event=event, by=judge)
    # The final is its own game: standings still count the preliminaries only.
    assert selectors.standings(event=event, only_posted=True)[0].games == 3


def test_club_events_rank_by_total_net_worth_and_need_a_bracket_for_the_final(event, judge):
    event.format = "club"
    event.advancing = 6
    event.table_size_min, event.table_size_max = 3, 5
    event.save()
    play_example(event, judge)
    rows = selectors.standings(event=event, only_posted=True)
    assert [(r.rank, r.alias, r.net_worth) for r in rows] == [
        (1, "F", 8000),
        (2, "B", 7800),
        (3, "A", 7400),
        (4, "C", 6600),
        (5, "E", 6200),
        (6, "G", 4400),
        (7, "D", 4300),
        (8, "H", 1900),
    ]
    assert {r.points for r in rows} == {Decimal(0)}  # no points in an assets format
    # A club event is the kit's knockout (tests/knockout/test_knockout.py): its final comes
    # from a confirmed bracket, never from summed standings.
    with pytest.raises(ValidationError, match="Confirm the bracket"):
        advance_to_final(event=event, by=judge)


def test_only_posted_rounds_count_when_asked(event, judge):
    players, rounds = play_example(event, judge, post=False)
    assert selectors.standings(event=event, only_posted=True) == []
    round_post(round_=rounds[0], by=judge)
    round_post(round_=rounds[1], by=judge)
    rows = {r.alias: r for r in selectors.standings(event=event, only_posted=True)}
    # After two rounds B has 10 + 22 = 32 and A 19 + 10 = 29.
    assert (rows["B"].points, rows["B"].games, rows["A"].points) == (Decimal(32), 2, Decimal(29))
    assert selectors.standings(event=event, only_posted=False)[0].points == Decimal(41)
    with pytest.raises(ValidationError, match="Post every preliminary round"):
        advance_to_final(event=event, by=judge)


def test_a_tie_on_every_breaker_waits_for_the_head_judge(event, judge):
    players = players_with_aliases(event, aliases="ABCDEFGH")
    event.advancing = 3
    event.save()
    p = players
    round_ = make_round(
        event, 1, [[p["A"], p["B"], p["C"], p["D"]], [p["E"], p["F"], p["G"], p["H"]]]
    )
    # Two identical tables: A and E, B and F, ... are level on everything.
    play(table_of(round_, 1), {p["A"]: 4000, p["B"]: 3000, p["C"]: 2000, p["D"]: 1000})
    play(table_of(round_, 2), {p["E"]: 4000, p["F"]: 3000, p["G"]: 2000, p["H"]: 1000})
    round_post(round_=round_, by=judge)
    rows = selectors.standings(event=event, only_posted=True)
    assert [(r.rank, r.alias, r.tied) for r in rows[:4]] == [
        (1, "A", True),
        (1, "E", True),
        (3, "B", True),
        (3, "F", True),
    ]
    with pytest.raises(ValidationError) as caught:
        advance_to_final(event=event, by=judge)
    # The third and last place to advance is B's, shared with F.
    assert caught.value.messages == [
        "Players tied at place 3 straddle the cut; the head judge decides first."
    ]
    assert caught.value.code == "tie-at-cut"
    standings_tie_decide(event=event, order=[p["F"].pk, p["B"].pk], by=judge, reason="roll-off")
    rows = selectors.standings(event=event, only_posted=True)
    assert [(r.rank, r.alias, r.tied) for r in rows[:4]] == [
        (1, "A", True),
        (1, "E", True),
        (3, "F", False),
        (4, "B", False),
    ]
    assert selectors.standings_csv_rows(event=event, only_posted=True)[1][:2] == ["1=", "A"]
    final = advance_to_final(event=event, by=judge)
    seated = {s.player.alias for s in Seat.objects.filter(round=final).select_related("player")}
    assert seated == {"A", "E", "F"}


def test_alternates_score_their_own_games_and_inherit_nothing(event, judge):
    """Championship Rules, ALTERNATES SCORING: points are earned per game played, never taken
    over."""
    players = players_with_aliases(event, aliases=["Ann", "Bob", "Cy", "Di", "Alt"])
    ann, bob, cy, di, alt = players.values()
    round1 = make_round(event, 1, [[ann, bob, cy, di]])
    play(table_of(round1, 1), {ann: 4000, bob: 3000, cy: 2000, di: 1000})
    # Ann withdraws; the alternate takes her seat from round 2.
    ann.status = Player.Status.WITHDRAWN
    ann.save()
    alt.replaces = ann
    alt.save()
    round2 = make_round(event, 2, [[alt, bob, cy, di]])
    play(table_of(round2, 1), {alt: 1000, bob: 4000, cy: 3000, di: 2000})
    for round_ in (round1, round2):
        round_post(round_=round_, by=judge)

    rows = {r.alias: r for r in selectors.standings(event=event, only_posted=True)}
    assert (rows["Ann"].games, rows["Ann"].points) == (1, Decimal(19))
    assert (rows["Alt"].games, rows["Alt"].points) == (1, Decimal(3))
    assert ResultLine.objects.filter(player=alt).count() == 1
    assert ResultLine.objects.filter(player=ann).count() == 1
    # Bob: 10 + 19 = 29 leads; Ann's 19 stays hers even though she left.
    assert selectors.standings(event=event, only_posted=True)[0].alias == "Bob"
    # Ann has left the event, so she cannot advance: the next player moves up.
    event.advancing = 4
    event.save()
    final = advance_to_final(event=event, by=judge)
    seated = {s.player.alias for s in Seat.objects.filter(round=final).select_related("player")}
    assert seated == {"Bob", "Cy", "Di", "Alt"}


def test_round_table_statuses_for_the_judges_desk(event, judge):
    players = list(players_with_aliases(event, aliases=[f"P{i}" for i in range(24)]).values())
    round_ = make_round(
        event, 1, [players[i : i + 4] for i in range(0, 24, 4)], tables_per_wave=5, finished=False
    )
    Clock.objects.filter(wave__number=2).delete()  # table 6 plays in wave 2, not started
    statuses = {1: "playing", 2: "last_turn", 3: "finished", 4: "finished", 5: "finished"}
    for number, status in statuses.items():
        Table.objects.filter(round=round_, number=number).update(status=status)
    play(table_of(round_, 4), dict(zip(players[12:16], (4, 3, 2, 1), strict=True)), approve=False)
    sheet = play(
        table_of(round_, 5), dict(zip(players[16:20], (4, 3, 2, 1), strict=True)), approve=False
    )
    sheet_approve(sheet=sheet, by=judge)
    rows = results_board(round_=round_).rows
    assert [(r.number, r.wave, r.status) for r in rows] == [
        (1, 1, "playing"),
        (2, 1, "last_turn"),
        (3, 1, "entering"),
        (4, 1, "signed"),
        (5, 1, "approved"),
        (6, 2, "not_started"),
    ]
    # A draft typed during the last turn already counts as entering.
    sheet_save_draft(
        table=table_of(round_, 2),
        data=sheet_data(dict(zip(players[4:8], (1, 2, 3, 4), strict=True))),
        expected_version=0,
        by=None,
    )
    assert results_board(round_=round_).rows[1].status == "entering"


def test_csv_rows_list_aliases_places_and_points(event, judge):
    players, rounds = play_example(event, judge)
    rows = selectors.results_csv_rows(round_=rounds[1])
    assert rows[0] == [
        "Stage",
        "Table",
        "Alias",
        "Bankrupt",
        "Net worth",
        "Unmortgaged property value",
        "Place",
        "Points",
    ]
    assert rows[1:5] == [
        ["preliminary", "1", "C", "no", "3100", "0", "1", "19"],
        ["preliminary", "1", "A", "no", "2900", "0", "2", "10"],
        ["preliminary", "1", "G", "no", "1000", "0", "3", "5"],
        ["preliminary", "1", "E", "no", "800", "0", "4", "3"],
    ]
    assert rows[-1] == ["preliminary", "2", "H", "yes", "0", "0", "4", "0"]
    standings = selectors.standings_csv_rows(event=event, only_posted=True)
    assert standings[1] == ["1", "E", "3", "41", "2", "6200", "2800", "0"]
    assert len(standings) == 9
    assert tie_breakers.format_points(Decimal("14.50")) == "14.5"
    assert tie_breakers.format_points(Decimal("11.33")) == "11.33"
    assert TableSheet.objects.count() == 6


# --- The organizer's tie-breaker order ------------------------------------------------------
#
# In the example above E and F tie on 41 points: E has two wins (6200 net worth), F one win
# (8000 net worth). The default order (points, wins, net worth, best game) puts E first.
# Net worth before wins puts F first: F 41/8000, E 41/6200. A and C (34 points, one win
# each) stay A then C, as net worth already separated them.


def test_the_organizers_tie_breaker_order_changes_the_standings(event, judge):
    play_example(event, judge)
    standings_tie_breakers_set(
        event=event, keys=["points", "net_worth", "wins", "best_game"], by=judge
    )
    event.refresh_from_db()
    assert event.tie_breakers == ["points", "net_worth", "wins", "best_game"]
    assert tie_breakers.tie_breakers_for(event=event).keys == (
        "points",
        "net_worth",
        "wins",
        "best_game",
    )
    rows = selectors.standings(event=event, only_posted=True)
    assert [(r.rank, r.alias) for r in rows] == [
        (1, "F"),
        (2, "E"),
        (3, "B"),
        (4, "A"),
        (5, "C"),
        (6, "G"),
        (7, "D"),
        (8, "H"),
    ]
    # The final follows the order in force: still E, F, B, A (F now first).
    final = advance_to_final(event=event, by=judge)
    seated = {s.player.alias for s in Seat.objects.filter(round=final).select_related("player")}
    assert seated == {"F", "E", "B", "A"}
    with pytest.raises(ValidationError, match="final is already seated"):
        standings_tie_breakers_set(event=event, keys=[], by=judge)


def test_an_empty_or_default_order_is_the_formats_own(event, judge):
    play_example(event, judge)
    standings_tie_breakers_set(
        event=event, keys=["points", "net_worth", "wins", "best_game"], by=judge
    )
    standings_tie_breakers_set(event=event, keys=[], by=judge)
    event.refresh_from_db()
    assert event.tie_breakers == []
    assert [r.alias for r in selectors.standings(event=event, only_posted=True)][:2] == ["E", "F"]
    # Naming the default order stores nothing, so a later change of format is followed.
    standings_tie_breakers_set(
        event=event, keys=["points", "wins", "net_worth", "best_game"], by=judge
    )
    event.refresh_from_db()
    assert event.tie_breakers == []


@pytest.mark.parametrize(
    "keys",
    [
        ["points", "wins", "wins", "best_game"],  # one twice
        ["points", "wins", "net_worth", "best_game", "luck"],  # unknown
        ["points", "wins", "net_worth", "dice"],
        # Championship Rules: "highest Point scores (not net worth)": points first.
        ["wins", "points"],
        ["net_worth", "points", "wins"],
    ],
)
def test_an_order_starts_with_points_and_names_a_tie_breaker_at_most_once(event, keys):
    with pytest.raises(ValidationError, match="at most once"):
        standings_tie_breakers_set(event=event, keys=keys, by=None)
    event.refresh_from_db()
    assert event.tie_breakers == []


def test_the_organizer_may_keep_only_points_and_the_head_judge_decides_every_tie(event, judge):
    """Issue: "the organizer chooses the tie-breakers after points, including none ('the
    head judge decides ties at the cut')". E and F (41 points; E two wins, F one) are
    level on points alone, so they are tied until the head judge orders them; with games
    won kept, E is above F, and F's row says games won broke the tie."""
    play_example(event, judge)
    standings_tie_breakers_set(event=event, keys=["points"], by=judge)
    event.refresh_from_db()
    assert tie_breakers.tie_breakers_for(event=event).keys == ("points",)
    rows = {r.alias: r for r in selectors.standings(event=event, only_posted=True)}
    assert (rows["E"].rank, rows["E"].tied, rows["F"].rank, rows["F"].tied) == (1, True, 1, True)
    standings_tie_decide(
        event=event, order=[rows["F"].player_id, rows["E"].player_id], by=judge, reason="Lot"
    )
    rows = {r.alias: r for r in selectors.standings(event=event, only_posted=True)}
    assert (rows["F"].rank, rows["E"].rank) == (1, 2)
    assert (rows["F"].broken_by, rows["E"].broken_by) == ("", tie_breakers.DECIDED_BY_HEAD_JUDGE)
    standings_tie_breakers_set(event=event, keys=["points", "wins"], by=judge)
    event.refresh_from_db()
    rows = {r.alias: r for r in selectors.standings(event=event, only_posted=True)}
    assert (rows["E"].rank, rows["F"].rank, rows["F"].broken_by) == (1, 2, "wins")
    # A and C (34 points, one win each) are parted by nothing left but the head judge now.
    assert rows["A"].tied and rows["C"].tied


def test_club_events_rank_by_assets_first_and_points_is_not_one(event, judge):
    """Tournament Kit: "choose six winners ... by highest total assets": total net worth comes first
    in a club; the organizer orders what follows."""
    event.format = "club"
    event.save()
    with pytest.raises(ValidationError, match="at most once"):
        standings_tie_breakers_set(
            event=event, keys=["points", "wins", "net_worth", "best_game"], by=judge
        )
    with pytest.raises(ValidationError, match="at most once"):
        standings_tie_breakers_set(event=event, keys=["wins", "net_worth"], by=judge)
    standings_tie_breakers_set(event=event, keys=["net_worth", "best_game", "wins"], by=judge)
    event.refresh_from_db()
    assert tie_breakers.tie_breakers_for(event=event).keys == ("net_worth", "best_game", "wins")
    # A stored order that no longer fits the format is ignored, not half-applied.
    event.format = "championship"
    event.save()
    # Championship Rules, RANKING BY POINTS: points first, then the house tie-breakers.
    assert tie_breakers.tie_breakers_for(event=event).keys == (
        "points",
        "wins",
        "net_worth",
        "best_game",
    )


# --- Club advancement: table winners first, then the highest total assets --------------------
#
# One round, three tables of four, cash only (net worth = cash), place 1 = table winner:
#
#   T1  A 5000  B 4800  C 4600  D  100   -> winner A
#   T2  E 6000  F 1000  G  900  H  800   -> winner E
#   T3  I  700  J  600  K  500  L  400   -> winner I
#
# Six advance. Winners A, E, I first; then the rest by total assets: B 4800, C 4600,
# F 1000 (G, 900, would be fourth of the rest and misses). Finalists: A, E, I, B, C, F.
# The plain top six by assets would have been E, A, B, C, F, G: I, a table winner with
# only 700, goes instead of G.
#
def finalists(final) -> set[str]:
    return {s.player.alias for s in Seat.objects.filter(round=final).select_related("player")}


# --- Semifinals: more finalists than one table seats ----------------------------------------
#
# Fifteen players, one preliminary round at three tables of five, cash only, nobody
# bankrupt: the fifth place of each table (E, J, O) has the fewest points. Twelve advance
# with tables of 4-5: 12 = 4 + 4 + 4 is the only split, so the semifinal is three tables
# of four, and the final seats the three semifinal table winners.

SEMI_ROUND = [
    {"A": 5000, "B": 4000, "C": 3000, "D": 2000, "E": 100},
    {"F": 5100, "G": 4100, "H": 3100, "I": 2100, "J": 110},
    {"K": 5200, "L": 4200, "M": 3200, "N": 2200, "O": 120},
]


def twelve_advance_from_a_posted_round_1(event, judge) -> None:
    """SEMI_ROUND played and posted, twelve to advance, tables of 4 to 5."""
    event.advancing = 12
    event.table_size_min, event.table_size_max = 4, 5
    event.save()
    players = players_with_aliases(event, aliases="ABCDEFGHIJKLMNO")
    round1 = make_round(event, 1, [[players[a] for a in cash] for cash in SEMI_ROUND])
    for index, cash in enumerate(SEMI_ROUND, start=1):
        play(table_of(round1, index), {players[a]: amount for a, amount in cash.items()})
    round_post(round_=round1, by=judge)


def game_over_by_alias(table) -> list[Player]:
    """The table's players by alias, its game marked over (ready for its sheet)."""
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    return sorted(
        (s.player for s in Seat.objects.filter(table=table).select_related("player")),
        key=lambda p: p.alias,
    )


def test_twelve_finalists_play_a_semifinal_whose_table_winners_play_the_final(event, judge):
    twelve_advance_from_a_posted_round_1(event, judge)
    top12 = {r.alias for r in selectors.standings(event=event, only_posted=True)[:12]}
    # The three fifth places (E, J, O) miss the cut.
    assert top12 == set("ABCDFGHIKLMN")

    semifinal = advance_to_final(event=event, by=judge, time_limit=2.0)
    assert (semifinal.kind, semifinal.number) == (Round.Kind.SEMIFINAL, 2)
    tables = list(Table.objects.filter(round=semifinal).order_by("number"))
    assert [t.seats.count() for t in tables] == [4, 4, 4]
    assert {s.player.alias for s in Seat.objects.filter(round=semifinal)} == top12
    with pytest.raises(ValidationError) as caught:
        advance_to_final(event=event, by=judge)
    assert caught.value.messages == ["Post the semifinal before seating the final."]
    assert caught.value.code == "not-posted"
    with pytest.raises(ValidationError, match="final is already seated"):
        standings_tie_breakers_set(event=event, keys=[], by=judge)

    # Each semifinal table: the alphabetically first alias wins it.
    winners = set()
    for table in tables:
        seated = game_over_by_alias(table)
        winners.add(seated[0].alias)
        play(table, {p: 4000 - 500 * i for i, p in enumerate(seated)})
    round_post(round_=semifinal, by=judge)

    final = advance_to_final(event=event, by=judge)
    assert (final.kind, final.number) == (Round.Kind.FINAL, 3)
    assert Table.objects.filter(round=final).count() == 1
    assert finalists(final) == winners
    # Standings still count the preliminary round only.
    assert {r.games for r in selectors.standings(event=event, only_posted=True)} == {1}


def test_seven_finalists_play_a_semifinal_the_final_table_seats_six_at_most(event, judge):
    """Tournament Kit: a six-player final; a seventh finalist means a semifinal first."""
    event.advancing = 7
    event.table_size_min, event.table_size_max = 3, 5
    event.save()
    players = players_with_aliases(event, aliases="ABCDEFGHIJ")
    p = players
    round1 = make_round(event, 1, [[p[a] for a in "ABCDE"], [p[a] for a in "FGHIJ"]])
    play(table_of(round1, 1), {p["A"]: 5000, p["B"]: 4000, p["C"]: 3000, p["D"]: 2000, p["E"]: 10})
    play(table_of(round1, 2), {p["F"]: 5100, p["G"]: 4100, p["H"]: 3100, p["I"]: 2100, p["J"]: 9})
    round_post(round_=round1, by=judge)
    stage = advance_to_final(event=event, by=judge, time_limit=2.0)
    assert stage.kind == Round.Kind.SEMIFINAL
    assert sorted(t.seats.count() for t in Table.objects.filter(round=stage)) == [3, 4]


def test_a_semifinal_table_whose_first_place_is_shared_holds_the_final_until_ordered(event, judge):
    twelve_advance_from_a_posted_round_1(event, judge)
    semifinal = advance_to_final(event=event, by=judge, time_limit=2.0)
    seated = {
        table.number: game_over_by_alias(table)
        for table in Table.objects.filter(round=semifinal).order_by("number")
    }
    # Table 2's two best finish level and the head judge lets them share first place.
    for number, at_table in seated.items():
        cash = [4000, 4000, 1000, 500] if number == 2 else [4000, 3000, 2000, 1000]
        play(table_of(semifinal, number), dict(zip(at_table, cash, strict=True)))
    tie_decide(table=table_of(semifinal, 2), share_points=True, by=judge, reason="Shared")
    round_post(round_=semifinal, by=judge)

    with pytest.raises(ValidationError) as caught:
        advance_to_final(event=event, by=judge)
    assert caught.value.messages == [
        "Semifinal table 2 has no single winner; the head judge decides."
    ]
    assert caught.value.code == "no-winner"
    assert not Round.objects.filter(event=event, kind=Round.Kind.FINAL).exists()

    round_unpost(round_=semifinal)
    second = seated[2][1]
    tie_decide(
        table=table_of(semifinal, 2), order=[second.pk, seated[2][0].pk], by=judge, reason="Lot"
    )
    round_post(round_=semifinal, by=judge)
    final = advance_to_final(event=event, by=judge)
    assert finalists(final) == {seated[1][0].alias, second.alias, seated[3][0].alias}
