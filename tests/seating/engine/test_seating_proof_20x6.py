"""benchmarks/proof_20x6.py, the offline CP-SAT model for the 20 x 6 question (is
there a schedule with at most 3 repeats?), gets the answers known from design theory.

The solver runs only in `make proofs`, with OR-Tools installed (the engine never
needs it); the symmetry-breaking arithmetic the model rests on is checked every time. The
20 x 6 question itself is still open: CP-SAT gave no answer for <= 3 repeats in 30 minutes
(one worker) nor for <= 1 in 7 minutes, so no test claims it."""

from __future__ import annotations

from itertools import combinations

import pytest

from benchmarks.proof_20x6 import (
    KNOWN,
    first_round,
    orthogonal_rounds,
    repeats_of,
    second_round,
    solve,
    spoiled_round_pairs,
)

# Out of the suite (deselected, never skipped): `make proofs` runs it (README, "Proofs").
PROOF = pytest.mark.proof


def test_the_orthogonal_rounds_follow_from_few_repeats():
    # A pair met 4 times spoils 6 of the 15 pairs of rounds; some pair is still orthogonal.
    assert spoiled_round_pairs(3, 6) == 6 < 15
    # ...and 3 repeats always leave three mutually orthogonal rounds (not four: a pair
    # meeting in rounds 1-4 leaves only {5, 6, one of 1-4}).
    assert orthogonal_rounds(3, 6) == 3
    assert [orthogonal_rounds(k, 6) for k in (0, 1, 2, 4, 5)] == [6, 5, 4, 2, 1]


@pytest.mark.parametrize("n", [16, 20])
def test_the_fixed_second_round_is_orthogonal_to_the_first(n):
    schedule = [first_round(n), second_round(n)]
    assert sorted(p for table in schedule[1] for p in table) == list(range(n))
    assert all(len(table) == 4 for partition in schedule for table in partition)
    assert repeats_of(schedule) == 0
    # every round-2 table takes one player from 4 different round-1 tables
    for table in schedule[1]:
        assert len({p // 4 for p in table}) == 4
    assert all(a[0] < b[0] for a, b in combinations(schedule[1], 2))


@PROOF
@pytest.mark.parametrize("n, rounds, ceiling, answer", KNOWN)
def test_the_model_gets_known_answers(n, rounds, ceiling, answer):
    status, schedule, _ = solve(n, rounds, ceiling, time_limit=600.0)
    assert status == answer
    if schedule is not None:
        assert repeats_of(schedule) <= ceiling
