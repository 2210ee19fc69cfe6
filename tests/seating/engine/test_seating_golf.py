"""The 32 × 10 target: the social golfer design 8-4-10 (seating/engine/golf.py).

Every truth here is recounted from the tables: each round seats every player once at
tables of 4, no pair meets twice, and so each player meets exactly 30 of the other 31.
"""

import random
import time
from itertools import combinations

import pytest

from seating.engine import SeatingProblem, check_seating, seat
from seating.engine.cyclic import embed_households
from seating.engine.golf import golf_rounds, joined_rounds
from tests.seating.engine.test_seating_long_events import meetings


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_golf_rounds_are_ten_repeat_free_rounds_of_32(seed):
    rounds = golf_rounds(32, [4] * 8, 10, random.Random(seed), time.perf_counter() + 60)
    assert rounds is not None and len(rounds) == 10
    for tables in rounds:
        assert sorted(p for table in tables for p in table) == list(range(32))
        assert [len(table) for table in tables] == [4] * 8
    met = meetings(rounds)
    assert max(met.values()) == 1
    # 10 rounds × 3 tablemates = 30 people met, all different: each misses exactly one,
    # so the never-met pairs are a perfect matching (where a household of 2 can sit).
    never = [pair for pair in combinations(range(32), 2) if pair not in met]
    assert len(never) == 16
    assert sorted(p for pair in never for p in pair) == list(range(32))


@pytest.mark.parametrize(
    ("n", "sizes", "rounds"),
    [(32, [4] * 8, 9), (32, [4] * 8, 11), (36, [4] * 9, 10), (32, [5, 5, 5, 5, 4, 4, 4], 10)],
)
def test_golf_rounds_only_answer_32_by_10_at_tables_of_4(n, sizes, rounds):
    assert golf_rounds(n, sizes, rounds, random.Random(1), time.perf_counter() + 60) is None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_32_by_10_seats_with_zero_repeats_and_a_household_of_2_apart(seed):
    players = tuple(f"p{i}" for i in range(32))
    problem = SeatingProblem(
        players=players,
        rounds=10,
        families={"p3": "h", "p17": "h"},
        seed=seed,
        time_limit=60,
    )
    seating = seat(problem)
    check = check_seating(problem, seating)
    assert check.valid, check.errors
    assert check.repeat_meetings == 0
    assert check.family_conflicts == 0
    for tables in seating.rounds:
        assert sorted(p for table in tables for p in table) == sorted(players)
        assert not any({"p3", "p17"} <= set(table) for table in tables)


def test_a_household_of_4_starts_on_two_never_met_pairs():
    # In 8-4-10 the never-met pairs are a perfect matching, so 4 players include at most
    # 2 of them and share a table at least 4 times; the renaming reaches that minimum.
    rounds = golf_rounds(32, [4] * 8, 10, random.Random(1), time.perf_counter() + 60)
    renamed = embed_households(rounds, 32, [[0, 1, 2, 3]], random.Random(1))
    met = meetings(renamed)
    assert sum(met.get(pair, 0) for pair in combinations(range(4), 2)) == 4


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_25_players_get_6_repeat_free_rounds_with_one_table_of_5(seed):
    sizes = [5, 4, 4, 4, 4, 4]
    rounds = joined_rounds(25, sizes, 6, random.Random(seed), time.perf_counter() + 60)
    assert rounds is not None and len(rounds) == 6
    for tables in rounds:
        assert sorted(p for table in tables for p in table) == list(range(25))
        assert sorted(len(table) for table in tables) == sorted(sizes)
    met = meetings(rounds)
    assert max(met.values()) == 1
    # The joiner (player 24) sits at the 5-table each round and so meets all 24 others.
    assert all(met.get((p, 24)) == 1 for p in range(24))


def test_joined_rounds_need_4r_plus_1_players_and_one_table_of_5():
    deadline = time.perf_counter() + 60
    assert joined_rounds(24, [4] * 6, 6, random.Random(1), deadline) is None
    assert joined_rounds(25, [5, 5, 5, 5, 5], 6, random.Random(1), deadline) is None
    assert joined_rounds(21, [5, 4, 4, 4, 4], 4, random.Random(1), deadline) is None


@pytest.mark.parametrize(("seed", "household"), [(1, 2), (2, 3), (3, 4)])
def test_25_by_6_under_the_4_5_rule_has_zero_repeats_with_a_household(seed, household):
    players = tuple(f"p{i}" for i in range(25))
    families = {f"p{i}": "h" for i in range(0, 2 * household, 2)}
    problem = SeatingProblem(players=players, rounds=6, families=families, seed=seed, time_limit=60)
    seating = seat(problem)
    check = check_seating(problem, seating)
    assert check.valid, check.errors
    assert check.repeat_meetings == 0
    assert check.family_conflicts == 0
