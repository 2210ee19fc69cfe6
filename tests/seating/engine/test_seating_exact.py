"""The awkward small fields: where the engine stayed above the counting bounds,
an exhaustive search (seating/engine/exact.py, symmetry-broken) shows no schedule does
better, so ``bounds.EXHAUSTIVE_MINIMUM`` is the true minimum and the engine's seating is
optimal. 12 players take a quarter of a minute and 13 take minutes: `make test` runs the
11-player proof, and BOARDWALK_SLOW_PROOFS=1 runs all three (.ci/run does, every time)."""

from __future__ import annotations

import os

import pytest

from seating.engine import SeatingProblem, check_seating, seat
from seating.engine.bounds import EXHAUSTIVE_MINIMUM, repeat_lower_bound
from seating.engine.exact import schedule_within, seatings

SLOW = pytest.mark.skipif(
    not os.environ.get("BOARDWALK_SLOW_PROOFS"),
    reason="a long proof: BOARDWALK_SLOW_PROOFS=1 runs it (.ci/run does)",
)


def test_the_search_knows_small_cases_worked_by_hand():
    # 8 players, two tables of 4, 3 rounds: the bounds module's worked example, 8 repeats.
    assert not schedule_within(8, (4, 4), 3, 7)
    assert schedule_within(8, (4, 4), 3, 8)
    # 9 players at 3 tables of 3 over 4 rounds: the affine plane of order 3, no repeat.
    assert schedule_within(9, (3, 3, 3), 4, 0)
    # ...and a 5th round of 3 tables of 3 makes each table's 3 pairs repeats: 9.
    assert not schedule_within(9, (3, 3, 3), 5, 8)
    assert schedule_within(9, (3, 3, 3), 5, 9)


def test_every_round_is_enumerated_once():
    # 12 players into 3 unlabelled tables of 4: 12! / (4!^3 · 3!) = 5775.
    assert sum(1 for _ in seatings(range(12), (4, 4, 4))) == 5775
    # 13 into 5 + 4 + 4: the two 4-tables are interchangeable, 13! / (5! 4! 4! 2!) = 45045.
    assert sum(1 for _ in seatings(range(13), (5, 4, 4))) == 45045


@pytest.mark.parametrize(
    "n, sizes",
    [
        (11, (4, 4, 3)),
        pytest.param(12, (4, 4, 4), marks=SLOW),
        pytest.param(13, (5, 4, 4), marks=SLOW),
    ],
)
def test_the_awkward_minimum_is_proved_and_reached(n, sizes):
    minimum = EXHAUSTIVE_MINIMUM[(n, 4, sizes)]
    assert repeat_lower_bound(n, 4, sizes) < minimum  # the counting bounds fall short
    assert not schedule_within(n, sizes, 4, minimum - 1)
    problem = SeatingProblem(players=tuple(range(n)), rounds=4, seed=1, time_limit=10.0)
    seating = seat(problem)
    check = check_seating(problem, seating)
    assert check.valid and check.repeat_meetings == minimum
    assert seating.report.repeat_lower_bound == minimum
