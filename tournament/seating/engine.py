"""``seat(problem)``: construct, honour pins, search, report.

The pipeline, and why each step is there:

1. ``table_pattern`` fixes one list of table sizes used by every round (fewest 5-tables);
   all later moves are swaps, which never change sizes.
2. A construction (``construct.transversal``) gives zero-repeat rounds by algebra, with
   families packed into grid rows so they never meet; rounds it cannot supply are greedy.
3. Each round's groups are matched to table slots so pinned players are already where the
   judge put them as often as possible; any left are swapped in, and then locked.
4. ``TabuSearch`` repairs what remains (families split across rows, history, pins, rounds
   beyond the algebra) and stops as soon as the cost reaches the lower bound.
5. The report is recomputed from the final tables, not taken from the search's counters.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import replace

from .bounds import repeat_lower_bound
from .construct import greedy_round, transversal
from .model import PlayerId, Seating, SeatingProblem, SeatingReport
from .search import TabuSearch, Weights
from .sizes import STANDARD_SIZE, TablePattern, table_pattern

Rounds = list[list[list[int]]]


def _validate(problem: SeatingProblem) -> dict[PlayerId, int]:
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


def _forbidden_pairs(problem: SeatingProblem, index: dict[PlayerId, int]) -> set[int]:
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


def _components(n: int, forbidden: set[int]) -> list[list[int]]:
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


def _history(problem: SeatingProblem, index: dict[PlayerId, int]) -> dict[int, int]:
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


def _pins(
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


def _fit(groups: list[list[int]], sizes: Sequence[int]) -> list[list[int]]:
    """Make a round's groups match the pattern's sizes by moving a few players (grid holes
    or a hand-built round can leave sizes off by one)."""
    order = sorted(range(len(groups)), key=lambda g: (-len(groups[g]), g))
    fitted = [list(groups[g]) for g in order]
    spare: list[int] = []
    for group, size in zip(fitted, sizes, strict=True):
        while len(group) > size:
            spare.append(group.pop())
    for group, size in zip(fitted, sizes, strict=True):
        while len(group) < size:
            group.append(spare.pop())
    return fitted


def _place(groups: list[list[int]], sizes: Sequence[int], pins: dict[int, int]) -> list[list[int]]:
    """Assign groups (already of pattern sizes) to table slots, pinned players first.

    Greedy: each slot with pins takes the same-size group holding most of its pinned
    players; whoever is still misplaced is swapped with someone not pinned to that slot.
    Each swap seats one pinned player for good and never unseats one, so it terminates.
    """
    slots: list[list[int] | None] = [None] * len(sizes)
    free = list(range(len(groups)))
    wanted: dict[int, list[int]] = defaultdict(list)
    for player, table in sorted(pins.items()):
        wanted[table].append(player)
    for table in sorted(wanted):
        same = [g for g in free if len(groups[g]) == sizes[table]]
        best = max(same, key=lambda g: (sum(p in groups[g] for p in wanted[table]), -g))
        slots[table] = list(groups[best])
        free.remove(best)
    for table, slot in enumerate(slots):
        if slot is None:
            match = next(g for g in free if len(groups[g]) == sizes[table])
            slots[table] = list(groups[match])
            free.remove(match)
    seated: list[list[int]] = [slot for slot in slots if slot is not None]
    where = {p: j for j, table in enumerate(seated) for p in table}
    for player, table in sorted(pins.items()):
        if where[player] == table:
            continue
        target = seated[table]
        # Prefer an unpinned partner; a player pinned elsewhere is also fine to move.
        partner = min(
            (q for q in target if pins.get(q) != table),
            key=lambda q: (q in pins, q),
        )
        source = seated[where[player]]
        source[source.index(player)] = partner
        target[target.index(partner)] = player
        where[partner], where[player] = where[player], table
    return seated


def _initial(
    n: int,
    sizes: Sequence[int],
    rounds: int,
    components: list[list[int]],
    history: dict[int, int],
    forbidden: set[int],
    rng: random.Random,
) -> tuple[Rounds, int]:
    shuffled = list(components)
    rng.shuffle(shuffled)
    built, constructed = transversal(n, sizes, rounds, shuffled, rng)
    built = [_fit(groups, sizes) for groups in built]
    if len(built) < rounds:
        # Greedy rounds see everything fixed so far as a cost: meetings and forbidden pairs.
        meet: dict[int, int] = defaultdict(int)
        for key, count in history.items():
            a, b = divmod(key, n)
            meet[a * n + b] += count
            meet[b * n + a] += count
        for key in forbidden:
            a, b = divmod(key, n)
            meet[a * n + b] += 100
            meet[b * n + a] += 100
        for groups in built:
            for table in groups:
                for a in table:
                    for b in table:
                        if a != b:
                            meet[a * n + b] += 1
        while len(built) < rounds:
            groups = greedy_round(n, sizes, meet, rng)
            for table in groups:
                for a in table:
                    for b in table:
                        if a != b:
                            meet[a * n + b] += 1
            built.append(_fit(groups, sizes))
    return built, constructed


def seat(problem: SeatingProblem) -> Seating:
    """Seat every round of ``problem``; see the module docstring for the pipeline."""
    started = time.perf_counter()
    index = _validate(problem)
    n = len(index)
    pattern = table_pattern(n, *problem.table_sizes)
    sizes = pattern.sizes
    forbidden = _forbidden_pairs(problem, index)
    history = _history(problem, index)
    pins = _pins(problem, index, sizes)
    rng = random.Random(problem.seed)

    built, constructed = _initial(
        n, sizes, problem.rounds, _components(n, forbidden), history, forbidden, rng
    )
    rounds = [_place(groups, sizes, pins[r]) for r, groups in enumerate(built)]

    partners: list[set[int]] = [set() for _ in range(n)]
    for key in history:
        a, b = divmod(key, n)
        partners[a].add(b)
        partners[b].add(a)
    bound = repeat_lower_bound(n, problem.rounds, sizes, [len(s) for s in partners])
    big_seats = problem.rounds * sum(s for s in sizes if s > STANDARD_SIZE)
    share, extra = divmod(big_seats, n)
    weights = Weights.for_rounds(problem.rounds)
    ideal_squares = extra * (share + 1) ** 2 + (n - extra) * share**2
    fair_floor = weights.fair * ideal_squares

    search = TabuSearch(
        n,
        rounds,
        [[s > STANDARD_SIZE for s in sizes]] * problem.rounds,
        history,
        forbidden,
        [set(p) for p in pins],
        weights,
        rng,
    )
    result = search.run(
        floor=weights.repeat * bound + fair_floor,
        deadline=started + problem.time_limit,
        max_iterations=problem.max_iterations,
        stall_iterations=problem.stall_iterations,
    )
    report = _report(
        problem, pattern, result.rounds, history, forbidden, bound, extra > 0, constructed
    )
    report = replace(
        report,
        stopped_by=result.stopped_by,
        iterations=result.iterations,
        seconds=time.perf_counter() - started,
    )
    ids = problem.players
    return Seating(
        rounds=tuple(
            tuple(tuple(ids[p] for p in table) for table in tables) for tables in result.rounds
        ),
        report=report,
    )


def _report(
    problem: SeatingProblem,
    pattern: TablePattern,
    rounds: Rounds,
    history: dict[int, int],
    forbidden: set[int],
    bound: int,
    uneven: bool,
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
        exposure_ideal_spread=1 if uneven else 0,
        repeat_lower_bound=bound,
        gap=repeats - bound,
        constructed_rounds=constructed,
        stopped_by="",
        iterations=0,
        seconds=0.0,
        seed=problem.seed,
    )
