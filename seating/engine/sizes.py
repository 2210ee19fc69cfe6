"""Table-size patterns: how N players split into tables under a format's (min, max) rule.

The championship rule is "tables of 4, 5 where N is not divisible by 4"; the club rule adds
tables of 3 "only where nothing else fits". Both are the same preference order, so one
dynamic programme serves every rule:

1. as few seats short of the standard size (4) as possible — a 3-table is a worse game than
   a 5-table, so 3s appear only when no 4/5 pattern exists;
2. then as few oversize tables as possible (weighted by the square of the excess, so two
   5-tables beat one 6-table when a rule allows 6) — this is "fewest tables of 5".

When no pattern fits the rule at all (N=11, 6 or 7 under 4–5; N below the minimum), we do
not refuse: an organizer with 11 players still has to seat them. The minimum is lowered one
seat at a time until a pattern exists (11 under 4–5 becomes 4+4+3; 3 players become one
table of 3), and ``TablePattern.fallback`` says so in words that go into the report.
"""

from __future__ import annotations

from dataclasses import dataclass

STANDARD_SIZE = 4


@dataclass(frozen=True)
class TablePattern:
    """Table sizes of one round, largest first; ``fallback`` explains any rule break."""

    sizes: tuple[int, ...]
    fallback: str | None = None

    @property
    def big_tables(self) -> int:
        """Tables above the standard size (the "5-tables" of the fairness objective)."""
        return sum(1 for size in self.sizes if size > STANDARD_SIZE)


def _best_pattern(n: int, low: int, high: int, target: int) -> tuple[int, ...] | None:
    # Keys are added component-wise and compared lexicographically; that order is
    # compatible with addition, so the DP over "best key for k seats" is exact.
    Key = tuple[int, int, int]
    best: list[Key | None] = [None] * (n + 1)
    choice = [0] * (n + 1)
    best[0] = (0, 0, 0)
    sizes = range(high, low - 1, -1)
    for seats in range(1, n + 1):
        for size in sizes:
            if size > seats or best[seats - size] is None:
                continue
            short, over, tables = best[seats - size]  # type: ignore[misc]
            key = (
                short + max(0, target - size),
                over + max(0, size - target) ** 2,
                tables - 1,  # tie-break: more (smaller) tables
            )
            current = best[seats]
            if current is None or key < current:
                best[seats], choice[seats] = key, size
    if best[n] is None:
        return None
    pattern = []
    seats = n
    while seats:
        pattern.append(choice[seats])
        seats -= choice[seats]
    return tuple(sorted(pattern, reverse=True))


def table_pattern(n: int, min_size: int = 4, max_size: int = 5) -> TablePattern:
    """Split ``n`` players into tables under the rule ``min_size``..``max_size``.

    Raises ``ValueError`` for an empty roster or a nonsensical rule; every other count gets
    a pattern (see the module docstring for the fallback when the rule cannot be met).
    """
    if n < 1:
        raise ValueError("cannot seat an empty roster")
    if min_size < 1 or max_size < min_size:
        raise ValueError(f"bad table-size rule {min_size}..{max_size}")
    target = min(max(STANDARD_SIZE, min_size), max_size)
    for low in range(min_size, 0, -1):
        sizes = _best_pattern(n, low, max_size, target)
        if sizes is None:
            continue
        if low == min_size:
            return TablePattern(sizes)
        short = sum(1 for size in sizes if size < min_size)
        described = "+".join(str(size) for size in sizes)
        reason = (
            f"{n} players cannot be seated at tables of {min_size}–{max_size}; "
            f"fallback {described} has {short} table(s) below {min_size}"
        )
        return TablePattern(sizes, reason)
    # Unreachable: with low == 1 every n has a pattern (n tables of 1 at worst).
    raise AssertionError("no table pattern")
