"""Seating that keeps groups apart: same-language tables (Championship Rules: "same-language
games").

The engine itself knows nothing of languages: the caller hands in ``groups`` (each player's
group: their game language, as data), and this module seats each group at tables of its
own with the ordinary engine, then numbers every group's tables together, round by round.
A group too small to fill its tables under the size rule (fewer players than the smallest
table, or a count that would need a table below it) joins the largest group, so nobody is
left without a game; the report says which groups were joined.

Pure Python, like the rest of the package.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, replace

from seating.engine.engine import seat
from seating.engine.model import PlayerId, Seating, SeatingProblem, SeatingReport
from seating.engine.sizes import table_pattern


@dataclass(frozen=True)
class GroupedSeating:
    """The seating, and the group of each table (the same tables every round)."""

    seating: Seating
    table_groups: tuple[Hashable, ...]
    # Groups too small for tables of their own, and the group they were seated with.
    joined: tuple[tuple[Hashable, Hashable], ...] = ()


def _fits(count: int, table_sizes: tuple[int, int]) -> bool:
    return count >= table_sizes[0] and table_pattern(count, *table_sizes).fallback is None


def partition(
    players: tuple[PlayerId, ...],
    groups: Mapping[PlayerId, Hashable],
    table_sizes: tuple[int, int],
) -> tuple[dict[Hashable, list[PlayerId]], list[tuple[Hashable, Hashable]]]:
    """Players by group, largest group first; groups that cannot fill their own tables
    join the largest."""
    parts: dict[Hashable, list[PlayerId]] = {}
    for player in players:
        parts.setdefault(groups.get(player), []).append(player)
    order = sorted(parts, key=lambda key: (-len(parts[key]), str(key)))
    parts = {key: parts[key] for key in order}
    joined: list[tuple[Hashable, Hashable]] = []
    largest = order[0]
    for key in order[1:]:
        if not _fits(len(parts[key]), table_sizes):
            parts[largest].extend(parts.pop(key))
            joined.append((key, largest))
    return parts, joined


def _merged_report(problem: SeatingProblem, reports: list[SeatingReport]) -> SeatingReport:
    first = reports[0]
    unstable = [r.stopped_by for r in reports if r.stopped_by in ("time", "stopped")]
    fallbacks = [r.size_fallback for r in reports if r.size_fallback]
    return replace(
        first,
        players=sum(r.players for r in reports),
        table_sizes=tuple(size for r in reports for size in r.table_sizes),
        size_rule=problem.table_sizes,
        size_fallback="; ".join(fallbacks) or None,
        repeat_meetings=sum(r.repeat_meetings for r in reports),
        repeat_pairs=tuple(pair for r in reports for pair in r.repeat_pairs),
        pairs_met_three_plus=sum(r.pairs_met_three_plus for r in reports),
        family_conflicts=sum(r.family_conflicts for r in reports),
        conflicts=tuple(c for r in reports for c in r.conflicts),
        five_table_exposure=tuple(e for r in reports for e in r.five_table_exposure),
        exposure_spread=max(r.exposure_spread for r in reports),
        exposure_ideal_spread=max(r.exposure_ideal_spread for r in reports),
        repeat_lower_bound=sum(r.repeat_lower_bound for r in reports),
        gap=sum(r.gap for r in reports),
        constructed_rounds=min(r.constructed_rounds for r in reports),
        stopped_by=unstable[0] if unstable else first.stopped_by,
        iterations=sum(r.iterations for r in reports),
        seconds=sum(r.seconds for r in reports),
    )


def seat_by_group(
    problem: SeatingProblem,
    *,
    groups: Mapping[PlayerId, Hashable],
    should_stop: Callable[[], bool] | None = None,
) -> GroupedSeating:
    """Seat ``problem`` with every table drawn from one group of ``groups``.

    Each group is its own ``SeatingProblem`` (its players, their families and keep-apart
    pairs, the whole history), seated by ``seat``; round r's tables are then the first
    group's tables, then the second's, and so on. Pinned seats name tables of the whole
    round, so they cannot be combined with groups.
    """
    if problem.pinned:
        raise ValueError("pinned seats cannot be combined with seating by group")
    parts, joined = partition(problem.players, groups, problem.table_sizes)
    seatings: list[Seating] = []
    table_groups: list[Hashable] = []
    for key, members in parts.items():
        inside = set(members)
        sub = replace(
            problem,
            players=tuple(members),
            families={p: f for p, f in problem.families.items() if p in inside},
            avoid=tuple(pair for pair in problem.avoid if set(pair) <= inside),
        )
        seating = seat(sub, should_stop=should_stop)
        seatings.append(seating)
        table_groups.extend([key] * len(seating.rounds[0]))
    rounds = tuple(
        tuple(table for seating in seatings for table in seating.rounds[r])
        for r in range(problem.rounds)
    )
    report = _merged_report(problem, [s.report for s in seatings])
    return GroupedSeating(
        seating=Seating(rounds=rounds, report=report),
        table_groups=tuple(table_groups),
        joined=tuple(joined),
    )
