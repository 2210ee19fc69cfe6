"""The counting lower bound on repeat meetings against cases worked out by hand."""

import itertools

import pytest

from seating.engine import SeatingProblem, check_seating, repeat_lower_bound, seat
from seating.engine.bounds import (
    big_table_overlap,
    fairness_floor,
    nine_box_tight,
    pigeonhole_bound,
    pigeonhole_cost_floor,
    pigeonhole_tight_spread,
)


def test_eight_players_three_rounds_at_two_tables():
    # Each player meets 3 others a round, 9 in all, but only 7 exist: 2 excess each,
    # 8 · 2 = 16 seen from both ends, so at least 8 repeat meetings. (Tight: see bounds.py,
    # and test_seating_engine reaches it.)
    assert repeat_lower_bound(8, 3, (4, 4)) == 8


def test_twelve_players_four_rounds():
    # Counting: 4 · 3 = 12 meetings against 11 others: 1 excess each, 12 / 2 = 6.
    # Pigeonhole is stronger: two rounds of 3 tables give 9 boxes for 12 players, so 3
    # collisions per pair of rounds, 6 pairs → 18 collisions; a pair meeting s ≤ 4 times
    # turns C(s, 2) collisions into s − 1 repeats, at best 6 → 3, so ≥ 18 / 2 = 9.
    assert pigeonhole_bound(12, 4, 3) == 9
    # But 9 is not reachable: it needs 3 pairs always together, and merged they are 3 of
    # the 9 points of the affine plane of order 3 whose 4 classes are the rounds, one
    # per line (a table of 4 = 3 units, one of them a pair). Two of them share a line.
    assert nine_box_tight(12, 4, (4, 4, 4)) is False
    assert repeat_lower_bound(12, 4, (4, 4, 4)) == 10


def test_thirteen_players_with_a_five_table():
    # Counting: D = 4 rounds · (20 + 12 + 12) = 176 directed meetings; each player can
    # absorb at most 12 new people (and must take at least 4 · 3 = 12), so
    # 176 − 13 · 12 = 20 excess → 10. Pigeonhole: 13 players in 9 boxes → 4 collisions
    # per pair of rounds, 24 in all, → ceil(2 · 24 / 4) = 12.
    assert pigeonhole_bound(13, 4, 3) == 12
    # 12 needs 4 merged pairs splitting 2-1-1 over the lines of all 4 classes (tables
    # 5-4-4); 4 points have 6 pairs, each on a line of one class, so some class holds 2
    # pairs: a 2-2-0 or 3-1-0 split, two 5-tables or a 6-table. Hence 13.
    assert nine_box_tight(13, 4, (5, 4, 4)) is False
    assert repeat_lower_bound(13, 4, (5, 4, 4)) == 13


@pytest.mark.parametrize(
    "n, sizes, bound", [(11, (4, 4, 3), 4), (12, (4, 4, 4), 6), (13, (5, 4, 4), 8)]
)
def test_three_rounds_at_three_tables_keep_the_pigeonhole_bound(n, sizes, bound):
    # With 3 rounds (3 of the plane's 4 classes) the merged pairs fit, and the engine's
    # seating at the bound (recounted by the checker) certifies each bound tight.
    assert nine_box_tight(n, 3, sizes) is True
    assert repeat_lower_bound(n, 3, sizes) == bound
    problem = SeatingProblem(players=tuple(range(n)), rounds=3, seed=1, max_iterations=20_000)
    seating = seat(problem)
    assert check_seating(problem, seating).repeat_meetings == bound


def test_eleven_players_four_rounds():
    # Pigeonhole: 2 collisions per pair of rounds → 6 repeats, with 2 merged pairs; but
    # the two merged units share a line of the plane: a table of 2 + 2 + 1 = 5 players.
    assert nine_box_tight(11, 4, (4, 4, 3)) is False
    assert repeat_lower_bound(11, 4, (4, 4, 3)) == 7


@pytest.mark.parametrize("n, bound", [(16, 0), (17, 2), (18, 4), (19, 6), (20, 0), (21, 0)])
def test_three_rounds_at_four_tables_cannot_avoid_repeats(n, bound):
    # 4 tables in two rounds are only 16 (table, table) boxes: the 17th player shares a box
    # with someone, i.e. meets them twice. N = 16 + m forces m collisions per pair of
    # rounds, and a pair meeting thrice turns 3 collisions into 2 repeats.
    sizes = (5,) * (n - 16) + (4,) * (4 - (n - 16)) if n < 20 else (5,) * (n - 20) + (4,) * 5
    assert repeat_lower_bound(n, 3, sizes) == bound


def test_pigeonhole_cost_floor_prefers_one_pair_meeting_thrice():
    # 17 players, 3 rounds: 3 collisions. One pair meeting three times costs 2 repeats and
    # one triple; three pairs meeting twice would cost 3 repeats.
    assert pigeonhole_cost_floor(17, 3, 4, 160, 10) == 2 * 160 + 10
    assert pigeonhole_cost_floor(32, 3, 8, 160, 10) == 0


def test_zero_repeats_force_five_tables_to_overlap():
    # 21 players = 5+4+4+4+4: a 5-table needs five different tables in each other round
    # but there are only four 4-tables, so every two rounds' 5-tables share a player.
    assert big_table_overlap(3, (5, 4, 4, 4, 4)) == 3
    assert fairness_floor(21, 5, 3, [0] * 21, [3] * 21) == (1, 15)
    assert fairness_floor(21, 5, 3, [0] * 21, [3] * 21, overlap=3) == (2, 21)
    # With five 4-tables (25 players) the 5-tables can be disjoint.
    assert big_table_overlap(3, (5, 4, 4, 4, 4, 4)) == 0


