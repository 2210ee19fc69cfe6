"""The club knockout's bracket planner against the kit (Tournament Kit) and hand-worked fields.

Every expected structure below was worked out by hand from the kit's rules: each preliminary
round has as many tables as the next round has players, the last has six tables, tables of 3
to 6 (or 3 to 5), the fewest rounds, then tables as close to four as possible.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knockout.bracket import (
    HIGHEST_ASSETS,
    TABLE_WINNERS,
    WINNERS_ASSETS,
    balanced_tables,
    bracket_options,
)


def _structure(plan):
    return [(r.players, r.tables, r.advancing) for r in plan.rounds]


def test_kit_example_216_people_36_tables_of_six_then_six_tables_of_six():
    # Tournament Kit: "if you start with 216 people, your first round will be 36 tables of six
    # people each and your second round six tables of six players each."
    plan = bracket_options(players=216).table_winners
    assert _structure(plan) == [(216, (6,) * 36, 36), (36, (6,) * 6, 6)]
    assert plan.final_players == 6
    # Briefing 15 + two rounds of 90 with 15 to re-seat after each + the 90-minute final.
    assert plan.minutes == 15 + 2 * (90 + 15) + 90


def test_24_players_six_tables_of_four_then_the_final():
    # Tournament Kit: "You must have a minimum of 24 players" ... "tables should be set up for
    # four".
    plan = bracket_options(players=24).table_winners
    assert _structure(plan) == [(24, (4,) * 6, 6)]
    assert plan.round_count == 2  # "at least two rounds of play": the round and the final


def test_100_players_25_tables_of_four_then_six_tables():
    # Two rounds are needed (one round reaches at most 6 x 6 = 36). Round 1 may have 18..33
    # tables (the next round needs 18..36 players at six tables). 25 tables seat 100 at
    # exactly four (distance 0); 25 winners at six tables are 5,4,4,4,4,4 (distance 1).
    # 24 tables would cost 4 (four tables of 5) and 26 tables 4 + 2: 25 is the closest.
    plan = bracket_options(players=100).table_winners
    assert _structure(plan) == [(100, (4,) * 25, 25), (25, (5, 4, 4, 4, 4, 4), 6)]


def test_50_players_cannot_make_exactly_six_table_winners():
    # One round of six tables seats at most 36; two rounds need round 2's six tables to hold
    # at least 18 winners, so round 1 needs 18 tables of at least three: 54 players. From 37
    # to 53 no knockout reaches six, so the planner offers the kit's other choice.
    options = bracket_options(players=50)
    assert options.table_winners is None
    assert (options.fewer_fit, options.more_fit) == (36, 54)
    # "choose six winners from your preliminary round by highest total assets": 50 at tables
    # closest to four: 12 tables (ten of 4, two of 5) and 13 tables (eleven of 4, two of 3)
    # are both two seats from four; the fewer tables win (fewer games and bankers).
    plan = options.highest_assets
    assert plan.method == HIGHEST_ASSETS
    assert _structure(plan) == [(50, (5, 5) + (4,) * 10, 6)]
    assert options.recommended is plan


def test_awkward_37_players():
    options = bracket_options(players=37)
    assert options.table_winners is None
    assert (options.fewer_fit, options.more_fit) == (36, 54)
    # Nine tables: eight of 4 and one of 5.
    assert _structure(options.highest_assets) == [(37, (5,) + (4,) * 8, 6)]


def test_37_to_53_players_are_offered_highest_assets_after_a_round_of_table_winners():
    # Tournament Kit: "You can choose six winners from your preliminary round by highest total
    # assets". After a round of table winners: 40 at ten tables of four, their ten winners at two
    # tables of five (9..10 tables of 3..5 closest to four: 5+5 is distance 2, 4+3+3 is 2:
    # the fewer tables), and the six highest asset totals of that round play the final.
    options = bracket_options(players=40)
    plan = options.winners_then_assets
    assert plan.method == WINNERS_ASSETS
    assert _structure(plan) == [(40, (4,) * 10, 10), (10, (5, 5), 6)]
    assert plan.round_count == 3
    assert options.plan(WINNERS_ASSETS) is plan
    # 37: nine tables (one of five), nine winners at a table of five and one of four.
    assert _structure(bracket_options(players=37).winners_then_assets) == [
        (37, (5,) + (4,) * 8, 9),
        (9, (5, 4), 6),
    ]
    # Where a bracket of table winners fits, the kit's own plan is the one offered.
    assert bracket_options(players=54).winners_then_assets is None
    assert bracket_options(players=36).winners_then_assets is None


def test_30_players_six_tables_of_five():
    plan = bracket_options(players=30).table_winners
    assert _structure(plan) == [(30, (5,) * 6, 6)]


def test_tables_of_three_to_five_only_216_players_need_three_rounds():
    # (The planner's stretch to the kit's tables of six turned off: see the next test.)
    # With tables of at most five, two rounds reach at most 30 x 5 = 150 players. Three rounds:
    # round 1 has 54..72 tables (216/5 rounded up .. and the 54 the two later rounds need at
    # least). 54 tables seat 216 at exactly four; then 54 players at 18 tables of three (18 is
    # the only count: 54/5 rounded up is 11, and round 3 needs at least 18 players); then 18 at
    # six tables of three.
    options = bracket_options(players=216, table_min=3, table_max=5, stretch_to=None)
    assert _structure(options.table_winners) == [
        (216, (4,) * 54, 54),
        (54, (3,) * 18, 18),
        (18, (3,) * 6, 6),
    ]


def test_a_club_plans_tables_of_three_to_five_and_six_only_where_it_saves_a_round():
    # Tournament Kit: "tables can be set up for a minimum of three and a maximum of five players",
    # yet "if you start with 216 people, your first round will be 36 tables of six people each
    # and your second round six tables of six players each". At tables of 3 to 5, 216 needs
    # three rounds (previous test); tables of six make it two, so six it is.
    options = bracket_options(players=216, table_min=3, table_max=5)
    assert _structure(options.table_winners) == [(216, (6,) * 36, 36), (36, (6,) * 6, 6)]
    assert options.stretched and options.rounds_within_range == 3
    # 148 players: two rounds fit at tables of 3 to 5. Round 1 needs at least 148 / 5 -> 30
    # tables, and its winners must fit six tables of 3 to 5 (18..30): exactly 30 tables,
    # 28 of five and 2 of four; then 30 at six tables of five. No six anywhere.
    plan = bracket_options(players=148, table_min=3, table_max=5).table_winners
    assert len(plan.rounds) == 2
    assert all(size <= 5 for r in plan.rounds for size in r.tables)
    assert _structure(plan) == [(148, (5,) * 28 + (4, 4), 30), (30, (5,) * 6, 6)]
    # 33 players: one round of six tables needs tables of six (6 x 5 = 30 < 33), while at
    # tables of 3 to 5 the smallest two-round field is 54: no plan within the range at all.
    plan = bracket_options(players=33, table_min=3, table_max=5).table_winners
    assert _structure(plan) == [(33, (6, 6, 6, 5, 5, 5), 6)]
    # 24 players: six tables of four, as within the range: the stretch never widens a plan
    # that already has the fewest rounds.
    assert not bracket_options(players=24, table_min=3, table_max=5).stretched
    # The organizer who allows six (largest table 6) gets sixes wherever they are closest:
    # 36 players in one round at six tables of six.
    assert _structure(bracket_options(players=36, table_max=6).table_winners) == [(36, (6,) * 6, 6)]


def test_217_to_222_players_are_told_216_fits_the_two_round_plan():
    # Tournament Kit: "if you start with 216 people ... 36 tables of six ... six tables of six" and
    # "You can allow people to play only if there is room or if they can gather a new table of
    # people". Two rounds reach at most 36 x 6 = 216; 217 to 222 (a table of six more) take
    # three rounds.
    for players in range(217, 223):
        options = bracket_options(players=players)
        assert len(options.table_winners.rounds) == 3
        assert options.fewer_rounds_fit == 216
        assert options.extra_players == players - 216
    assert bracket_options(players=223).fewer_rounds_fit is None
    assert bracket_options(players=216).fewer_rounds_fit is None


def test_the_kit_s_half_at_three_half_at_four():
    # Tournament Kit: "seat people unevenly at tables, i.e., half of them at tables of three and
    # half at tables of four".
    assert balanced_tables(21, 6) == (4, 4, 4, 3, 3, 3)


def test_six_or_fewer_play_the_final_directly():
    plan = bracket_options(players=5).highest_assets
    assert plan.rounds == () and plan.final_players == 5


def test_bad_table_range_is_refused():
    with pytest.raises(ValueError):
        bracket_options(players=24, table_min=5, table_max=4)


@settings(deadline=None)
@given(st.integers(min_value=7, max_value=1500), st.sampled_from([5, 6]))
def test_every_plan_is_a_valid_knockout(players, table_max):
    options = bracket_options(players=players, table_min=3, table_max=table_max)
    for plan in (options.table_winners, options.highest_assets):
        if plan is None:
            continue
        field = players
        for round_ in plan.rounds:
            assert round_.players == field == sum(round_.tables)
            # Six beyond the largest table only where it saves a round (or fits at all).
            assert all(3 <= size <= max(table_max, 6) for size in round_.tables)
            if any(size > table_max for size in round_.tables):
                within = bracket_options(
                    players=players, table_max=table_max, stretch_to=None
                ).table_winners
                assert within is None or len(within.rounds) > len(plan.rounds)
            assert max(round_.tables) - min(round_.tables) <= 1
            field = round_.advancing
        assert field == plan.final_players == 6
        if plan.method == TABLE_WINNERS:
            # Each round's table winners are the next round's field; the last has six tables.
            assert [r.advancing for r in plan.rounds] == [r.table_count for r in plan.rounds]
            assert plan.rounds[-1].table_count == 6
    # A highest-assets plan exists for every field that can be seated at all.
    assert options.highest_assets is not None
    if options.table_winners is None:
        # The nearest fitting fields really fit, and nothing between them does.
        for field in (options.fewer_fit, options.more_fit):
            if field is not None:
                assert bracket_options(players=field, table_max=table_max).table_winners


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=3000))
def test_fewest_rounds_against_the_closed_form(players):
    # With tables of 3 to 6, r rounds end in six table winners exactly when the field lies in
    # [18 * 3^(r-1), 36 * 6^(r-1)]: the last round seats 18..36 at six tables, and each earlier
    # round multiplies the reachable field by 3 at the low end and 6 at the high end (the
    # interval of table counts [P/6, P/3] is never empty of a whole number past 6 players).
    fitting = [r for r in range(1, 7) if 18 * 3 ** (r - 1) <= players <= 36 * 6 ** (r - 1)]
    plan = bracket_options(players=players).table_winners
    if fitting:
        assert len(plan.rounds) == fitting[0]
    else:
        assert plan is None
