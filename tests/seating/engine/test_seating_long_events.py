"""Long events: the cyclic construction, household renaming and extra rounds.

Truths used here are independent of the engine's own counters: zero-repeat schedules are
recounted from the tables, and the 24 × 8 figure comes from a hand-worked argument.
"""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seating.engine import SeatingProblem, check_seating, seat
from seating.engine.construct import polish_round
from seating.engine.cyclic import Orbits, cyclic_rounds, embed_households


def roster(n):
    return tuple(f"p{i}" for i in range(n))


def meetings(rounds):
    count = {}
    for tables in rounds:
        for table in tables:
            for a, b in combinations(sorted(table), 2):
                count[a, b] = count.get((a, b), 0) + 1
    return count


def assert_partitions(rounds, n, size):
    for tables in rounds:
        assert sorted(p for table in tables for p in table) == list(range(n))
        assert {len(table) for table in tables} == {size}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_24_players_get_7_repeat_free_rounds_and_an_8th_at_18(seed):
    # The 6-4-7 social golfer instance (a resolvable 4-GDD of type 3^8): 7 rounds in
    # which each player meets 21 of the other 23 exactly once, missing two.
    rounds = cyclic_rounds(24, [4] * 6, 7, random.Random(seed), 2_000, float("inf"))
    assert rounds is not None
    assert_partitions(rounds, 24, 4)
    met = meetings(rounds)
    assert max(met.values()) == 1
    # The never-met pairs form 8 disjoint triangles. A 4-table holds at most one whole
    # triangle (3 new pairs, so 3 repeats), hence any 8th round costs ≥ 6 · 3 = 18, and
    # 18 is what is asked of 24 × 8 (the counting bound says 12).
    never = [pair for pair in combinations(range(24), 2) if pair not in met]
    partners = {p: {q for pair in never if p in pair for q in pair if q != p} for p in range(24)}
    assert all(len(partners[p]) == 2 for p in range(24))
    assert all(q in partners[r] for p in range(24) for q in partners[p] for r in partners[p] - {q})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_24_by_8_reaches_18_repeats(seed):
    problem = SeatingProblem(players=roster(24), rounds=8, seed=seed, max_iterations=1_000)
    seating = seat(problem)
    check = check_seating(problem, seating)
    assert check.valid, check.errors
    assert check.repeat_meetings <= 18
    assert seating.report.constructed_rounds == 7


@settings(max_examples=25, deadline=None)
@given(
    n=st.sampled_from([8, 12, 16, 20, 24, 28]),
    rounds=st.integers(2, 7),
    seed=st.integers(0, 1_000),
)
def test_cyclic_rounds_are_valid_and_repeat_free_when_found(n, rounds, seed):
    found = cyclic_rounds(n, [4] * (n // 4), rounds, random.Random(seed), 300, float("inf"))
    if found is None:
        return  # a budget ran out: the engine then keeps the grid's rounds
    assert len(found) == rounds
    assert_partitions(found, n, 4)
    assert max(meetings(found).values()) == 1


def test_orbits_of_sigma():
    # 12 players, cycles of length 5 (0..4, 5..9) and 2 fixed (10, 11).
    orbits = Orbits(12, 5, 2)
    assert orbits.image[1][4] == 0 and orbits.image[1][9] == 5 and orbits.image[3][11] == 11
    n = 12
    # {0, 5} and {1, 6} are one orbit; the two fixed players' pair is short (size 1).
    assert orbits.of[0 * n + 5] == orbits.of[1 * n + 6]
    assert orbits.short[orbits.of[10 * n + 11]]
    assert not orbits.short[orbits.of[0 * n + 1]]


def test_households_are_renamed_onto_never_met_positions():
    rounds = cyclic_rounds(24, [4] * 6, 7, random.Random(4), 2_000, float("inf"))
    households = [[0, 1, 2], [3, 4], [5, 6, 7]]
    renamed = embed_households(rounds, 24, households, random.Random(1))
    assert_partitions(renamed, 24, 4)
    assert max(meetings(renamed).values()) == 1  # renaming keeps the design
    for tables in renamed:
        for table in tables:
            for members in households:
                assert len(set(table) & set(members)) <= 1


@settings(max_examples=30, deadline=None)
@given(n=st.sampled_from([8, 12, 16, 20]), seed=st.integers(0, 10_000))
def test_polishing_a_round_never_makes_it_worse(n, seed):
    rng = random.Random(seed)
    meet = [rng.choice([0, 0, 1, 2]) for _ in range(n * n)]
    meet = [max(meet[a * n + b], meet[b * n + a]) for a in range(n) for b in range(n)]
    players = list(range(n))
    rng.shuffle(players)
    tables = [players[i : i + 4] for i in range(0, n, 4)]

    def cost(tables):
        return sum(meet[a * n + b] for table in tables for a, b in combinations(table, 2))

    before = cost(tables)
    polish_round(tables, n, meet, rng)
    assert sorted(p for table in tables for p in table) == list(range(n))
    assert cost(tables) <= before


def test_a_household_of_four_among_16_players_has_its_forced_repeats():
    # bounds.py's household argument: 4 members × 3 forced repeats = 12, all distinct.
    families = {f"p{i}": "h" for i in range(4)}
    problem = SeatingProblem(
        players=roster(16),
        rounds=5,
        families=families,
        seed=1,
        max_iterations=2_000,
        stall_iterations=1_000,
    )
    seating = seat(problem)
    check = check_seating(problem, seating)
    assert check.family_conflicts == 0
    assert seating.report.repeat_lower_bound == 12
    assert check.repeat_meetings >= 12
