"""Exhaustive search on small fields: is there a schedule with at most ``ceiling`` repeats?

The counting bounds (``bounds.py``) are not always reachable. For a few awkward small
fields (11, 12, 13 players over 4 rounds) the engine's best stayed 1–3 above
them; this search settles the true minimum, and ``bounds.EXHAUSTIVE_MINIMUM`` records what
it proved (the tests run it again, so the table cannot drift from the proof).

Symmetry breaking, each step valid because it only discards schedules equivalent to one
kept (relabelling players, reordering rounds or equal-size tables):

* round 1 is fixed: players 0.. in order, tables largest first;
* round 2 is one representative per class of its table-intersection matrix with round 1
  (rows and columns permuted among equal sizes): players inside a round-1 table can be
  permuted freely, and that group moves any two round-2 seatings with the same matrix
  onto each other;
* rounds 3.. come in non-decreasing order (as tuples of sorted tables), since they can be
  swapped freely once rounds 1 and 2 are fixed; equal-size tables in a round are listed
  by increasing smallest player.

Branch and bound: a table is placed only if the repeats so far stay within the ceiling
(repeats only ever grow as tables are added). No history and no households: those are
other problems, and the table applies only without them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, permutations

Table = tuple[int, ...]
Round = tuple[Table, ...]


def seatings(players: Sequence[int], sizes: Sequence[int]) -> Iterator[Round]:
    """Every round of ``sizes`` (largest first) on ``players``, equal-size tables by
    increasing smallest player."""

    def tables(rest: list[int], t: int, previous: int) -> Iterator[Round]:
        if t == len(sizes):
            yield ()
            return
        same = t > 0 and sizes[t - 1] == sizes[t]
        for combo in combinations(rest, sizes[t]):
            if same and combo[0] < previous:
                continue
            left = [p for p in rest if p not in combo]
            for tail in tables(left, t + 1, combo[0]):
                yield (combo, *tail)

    yield from tables(list(players), 0, -1)


def _matrix_class(first: Round, other: Round) -> tuple[tuple[int, ...], ...]:
    """The smallest intersection matrix of ``other`` with ``first`` over row and column
    permutations that keep table sizes in place."""
    k = len(first)
    rows = [set(table) for table in first]
    matrix = [[len(row & set(table)) for table in other] for row in rows]
    keys = (
        tuple(tuple(matrix[rp[i]][cp[j]] for j in range(k)) for i in range(k))
        for rp in permutations(range(k))
        if all(len(first[rp[i]]) == len(first[i]) for i in range(k))
        for cp in permutations(range(k))
        if all(len(other[cp[i]]) == len(first[i]) for i in range(k))
    )
    return min(keys)


class _Search:
    def __init__(self, n: int, sizes: Sequence[int], rounds: int) -> None:
        self.n, self.sizes, self.rounds = n, tuple(sizes), rounds
        self.count = [0] * (n * n)
        self.nodes = 0

    def cost(self, table: Table) -> int:
        n, count = self.n, self.count
        return sum(count[a * n + b] >= 1 for i, a in enumerate(table) for b in table[i + 1 :])

    def add(self, table: Table, step: int) -> None:
        n = self.n
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                self.count[a * n + b] += step

    def extend(
        self, r: int, rest: list[int], budget: int, previous: Round, now: list[Table]
    ) -> bool:
        """Complete round ``r`` (tables ``now`` placed, ``rest`` unseated) and the rounds
        after it within ``budget`` more repeats."""
        self.nodes += 1
        sizes, t = self.sizes, len(now)
        if t == len(sizes):
            done = tuple(now)
            if r >= 3 and done < previous:
                return False
            return r + 1 == self.rounds or self.extend(r + 1, list(range(self.n)), budget, done, [])
        same = t > 0 and sizes[t - 1] == sizes[t]
        for combo in combinations(rest, sizes[t]):
            if (same and combo[0] < now[-1][0]) or (t == 0 and r >= 3 and combo < previous[0]):
                continue
            cost = self.cost(combo)
            if cost > budget:
                continue
            self.add(combo, 1)
            now.append(combo)
            found = self.extend(
                r, [p for p in rest if p not in combo], budget - cost, previous, now
            )
            now.pop()
            self.add(combo, -1)
            if found:
                return True
        return False


def schedule_within(n: int, sizes: Sequence[int], rounds: int, ceiling: int) -> bool:
    """Whether ``rounds`` rounds of ``sizes`` for ``n`` players can have at most
    ``ceiling`` repeat meetings (no history, no households). Exponential: small fields only."""
    sizes = sorted(sizes, reverse=True)
    if sum(sizes) != n:
        raise ValueError("table sizes must seat every player")
    search = _Search(n, sizes, rounds)
    first: list[Table] = []
    for size in sizes:
        start = sum(len(table) for table in first)
        first.append(tuple(range(start, start + size)))
    for table in first:
        search.add(table, 1)
    if rounds <= 1:
        return True
    classes: dict[tuple[tuple[int, ...], ...], Round] = {}
    for second in seatings(range(n), sizes):
        classes.setdefault(_matrix_class(tuple(first), second), second)
    for second in classes.values():
        cost = sum(search.cost(table) for table in second)
        if cost > ceiling:
            continue
        for table in second:
            search.add(table, 1)
        found = rounds == 2 or search.extend(2, list(range(n)), ceiling - cost, second, [])
        for table in second:
            search.add(table, -1)
        if found:
            return True
    return False
