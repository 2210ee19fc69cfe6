"""The engine's 20 x 6 schedules, shared by the two 20 x 6 proofs' tests."""

from __future__ import annotations

import random

from seating.engine import seat
from seating.engine.model import SeatingProblem


def engine_schedules() -> list[list[list[list[int]]]]:
    """The engine's 20 x 6 seatings for seeds 1-3 (6 repeats each, at 2 s a seed), as lists
    of player numbers."""
    found = []
    for seed in (1, 2, 3):
        problem = SeatingProblem(
            players=tuple(f"p{i}" for i in range(20)), rounds=6, seed=seed, time_limit=2.0
        )
        found.append(
            [[[int(p[1:]) for p in table] for table in rnd] for rnd in seat(problem).rounds]
        )
    return found


def relabelled(schedule, rng: random.Random):
    """The same schedule with its players renamed, its tables and its rounds shuffled."""
    players = list(range(20))
    rng.shuffle(players)
    rounds = [[[players[p] for p in table] for table in rnd] for rnd in schedule]
    for rnd in rounds:
        rng.shuffle(rnd)
    rng.shuffle(rounds)
    return rounds
