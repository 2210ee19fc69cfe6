"""Counting a finished seating from its tables: the report, progress and fairness counts.

Kept apart from the search on purpose: whatever the search's incremental counters say, the
report is recomputed here from the tables alone (and ``check.py`` recounts it again, in
the tests, with code that shares nothing with this).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from seating.engine.model import SeatingProblem, SeatingReport
from seating.engine.sizes import STANDARD_SIZE, TablePattern

Rounds = list[list[list[int]]]


def build_report(
    problem: SeatingProblem,
    pattern: TablePattern,
    rounds: Rounds,
    history: dict[int, int],
    forbidden: set[int],
    bound: int,
    ideal_spread: int,
    constructed: int,
) -> SeatingReport:
    ids = problem.players
    n = len(ids)
    seated: dict[int, int] = defaultdict(int)
    conflicts = []
    exposure = [0] * n
    for r, tables in enumerate(rounds):
        for table in tables:
            for i, a in enumerate(table):
                if len(table) > STANDARD_SIZE:
                    exposure[a] += 1
                for b in table[i + 1 :]:
                    key = min(a, b) * n + max(a, b)
                    seated[key] += 1
                    if key in forbidden:
                        conflicts.append((r, ids[min(a, b)], ids[max(a, b)]))
    repeats = 0
    repeat_pairs = []
    three_plus = 0
    for key in sorted(seated):
        s, h = seated[key], history.get(key, 0)
        if h + s >= 2:
            repeats += s if h else s - 1
            a, b = divmod(key, n)
            repeat_pairs.append((ids[a], ids[b], h + s))
            if h + s >= 3:
                three_plus += 1
    return SeatingReport(
        players=n,
        rounds=problem.rounds,
        table_sizes=pattern.sizes,
        size_rule=(problem.table_sizes[0], problem.table_sizes[1]),
        size_fallback=pattern.fallback,
        repeat_meetings=repeats,
        repeat_pairs=tuple(repeat_pairs),
        pairs_met_three_plus=three_plus,
        family_conflicts=len(conflicts),
        conflicts=tuple(conflicts),
        five_table_exposure=tuple((ids[p], exposure[p]) for p in range(n)),
        exposure_spread=max(exposure) - min(exposure),
        exposure_ideal_spread=ideal_spread,
        repeat_lower_bound=bound,
        gap=repeats - bound,
        constructed_rounds=constructed,
        stopped_by="",
        iterations=0,
        seconds=0.0,
        seed=problem.seed,
    )


def meeting_counts(
    rounds: Rounds, n: int, history: dict[int, int], forbidden: set[int]
) -> tuple[int, int]:
    """(repeat meetings, family conflicts) counted as the report counts them."""
    repeats = conflicts = 0
    for key, count in pair_counts(rounds, n).items():
        repeats += count if history.get(key) else count - 1
        if key in forbidden:
            conflicts += count
    return repeats, conflicts


def pair_counts(rounds: Rounds, n: int) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    for tables in rounds:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    counts[min(a, b) * n + max(a, b)] += 1
    return counts


def exposure_counts(rounds: Rounds, big: Sequence[bool], n: int) -> list[int]:
    exposure = [0] * n
    for tables in rounds:
        for j, table in enumerate(tables):
            if big[j]:
                for p in table:
                    exposure[p] += 1
    return exposure
