"""Repeat-free long events the grid and the cyclic search do not reach.

Two constructions, both ending in exact covers (Knuth's Algorithm X, ``_exact_covers``):
``joined_rounds`` seats 4R + 1 players over R rounds with one table of 5 (25 × 6 under
the 4–5 rule; see its docstring), and the rest of this docstring is the social golfer
design 8-4-10: ten repeat-free rounds for 32 players at tables of 4.

Number the players by the vectors of GF(2)^5. A 2-dimensional subspace W (a line of the
projective space PG(4,2), plus 0) splits the players into its 8 cosets, a round of tables
of 4 in which exactly the pairs {x, y} with x + y ∈ W meet. Rounds from disjoint lines
never repeat a pair, but at most 9 lines of PG(4,2) are pairwise disjoint (a maximal
partial spread leaves 4 of its 31 points uncovered), so cosets alone stop at 9 rounds —
the grid's 8-4-9 (construct.py). Ten rounds need every player to meet 30 of the other 31,
missing one; here the missed pairs are those of one difference e, and the other 30
differences must each be met exactly once.

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
from typing import TypeVar

from seating.engine.cyclic import cyclic_rounds

Rounds = list[list[list[int]]]

PLAYERS, ROUNDS, SIZE = 32, 10, 4
_POINTS = range(1, PLAYERS)  # the nonzero vectors: points of PG(4,2), and differences
_KEPT = 5  # coset rounds kept from the spread; the other 5 rounds are searched
_NODES = 200_000  # Algorithm X steps per attempt at a cover; solvable ones take a few thousand


_JOIN_TRIES = 12  # designs tried by ``joined_rounds``
# (players, rounds) with no repeat-free schedule at tables of 4, so not worth a search:
# 5-4-6 (20 players; the social golfer problem's known unsolvable instance), which would
# otherwise cost 21 × 5 about a second per construction try.
_NO_DESIGN = {(20, 6)}
_JOIN_ITERATIONS = 600  # cyclic swaps per design: 6-4-7 takes a few hundred, a failure ~1 s

# Exact cover's rows are tuples of numbers (tried in sorted order), its columns anything.
_Row = TypeVar("_Row", bound=tuple[int, ...])
_Column = TypeVar("_Column", bound=Hashable)


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
    rows: dict[_Row, list[_Column]], budget: _Budget, fixed: Sequence[_Row] = ()
) -> Iterator[list[_Row]]:
    """Every choice of rows covering each column exactly once (Algorithm X, columns as
    sets of rows, fewest candidates first); ``fixed`` rows are chosen up front."""
    columns: dict[_Column, set[_Row]] = {}
    for row, cols in rows.items():
        for col in cols:
            columns.setdefault(col, set()).add(row)

    def select(row: _Row) -> list[set[_Row]]:
        removed = []
        for col in rows[row]:
            for other in columns[col]:
                for col2 in rows[other]:
                    if col2 != col:
                        columns[col2].discard(other)
            removed.append(columns.pop(col))
        return removed

    def deselect(row: _Row, removed: list[set[_Row]]) -> None:
        for col in reversed(rows[row]):
            columns[col] = removed.pop()
            for other in columns[col]:
                for col2 in rows[other]:
                    if col2 != col:
                        columns[col2].add(other)

    def solve(chosen: list[_Row]) -> Iterator[list[_Row]]:
        if not columns:
            yield list(chosen)
            return
        if not budget.spend():
            return
        col = min(columns, key=lambda c: len(columns[c]))
        for row in sorted(columns[col]):
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
    found: set[tuple[int, ...]] = set()
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
    for cover in _exact_covers(pairs, budget):
        # Sort the 40 tables into 5 rounds; player 0's five tables fix the round order.
        # Columns: table t is used once (−1 − t), player p sits once in round r (32·r + p).
        slots = {
            (t, r): [-1 - t] + [PLAYERS * r + p for p in table]
            for t, table in enumerate(cover)
            for r in range(ROUNDS - _KEPT)
        }
        zero = [t for t, table in enumerate(cover) if 0 in table]
        for rounds in _exact_covers(slots, budget, [(t, r) for r, t in enumerate(zero)]):
            out: Rounds = [[] for _ in range(ROUNDS - _KEPT)]
            for t, r in rounds:
                out[r].append(list(cover[t]))
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
    """Repeat-free rounds from this module's constructions, or None where none applies
    (or the budget runs out): 8-4-10 for 32 players at tables of 4 over 10 rounds, and
    ``joined_rounds`` for 4R + 1 players over R ≥ 5 rounds with one table of 5."""
    # A copy of the caller's stream: where nothing is found (most shapes, after up to a
    # few seconds of trying), what the caller does next is exactly what it did before.
    own = random.Random()
    own.setstate(rng.getstate())
    if n == PLAYERS and rounds == ROUNDS and all(size == SIZE for size in sizes):
        return _spread_rounds(own, deadline, should_stop)
    return joined_rounds(n, sizes, rounds, own, deadline, should_stop)


def _spread_rounds(
    rng: random.Random, deadline: float, should_stop: Callable[[], bool] | None
) -> Rounds | None:
    """The 10 repeat-free rounds of 8-4-10 (module docstring)."""
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


def joined_rounds(
    n: int,
    sizes: Sequence[int],
    rounds: int,
    rng: random.Random,
    deadline: float,
    should_stop: Callable[[], bool] | None = None,
) -> Rounds | None:
    """R repeat-free rounds for 4R + 1 players with one table of 5 (25 × 6 under the 4–5
    rule), or None.

    Seat the first 4R players by a repeat-free design with R + 1 rounds of tables of 4
    (the cyclic search: for 24 players the 6-4-7 design), then pick one table from each
    of R different rounds so that the picked tables split the 4R players exactly (an exact
    cover). The last player joins the picked table of each round as its 5th: they meet
    every other player exactly once, and nobody else meets anyone new, so nothing repeats.
    The joiner sits at the 5-table every round; the fairness phase may move that later.
    """
    tables = len(sizes)  # the base seats 4R players at R tables of 4
    if sorted(sizes) != [SIZE] * (tables - 1) + [SIZE + 1] or n - 1 != SIZE * rounds or rounds < 5:
        return None
    if (n - 1, rounds + 1) in _NO_DESIGN:
        return None
    for _ in range(_JOIN_TRIES):
        # Not every design has such a transversal (about half of the 6-4-7 ones the cyclic
        # search finds for 24 players do), so a few designs are tried. Only designs with
        # R + 1 rounds: the round left out leaves never-met 4-cliques, where households of
        # up to 4 sit; and where R rounds of tables of 4 are all there is (20 players: 5-4-6
        # does not exist), the grid already seats 4R + 1 players without repeats.
        base = cyclic_rounds(
            n - 1, [SIZE] * tables, rounds + 1, rng, _JOIN_ITERATIONS, deadline, should_stop
        )
        if base is None:
            return None
        # Columns: each of the 4R players once (p), each base round once (−1 − r): by one
        # picked table, or left out (one round is: R tables seat all 4R players).
        rows: dict[tuple[int, int], list[int]] = {
            (r, j): [*table, -1 - r]
            for r, tables_r in enumerate(base)
            for j, table in enumerate(tables_r)
        }
        rows.update({(r, -1): [-1 - r] for r in range(len(base))})
        for cover in _exact_covers(rows, _Budget(_NODES, deadline, should_stop)):
            picked = dict(cover)
            return [
                [[*t, n - 1] if j == picked[r] else list(t) for j, t in enumerate(tables_r)]
                for r, tables_r in enumerate(base)
                if picked[r] >= 0
            ]
        if time.perf_counter() > deadline or (should_stop is not None and should_stop()):
            break
    return None