def test_pins_can_force_unfairness():
    # 9 players (5+4) over 3 rounds: p0 pinned to the 5-table every round has 3; 15 seats
    # over 9 players would otherwise allow spread 1.
    assert fairness_floor(9, 5, 3, [0] * 9, [3] * 9)[0] == 1
    assert fairness_floor(9, 5, 3, [3] + [0] * 8, [3] * 9)[0] == 2


@pytest.mark.parametrize(
    "n, rounds, sizes",
    [(16, 5, (4,) * 4), (20, 5, (4,) * 5), (32, 10, (4,) * 8), (25, 6, (5,) * 5)],
)
def test_zero_when_everyone_can_meet_new_people(n, rounds, sizes):
    assert repeat_lower_bound(n, rounds, sizes) == 0


def test_sixteen_players_six_rounds():
    # 18 meetings each, 15 others: 3 excess each, 16 · 3 / 2 = 24.
    assert repeat_lower_bound(16, 6, (4,) * 4) == 24


def test_social_golfer_24_by_8():
    # 8 · 3 = 24 meetings against 23 others: 1 excess each → 12.
    assert repeat_lower_bound(24, 8, (4,) * 6) == 12


def test_history_reduces_who_is_new():
    # Player 0 already met all 7 others: every one of their 3 meetings is a repeat, and
    # each of those is one pair meeting, seen once from player 0 → ceil(3 / 2) = 2.
    partners = [7] + [1] * 7
    assert repeat_lower_bound(8, 1, (4, 4), partners) == 2


def test_a_household_of_four_forces_its_members_repeats():
    # 16 players, 5 rounds of four 4-tables, one household of four: each member meets 15
    # people but only the 12 outsiders are allowed, so 3 of their meetings are repeats,
    # and no two members share one (they never meet): 4 · 3 = 12 distinct repeats. The
    # plain counting bound halves that to 6; without the household it is 0 (AG(2, 4)).
    household = [0, 1, 2, 3]
    barred = [3] * 4 + [0] * 12
    assert repeat_lower_bound(16, 5, (4,) * 4) == 0
    assert repeat_lower_bound(16, 5, (4,) * 4, barred) == 6
    assert repeat_lower_bound(16, 5, (4,) * 4, barred, [household]) == 12


def test_a_household_of_three_in_the_24_by_8_golf_problem():
    # Members: 24 meetings, 21 allowed partners → 3 repeats each, 9 in all. The 21 others
    # have 1 excess each; halving the total (9 + 21) gives 15, which is the larger.
    barred = [2] * 3 + [0] * 21
    assert repeat_lower_bound(24, 8, (4,) * 6, barred, [[0, 1, 2]]) == 15


def test_degenerate_inputs():
    assert repeat_lower_bound(1, 3, (1,)) == 0
    assert repeat_lower_bound(8, 0, (4, 4)) == 0
    with pytest.raises(ValueError):
        repeat_lower_bound(8, 1, (4, 4), [0])


def _latin_squares_of_order_four():
    rows = list(itertools.permutations(range(4)))
    for square in itertools.product(rows, repeat=4):
        if all(len({square[i][j] for i in range(4)}) == 4 for j in range(4)):
            yield square


def test_minimum_repeat_seatings_of_17_to_19_fix_the_five_table_seats():
    """The computer-checked half of bounds.pigeonhole_tight_spread's proof.

    A seating of 16 + m players (3 rounds, 4 tables) with only 2m repeats is a Latin square
    of order 4 on 16 units (cells; rounds = rows, columns, symbols), m of them merged pairs
    that sit at a 5-table every round (exposure 3), pairwise unlinked; any other cell sits at
    a 5-table once per merged unit it shares a line with. Over all 576 squares and every
    choice of merged cells, the least exposure among the others is:
    m = 2: always 0 (spread 3); m = 3: 1 exactly when the square has no transversal
    (spread 2), 0 when it has one (spread 3) — and a household of four needs one.
    """
    cells = [(i, j) for i in range(4) for j in range(4)]
    least = {2: set(), (3, False): set(), (3, True): set()}
    squares = 0
    for square in _latin_squares_of_order_four():
        squares += 1
        linked = [
            [
                p != q
                and (p[0] == q[0] or p[1] == q[1] or square[p[0]][p[1]] == square[q[0]][q[1]])
                for q in cells
            ]
            for p in cells
        ]
        transversal = any(
            not any(linked[i * 4 + s[i]][k * 4 + s[k]] for i in range(4) for k in range(i))
            for s in itertools.permutations(range(4))
        )
        for m in (2, 3):
            for merged in itertools.combinations(range(16), m):
                if any(linked[p][q] for p, q in itertools.combinations(merged, 2)):
                    continue
                exposure = min(
                    sum(linked[v][u] for u in merged) for v in range(16) if v not in merged
                )
                least[2 if m == 2 else (3, transversal)].add(exposure)
    assert squares == 576
    assert least == {2: {0}, (3, False): {1}, (3, True): {0}}


@pytest.mark.parametrize(
    "n, sizes, family, spread",
    [
        (17, (5, 4, 4, 4), 0, 3),
        (18, (5, 5, 4, 4), 3, 3),
        (19, (5, 5, 5, 4), 3, 2),
        (19, (5, 5, 5, 4), 4, 3),  # a household of four forces a transversal
        (16, (4, 4, 4, 4), 0, None),
        (20, (5, 5, 5, 5), 0, None),
        (21, (5, 4, 4, 4, 4), 0, None),
    ],
)
def test_pigeonhole_tight_spread(n, sizes, family, spread):
    assert pigeonhole_tight_spread(n, 3, sizes, family) == spread
    assert pigeonhole_tight_spread(n, 4, sizes, family) is None
