"""Checking and indexing a ``SeatingProblem``: players become 0..n−1, pairs a·n + b.

Everything here refuses bad input with a ``ValueError`` that names the culprit, before any
search starts, so the caller (a form, the command line) can show it as it is.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence

from seating.engine.model import PlayerId, SeatingProblem


def validate(problem: SeatingProblem) -> dict[PlayerId, int]:
    index: dict[PlayerId, int] = {}
    for player in problem.players:
        if player in index:
            raise ValueError(f"player {player!r} is listed twice")
        index[player] = len(index)
    if not index:
        raise ValueError("cannot seat an empty roster")
    if problem.rounds < 1:
        raise ValueError("rounds must be at least 1")
    if len(problem.table_sizes) != 2:
        raise ValueError("table_sizes is a (min, max) pair")
    for player in problem.families:
        if player not in index:
            raise ValueError(f"family given for unknown player {player!r}")
    for pair in problem.avoid:
        if len(pair) != 2 or pair[0] == pair[1] or any(p not in index for p in pair):
            raise ValueError(f"bad keep-apart pair {pair!r}")
    return index


def forbidden_pairs(problem: SeatingProblem, index: dict[PlayerId, int]) -> set[int]:
    n = len(index)
    groups: dict[Hashable, list[int]] = defaultdict(list)
    for player, group in problem.families.items():
        if group is not None:
            groups[group].append(index[player])
    pairs: set[int] = set()
    for members in groups.values():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                pairs.add(min(a, b) * n + max(a, b))
    for x, y in problem.avoid:
        a, b = index[x], index[y]
        pairs.add(min(a, b) * n + max(a, b))
    return pairs


def components(n: int, forbidden: set[int]) -> list[list[int]]:
    """Players linked by family or keep-apart edges: the construction keeps each in one row."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for key in sorted(forbidden):
        a, b = divmod(key, n)
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    members: dict[int, list[int]] = defaultdict(list)
    for p in range(n):
        members[find(p)].append(p)
    return [members[root] for root in sorted(members)]


def history_counts(problem: SeatingProblem, index: dict[PlayerId, int]) -> dict[int, int]:
    n = len(index)
    counts: dict[int, int] = defaultdict(int)
    for pair in problem.history:
        if len(pair) != 2:
            raise ValueError(f"bad history pair {pair!r}")
        x, y = pair
        if x in index and y in index and x != y:
            a, b = index[x], index[y]
            counts[min(a, b) * n + max(a, b)] += 1
    return dict(counts)


def pins_by_round(
    problem: SeatingProblem, index: dict[PlayerId, int], sizes: Sequence[int]
) -> list[dict[int, int]]:
    pins: list[dict[int, int]] = [{} for _ in range(problem.rounds)]
    load: dict[tuple[int, int], int] = defaultdict(int)
    for (r, player), table in problem.pinned.items():
        if not (isinstance(r, int) and 0 <= r < problem.rounds):
            raise ValueError(f"pin for round {r!r} outside 0..{problem.rounds - 1}")
        if player not in index:
            raise ValueError(f"pin for unknown player {player!r}")
        if not (isinstance(table, int) and 0 <= table < len(sizes)):
            raise ValueError(f"pin to table {table!r} outside 0..{len(sizes) - 1}")
        load[r, table] += 1
        if load[r, table] > sizes[table]:
            raise ValueError(f"more players pinned to round {r} table {table} than it seats")
        pins[r][index[player]] = table
    return pins


def largest_family(problem: SeatingProblem) -> int:
    sizes: dict[Hashable, int] = defaultdict(int)
    for group in problem.families.values():
        if group is not None:
            sizes[group] += 1
    return max(sizes.values(), default=0)
