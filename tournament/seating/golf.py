"""Ten repeat-free rounds for 32 players at tables of 4: the social golfer design 8-4-10.

Number the players by the vectors of GF(2)^5. A 2-dimensional subspace W (a line of the
projective space PG(4,2), plus 0) splits the players into its 8 cosets, a round of tables
of 4 in which exactly the pairs {x, y} with x + y ∈ W meet. Rounds from disjoint lines
never repeat a pair, but at most 9 lines of PG(4,2) are pairwise disjoint (a maximal
partial spread leaves 4 of its 31 points uncovered), so cosets alone stop at 9 rounds —
the grid's 8-4-9 (construct.py). Ten rounds need every player to meet 30 of the other 31,
missing one: the missed pairs are one difference e, and the other 30 differences must
each be met exactly once.

The construction: take a maximal partial spread of 9 lines, keep 5 of them as coset
rounds, and re-cover the rest — the pairs whose difference lies on the 4 dropped lines or
is one of the 3 uncovered points other than e (15 differences, 240 pairs) — by tables of
4 that need not be cosets: an exact cover of those pairs by 4-cliques of the Cayley graph
(Knuth's Algorithm X), then an exact cover sorting the 40 tables into 5 rounds. Which
lines are kept and which e is left out are tried in a seeded random order; most choices
have no cover, but one that has is found in about a second (measured over many spreads;
docs/benchmarks.md), and every result is recounted by the tests and ``check_seating``.
Work is capped by a node budget and the deadline, so a failure costs little and the
caller falls back to its other constructions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import combinations

Rounds = list[list[list[int]]]

PLAYERS, ROUNDS, SIZE = 32, 10, 4
_POINTS = range(1, PLAYERS)  # the nonzero vectors: points of PG(4,2), and differences
_KEPT = 5  # coset rounds kept from the spread; the other 5 rounds are searched
_NODES = 200_000  # Algorithm X steps per attempt at a cover; solvable ones take a few thousand


class _Budget:
    def __init__(self, nodes: int, deadline: float, should_stop: Callable[[], bool] | None):
        self.nodes, self.deadline, self.should_stop = nodes, deadline, should_stop

    def spend(self) -> bool:
        """One search step; False once the nodes, the clock or the caller say stop."""
        self.nodes -= 1
        if self.nodes & 255 == 0 and (
            time.perf_counter() > self.deadline
            or (self.should_stop is not None and self.should_stop())
        ):
            self.nodes = 0
        return self.nodes > 0


def _exact_covers(
    rows: dict[Hashable, list[Hashable]], budget: _Budget, fixed: Sequence[Hashable] = ()
) -> Iterator[list[Hashable]]:
    """Every choice of rows covering each column exactly once (Algorithm X, columns as
    sets of rows, fewest candidates first); ``fixed`` rows are chosen up front."""
    columns: dict[Hashable, set[Hashable]] = {}
    for row, cols in rows.items():
        for col in cols:
            columns.setdefault(col, set()).add(row)

    def select(row: Hashable) -> list[set[Hashable]]:
        removed = []
        for col in rows[row]:
            for other in columns[col]:
                for col2 in rows[other]:
                    if col2 != col:
                        columns[col2].discard(other)
            removed.append(columns.pop(col))
        return removed

    def deselect(row: Hashable, removed: list[set[Hashable]]) -> None:
        for col in reversed(rows[row]):
            columns[col] = removed.pop()
            for other in columns[col]:
                for col2 in rows[other]:
                    if col2 != col:
                        columns[col2].add(other)

    def solve(chosen: list[Hashable]) -> Iterator[list[Hashable]]:
        if not columns:
            yield list(chosen)
            return
        if not budget.spend():
            return
        col = min(columns, key=lambda c: len(columns[c]))
        for row in sorted(columns[col]):  # type: ignore[type-var]
            chosen.append(row)
            removed = select(row)
            yield from solve(chosen)
            deselect(row, removed)
            chosen.pop()

    for row in fixed:
        select(row)
    yield from solve(list(fixed))


def _spread(rng: random.Random) -> list[tuple[int, int, int]]:
    """A random maximal partial spread of 9 lines (random greedy; most tries reach 9)."""
    lines = sorted({tuple(sorted((a, b, a ^ b))) for a, b in combinations(_POINTS, 2)})
    while True:
        rng.shuffle(lines)
        chosen: list[tuple[int, int, int]] = []
        covered: set[int] = set()
        for line in lines:
            if covered.isdisjoint(line):
                chosen.append(line)  # type: ignore[arg-type]
                covered.update(line)
        if len(chosen) == 9:
            return chosen


def _cliques(differences: set[int]) -> list[tuple[int, ...]]:
    """All tables of 4 whose six pairs have differences in ``differences``."""
    found = set()
    for u, v, w in combinations(sorted(differences), 3):
        if u ^ v in differences and u ^ w in differences and v ^ w in differences:
            found.update(tuple(sorted((x, x ^ u, x ^ v, x ^ w))) for x in range(PLAYERS))
    return sorted(found)


def _complete(differences: set[int], budget: _Budget) -> Rounds | None:
    """Five rounds meeting exactly the pairs with a difference in ``differences``."""
    tables = _cliques(differences)
    pairs = {table: list(combinations(table, 2)) for table in tables}
    wanted = {(min(x, x ^ d), max(x, x ^ d)) for x in range(PLAYERS) for d in differences}
    if not wanted <= {pair for cols in pairs.values() for pair in cols}:
        return None
    for cover in _exact_covers(pairs, budget):  # type: ignore[arg-type]
        # Sort the 40 tables into 5 rounds; player 0's five tables fix the round order.
        # Columns: table t is used once (−1 − t), player p sits once in round r (32·r + p).
        slots = {
            (t, r): [-1 - t] + [PLAYERS * r + p for p in table]
            for t, table in enumerate(cover)
            for r in range(ROUNDS - _KEPT)
        }
        zero = [t for t, table in enumerate(cover) if 0 in table]
        for rounds in _exact_covers(slots, budget, [(t, r) for r, t in enumerate(zero)]):  # type: ignore[arg-type]
            out: Rounds = [[] for _ in range(ROUNDS - _KEPT)]
            for t, r in rounds:  # type: ignore[misc]
                out[r].append(list(cover[t]))  # type: ignore[index]
            return out
        if budget.nodes <= 0:
            return None
    return None


def golf_rounds(
    n: int,
    sizes: Sequence[int],
    rounds: int,
    rng: random.Random,
    deadline: float,
    should_stop: Callable[[], bool] | None = None,
) -> Rounds | None:
    """The 10 repeat-free rounds of 8-4-10 (module docstring) when exactly that is asked
    — 32 players, tables of 4, 10 rounds — else None; None also if the budget runs out."""
    if n != PLAYERS or rounds != ROUNDS or any(size != SIZE for size in sizes):
        return None
    while time.perf_counter() < deadline:
        spread = _spread(rng)
        holes = sorted(set(_POINTS).difference(*spread))
        choices = [(kept, e) for kept in combinations(range(9), _KEPT) for e in holes]
        rng.shuffle(choices)
        for kept, e in choices:
            budget = _Budget(_NODES, deadline, should_stop)
            differences = {h for h in holes if h != e}
            for i in set(range(9)) - set(kept):
                differences.update(spread[i])
            searched = _complete(differences, budget)
            if searched is not None:
                cosets = [_cosets(spread[i]) for i in kept]
                return cosets + searched
            if time.perf_counter() > deadline or (should_stop is not None and should_stop()):
                return None
    return None


def _cosets(line: tuple[int, int, int]) -> list[list[int]]:
    a, b, c = line
    return [[x, x ^ a, x ^ b, x ^ c] for x in range(PLAYERS) if x < min(x ^ a, x ^ b, x ^ c)]
