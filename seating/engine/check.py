"""An independent checker for a seating, written apart from the search on purpose.

The search keeps incremental pair counts in a flat list with offsets; a bug there could
also hide in a report computed from the same bookkeeping. This module recounts everything
from the ids alone with ``Counter`` and ``frozenset`` pairs, and re-derives the table-size
pattern by brute force, so the tests compare two implementations that share no code.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from seating.engine.model import PlayerId, Seating, SeatingProblem


@dataclass(frozen=True)
class SeatingCheck:
    """Counts for one seating; ``errors`` lists broken hard rules (empty when valid)."""

    errors: tuple[str, ...]
    repeat_meetings: int
    pairs_met_three_plus: int
    family_conflicts: int
    five_table_exposure: dict[PlayerId, int]
    exposure_spread: int
    big_tables_per_round: int

    @property
    def valid(self) -> bool:
        return not self.errors


@functools.lru_cache(maxsize=64)  # a pure function, and slow for thousands of players
def expected_pattern(n: int, low: int, high: int) -> tuple[int, ...]:
    """The size multiset the rules ask for, by brute force over counts of 3-, 4-, 5-... tables.

    Preference: only sizes within the rule; fewest seats below 4; then fewest seats above 4
    (squared); then most tables. When the rule admits nothing, lower the minimum until
    something fits (the documented fallback).
    """
    target = min(max(4, low), high)
    for lowest in range(low, 0, -1):
        best: tuple[tuple[int, int, int], tuple[int, ...]] | None = None

        def walk(size: int, left: int, chosen: list[int], lowest: int = lowest) -> None:
            nonlocal best
            if left == 0:
                key = (
                    sum(max(0, target - s) for s in chosen),
                    sum(max(0, s - target) ** 2 for s in chosen),
                    -len(chosen),
                )
                if best is None or key < best[0]:
                    best = (key, tuple(sorted(chosen, reverse=True)))
                return
            if size < lowest:
                return
            for count in range(left // size, -1, -1):
                walk(size - 1, left - count * size, chosen + [size] * count)

        walk(high, n, [])
        if best is not None:
            return best[1]
    raise AssertionError("unreachable")


def check_seating(problem: SeatingProblem, seating: Seating) -> SeatingCheck:
    return check_rounds(problem, seating.rounds)


def check_rounds(
    problem: SeatingProblem, rounds: Sequence[Sequence[Sequence[PlayerId]]]
) -> SeatingCheck:
    """Recount any proposed rounds, e.g. a judge's move before it is made."""
    errors: list[str] = []
    roster = list(problem.players)
    if len(rounds) != problem.rounds:
        errors.append(f"{len(rounds)} rounds seated, {problem.rounds} asked")
    pattern = expected_pattern(len(roster), *problem.table_sizes)
    history = Counter(
        frozenset(pair)
        for pair in problem.history
        if len(set(pair)) == 2 and all(p in roster for p in pair)
    )
    families = {p: g for p, g in problem.families.items() if g is not None}
    apart = {frozenset(pair) for pair in problem.avoid}
    meetings: Counter[frozenset[PlayerId]] = Counter()
    conflicts = 0
    exposure = dict.fromkeys(roster, 0)
    big_tables = 0
    for r, tables in enumerate(rounds):
        seated = [p for table in tables for p in table]
        if sorted(map(repr, seated)) != sorted(map(repr, roster)):
            errors.append(f"round {r}: not every player exactly once")
        sizes = tuple(len(table) for table in tables)
        if tuple(sorted(sizes, reverse=True)) != pattern:
            errors.append(f"round {r}: table sizes {sizes}, expected {pattern}")
        big_tables = max(big_tables, sum(1 for s in sizes if s > 4))
        for t, table in enumerate(tables):
            for p in table:
                if len(table) >= 5:
                    exposure[p] = exposure.get(p, 0) + 1
                pin = problem.pinned.get((r, p))
                if pin is not None and pin != t:
                    errors.append(f"round {r}: {p!r} pinned to table {pin}, seated at {t}")
            for a, b in combinations(table, 2):
                meetings[frozenset((a, b))] += 1
                same_family = a in families and families.get(b) == families[a]
                if same_family or frozenset((a, b)) in apart:
                    conflicts += 1
    repeats = 0
    three_plus = 0
    for pair, here in meetings.items():
        before = history[pair]
        # Every meeting here with someone already met (earlier or in history) is a repeat.
        repeats += here if before else here - 1
        if before + here >= 3:
            three_plus += 1
    values = list(exposure.values())
    return SeatingCheck(
        errors=tuple(errors),
        repeat_meetings=repeats,
        pairs_met_three_plus=three_plus,
        family_conflicts=conflicts,
        five_table_exposure=exposure,
        exposure_spread=max(values) - min(values) if values else 0,
        big_tables_per_round=big_tables,
    )
