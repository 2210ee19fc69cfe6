"""``seat(problem)``: construct, honour pins, search, report.

The pipeline, and why each step is there:

1. ``table_pattern`` fixes one list of table sizes used by every round (fewest 5-tables);
   all later moves are swaps, which never change sizes.
2. A construction (``construct.transversal``) gives zero-repeat rounds by algebra, with
   families packed into grid rows so they never meet. The grid has 4 rows and one column
   more than there are tables when the pattern has 5-tables; ``construct.complete_rounds``
   dissolves the spare group each round and seats its players as 5th players (a small
   branch and bound: no meeting anyone twice over all rounds, then fewest 5-table seats
   for whoever already had one). Where the grid runs out of rounds, or must dissolve
   a column of a uniform pattern, the cyclic construction (``cyclic.py``: a search for
   schedules invariant under a permutation of order k; ``golf.py`` first, for 8-4-10 and
   for 4R + 1 players with one 5-table) supplies as many repeat-free rounds as the
   counting bound allows, households renamed onto never-met positions.
   Rounds no construction supplies are greedy, then polished by swaps against the
   rounds before them (``construct.polish_round``).
3. Each round's groups are matched to table slots so pinned players are already where the
   judge put them as often as possible; any left are swapped in, and then locked.
4. ``TabuSearch`` repairs what remains (families split across rows, history, pins, rounds
   beyond the algebra) and stops as soon as meetings reach the lower bound. If 5-table
   seats are then less fair than the ideal, a second phase hands seats from the most to
   the least exposed and repairs meetings with swaps that keep exposure in the new range,
   one step at a time; a fairer seating is kept only if meetings are no worse. Where
   zero repeats force 5-tables of different rounds to share players (21–31 players),
   the construction fixes who, so an unfair start is reshuffled instead (seeded tries);
   for 17–19 players over 3 rounds the fewest repeats fix the 5-table seats outright
   (``bounds.pigeonhole_tight_spread``), and that spread is the target and the ideal.
5. The report is recomputed from the final tables, not taken from the search's counters.

``seat`` takes two optional hooks for long searches run in the background: ``progress``
(best repeats and family conflicts so far, the bound, seconds elapsed) and ``should_stop``
(polled every few hundred swaps; True ends the search with the best seating so far).
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from seating.engine.bounds import (
    big_table_overlap,
    fairness_floor,
    pigeonhole_bound,
    pigeonhole_cost_floor,
    pigeonhole_tight_spread,
    proven_minimum,
    repeat_lower_bound,
)
from seating.engine.construct import complete_rounds, greedy_round, polish_round, transversal
from seating.engine.cyclic import cyclic_rounds, embed_households
from seating.engine.golf import golf_rounds
from seating.engine.inputs import (
    components,
    forbidden_pairs,
    history_counts,
    largest_family,
    pins_by_round,
    validate,
)
from seating.engine.model import SearchProgress, Seating, SeatingProblem
from seating.engine.recount import build_report, exposure_counts, meeting_counts, pair_counts
from seating.engine.search import SearchResult, TabuSearch, Weights
from seating.engine.sizes import STANDARD_SIZE, TablePattern, table_pattern

Rounds = list[list[list[int]]]


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
    deadline: float,
    max_iterations: int | None,
    watch: _Watch,
) -> tuple[Rounds, int]:
    shuffled = list(components)
    rng.shuffle(shuffled)
    grid, constructed = transversal(n, sizes, rounds, shuffled, rng)
    # Grid rounds with a column to dissolve are not repeat-free (the movers meet people
    # again), so there the cyclic search competes for every round, not just the missing.
    whole = constructed if not grid or len(grid[0]) == len(sizes) else 0
    if whole < rounds and not history:
        budget = (deadline, _CYCLIC_ITERATIONS if max_iterations is None else max_iterations)
        cyclic = _cyclic_start(n, sizes, rounds, whole, components, rng, budget, watch)
        if cyclic is not None:
            grid, constructed = cyclic, len(cyclic)
    # One flat pair-cost table for everything built here: history meetings, forbidden
    # pairs (heavily), and then every meeting of the rounds as they are completed.
    meet: dict[int, int] = defaultdict(int)
    for key, count in history.items():
        a, b = divmod(key, n)
        meet[a * n + b] += count
        meet[b * n + a] += count
    for key in forbidden:
        a, b = divmod(key, n)
        meet[a * n + b] += 100
        meet[b * n + a] += 100
    built = complete_rounds(grid, n, sizes, meet, rng)
    while len(built) < rounds:
        # Greedy rounds see everything fixed so far as a cost: meetings and forbidden pairs.
        groups = greedy_round(n, sizes, meet, rng)
        polish_round(groups, n, meet, rng)
        for table in groups:
            for a in table:
                for b in table:
                    if a != b:
                        meet[a * n + b] += 1
        built.append(_fit(groups, sizes))
    return built, constructed


def _cyclic_start(
    n: int,
    sizes: Sequence[int],
    rounds: int,
    constructed: int,
    components: list[list[int]],
    rng: random.Random,
    budget: tuple[float, int],
    watch: _Watch,
) -> Rounds | None:
    """More zero-repeat rounds than the grid gave, from the σ-invariant search
    (``cyclic.py``): as many rounds as the counting bound allows without repeats, when
    that is more than the grid's. Households are then renamed onto never-met positions."""
    target = rounds
    while target > constructed and repeat_lower_bound(n, target, sizes):
        target -= 1
    if target <= max(constructed, 1):
        return None
    deadline, steps = budget
    now = time.perf_counter()
    # 32 × 10 first (golf.py; about a second): the cyclic search does not find 8-4-10.
    stop, share = watch.should_stop, now + _CYCLIC_SHARE * (deadline - now)
    found = golf_rounds(n, sizes, target, rng, now + (deadline - now) / 2, stop)
    if found is None:
        steps = min(steps, _CYCLIC_ITERATIONS)
        found = cyclic_rounds(n, sizes, target, rng, steps, share, stop)
    if found is None:
        return None
    return embed_households(found, n, [c for c in components if len(c) > 1], rng)


_CYCLIC_ITERATIONS = 2_000  # base-round swaps; the designs it finds take a few hundred
_CYCLIC_SHARE = 0.2  # of the time left: the rest is for the search


_CONSTRUCTION_TRIES = 8  # shuffles of the construction where it decides fairness
_PHASE_TWO_STALL = 1_500  # per fairness attempt: a fair seating is found fast or not at all


def _fairness_target(
    rounds: int,
    n: int,
    sizes: Sequence[int],
    big: Sequence[bool],
    pins: list[dict[int, int]],
    overlap: int,
) -> tuple[int, int]:
    """(ideal spread, least Σ e²) of 5-table exposure, pins included: a player pinned to
    a 5-table (or to a 4-table) in some rounds has that much exposure fixed."""
    low, high = [0] * n, [rounds] * n
    for round_pins in pins:
        for player, table in round_pins.items():
            if big[table]:
                low[player] += 1
            else:
                high[player] -= 1
    seats = sum(size for size, flag in zip(sizes, big, strict=True) if flag)
    return fairness_floor(n, seats, rounds, low, high, overlap)


@dataclass(frozen=True)
class _Plan:
    """Everything ``seat`` fixes before searching: indices, costs, bounds and targets."""

    problem: SeatingProblem
    n: int
    pattern: TablePattern
    forbidden: set[int]
    history: dict[int, int]
    pins: list[dict[int, int]]
    bound: int
    weights: Weights
    pair_floor: int
    big: list[bool]
    plain: tuple[int, int]  # (spread, Σ e²) floor from seats and pins alone
    zero: tuple[int, int]  # the same when zero repeats force 5-table overlaps
    overlap: int
    target_spread: int
    tight: int | None
    floor: int
    deadline: float

    @property
    def sizes(self) -> tuple[int, ...]:
        return self.pattern.sizes


def _bound(
    n: int,
    rounds: int,
    sizes: Sequence[int],
    history: dict[int, int],
    forbidden: set[int],
    *,
    with_apart: bool,
) -> int:
    """``repeat_lower_bound`` for this roster; ``with_apart`` counts households and
    keep-apart pairs, which holds only for a seating without family conflicts."""
    partners: list[set[int]] = [set() for _ in range(n)]
    keys = list(history) + (sorted(forbidden) if with_apart else [])
    for key in keys:
        a, b = divmod(key, n)
        partners[a].add(b)
        partners[b].add(a)
    groups = components(n, forbidden) if with_apart else []
    # A component is a household only if all its pairs are barred (keep-apart chains
    # are not cliques).
    households = [
        g
        for g in groups
        if len(g) > 1
        and all(min(a, b) * n + max(a, b) in forbidden for i, a in enumerate(g) for b in g[i + 1 :])
    ]
    bound = repeat_lower_bound(n, rounds, sizes, [len(s) for s in partners], households)
    return bound if history else max(bound, proven_minimum(n, rounds, sizes))


def _plan(problem: SeatingProblem, started: float) -> _Plan:
    index = validate(problem)
    n = len(index)
    pattern = table_pattern(n, *problem.table_sizes)
    sizes = pattern.sizes
    forbidden = forbidden_pairs(problem, index)
    history = history_counts(problem, index)
    pins = pins_by_round(problem, index, sizes)
    bound = _bound(n, problem.rounds, sizes, history, forbidden, with_apart=True)
    weights = Weights.for_rounds(problem.rounds)
    pair_floor = max(
        weights.repeat * bound,
        pigeonhole_cost_floor(n, problem.rounds, len(sizes), weights.repeat, weights.triple),
    )
    big = [s > STANDARD_SIZE for s in sizes]
    # Fairness targets: plain (seats and pins only), and — when the bound allows zero
    # repeats — the tighter one a zero-repeat seating can reach (bounds.big_table_overlap).
    plain = _fairness_target(problem.rounds, n, sizes, big, pins, 0)
    overlap = big_table_overlap(problem.rounds, sizes, STANDARD_SIZE)
    zero = _fairness_target(problem.rounds, n, sizes, big, pins, overlap)
    target_spread, target_squares = zero if bound == 0 else plain
    # 17–19 players over 3 rounds: the fewest repeats fix who sits at the 5-tables
    # (bounds.pigeonhole_tight_spread), so aiming fairer only burns the time budget.
    tight = pigeonhole_tight_spread(n, problem.rounds, sizes, largest_family(problem))
    if tight is not None:
        target_spread = max(target_spread, tight)
    return _Plan(
        problem=problem,
        n=n,
        pattern=pattern,
        forbidden=forbidden,
        history=history,
        pins=pins,
        bound=bound,
        weights=weights,
        pair_floor=pair_floor,
        big=big,
        plain=plain,
        zero=zero,
        overlap=overlap,
        target_spread=target_spread,
        tight=tight,
        floor=pair_floor + weights.fair * target_squares,
        deadline=started + problem.time_limit,
    )


class _Watch:
    """``seat``'s progress and stop hooks, as the search's ``Watch``.

    Progress is counted from the best seating's tables (linear in the roster), at most
    every ``_PROGRESS_EVERY`` seconds, so a fast-improving search does not spend its time
    reporting; a quiet one still reports that often, so the elapsed time moves on.
    """

    def __init__(
        self,
        plan: _Plan,
        started: float,
        progress: Callable[[SearchProgress], None] | None,
        should_stop: Callable[[], bool] | None,
    ) -> None:
        self.plan = plan
        self.started = started
        self.progress = progress
        self.stop = should_stop
        self.stopped = False
        self.best: Rounds | None = None
        self.shown: tuple[int, int] | None = None  # (conflicts, repeats) last reported
        self.sent = started

    def improved(self, rounds: Rounds) -> None:
        self.best = rounds
        if time.perf_counter() - self.sent >= _PROGRESS_EVERY:
            self.report()

    def should_stop(self) -> bool:
        if time.perf_counter() - self.sent >= _PROGRESS_EVERY:
            self.report()
        # Once told to stop, every later phase stops at once without asking again.
        self.stopped = self.stopped or (self.stop is not None and bool(self.stop()))
        return self.stopped

    def report(self, rounds: Rounds | None = None) -> None:
        self.best = rounds if rounds is not None else self.best
        self.sent = time.perf_counter()
        if self.progress is None or self.best is None:
            return
        plan = self.plan
        repeats, conflicts = meeting_counts(self.best, plan.n, plan.history, plan.forbidden)
        # A later phase restarts from a reshuffled seating; the caller hears of the best.
        if self.shown is not None and self.shown < (conflicts, repeats):
            conflicts, repeats = self.shown
        self.shown = (conflicts, repeats)
        self.progress(
            SearchProgress(
                repeat_meetings=repeats,
                family_conflicts=conflicts,
                bound=plan.bound,
                elapsed=self.sent - self.started,
            )
        )


_PROGRESS_EVERY = 0.5  # seconds between progress reports


def _searcher(
    plan: _Plan, rng: random.Random, start: Rounds, window: tuple[int, int] | None = None
) -> TabuSearch:
    return TabuSearch(
        plan.n,
        start,
        [plan.big] * plan.problem.rounds,
        plan.history,
        plan.forbidden,
        [set(p) for p in plan.pins],
        plan.weights,
        rng,
        breadth=_NARROW if plan.problem.rounds <= 3 else _WIDE,
        window=window,
    )


# Conflicted players examined per swap. Long events need the wide step to get
# off plateaus (25 × 6 under the 4–5 rule: 4–5 repeats with 6, 2–3 with 20); three-round
# events reach their bound in a few hundred swaps, where the narrow step is 2–5× faster.
_NARROW, _WIDE = 6, 20


def _iterations_left(problem: SeatingProblem, used: int) -> int | None:
    return None if problem.max_iterations is None else problem.max_iterations - used


def _spread(rounds: Rounds, plan: _Plan) -> tuple[list[int], int]:
    exposure = exposure_counts(rounds, plan.big, plan.n)
    return exposure, max(exposure) - min(exposure)


def _meetings_phase(
    plan: _Plan, rng: random.Random, watch: _Watch
) -> tuple[SearchResult, int, int]:
    """Phase 1: meetings first (it stops once they reach their floor, however unfair).

    With zero repeats and few 4-tables, 5-tables of different rounds must share players
    (bounds.big_table_overlap): which ones is fixed by the construction, and phase 2 can
    rarely change it without a repeat. So there, when phase 1 reaches the floor on
    meetings but is less fair than the target (23 players: about one shuffle in three),
    the construction is reshuffled and phase 1 rerun, a few times; another shuffle is
    usually fair at once, and each try costs milliseconds at these sizes (at most 31
    players under 4–5). Extra tries draw from their own seeded streams, so the result
    stays a function of the seed. Returns (result, constructed rounds, iterations).
    """
    problem, n, sizes = plan.problem, plan.n, plan.sizes
    linked = components(n, plan.forbidden)
    tries = _CONSTRUCTION_TRIES if plan.bound == 0 and plan.overlap > 0 else 1
    result: SearchResult | None = None
    best_key: tuple[int, int] = (0, 0)
    constructed = iterations = 0
    for attempt in range(tries):
        stream = rng if attempt == 0 else random.Random(f"{problem.seed}/{attempt}")
        built, made = _initial(
            n,
            sizes,
            problem.rounds,
            linked,
            plan.history,
            plan.forbidden,
            stream,
            plan.deadline,
            problem.max_iterations,
            watch,
        )
        start = [_place(groups, sizes, plan.pins[r]) for r, groups in enumerate(built)]
        limit = _iterations_left(problem, iterations)
        if limit is not None and limit <= 0 and attempt:
            break
        if attempt == 0:
            watch.report(start)
        found = _searcher(plan, rng, start).run(
            floor=plan.floor,
            deadline=plan.deadline,
            max_iterations=limit,
            stall_iterations=problem.stall_iterations,
            pair_floor=plan.pair_floor if any(plan.big) else None,
            watch=watch,
        )
        iterations += found.iterations
        exposure, spread = _spread(found.rounds, plan)
        key = (found.cost - plan.weights.fair * sum(e * e for e in exposure), spread)
        if result is None or key < best_key:
            result, best_key, constructed = found, key, made
        if found.stopped_by != "bound" or spread <= plan.target_spread:
            break
    assert result is not None
    return result, constructed, iterations


def _fairness_phase(
    plan: _Plan, rng: random.Random, result: SearchResult, iterations: int, watch: _Watch
) -> tuple[SearchResult, int]:
    """Phase 2, only if 5-table seats are less fair than they could be.

    Aim one step fairer than what we have, hand seats from the most to the least exposed,
    then repair the meetings with swaps (and exchanges) that keep every exposure inside
    the new range. A fairer seating is kept only if its true cost (meetings first) is no
    worse; then the next step is tried, and the first failure ends the phase.
    """
    problem = plan.problem
    budget = problem.stall_iterations
    budget = _PHASE_TWO_STALL if budget is None else min(budget, _PHASE_TWO_STALL)
    while result.stopped_by not in ("time", "stopped"):
        _, spread = _spread(result.rounds, plan)
        if spread <= plan.target_spread:
            break
        second = _searcher(plan, rng, [[list(t) for t in ts] for ts in result.rounds])
        second.repair_fairness(spread - 1)
        exposure = second.exposure
        if max(exposure) - min(exposure) >= spread:
            break
        second.window = (min(exposure), max(exposure))
        limit = _iterations_left(problem, iterations)
        if limit is not None and limit <= 0:
            break
        fair_result = second.run(
            floor=plan.floor,
            deadline=plan.deadline,
            max_iterations=limit,
            stall_iterations=budget,
            watch=watch,
        )
        iterations += fair_result.iterations
        _, fair_spread = _spread(fair_result.rounds, plan)
        if (fair_result.cost, fair_spread) < (result.cost, spread):
            result = fair_result
        else:
            if fair_result.stopped_by in ("time", "stopped"):
                result = replace(result, stopped_by=fair_result.stopped_by)
            break
    return result, iterations


def _ideal_spread(plan: _Plan, rounds: Rounds) -> int:
    """The report's ideal 5-table spread for the seating found: the zero-repeat floor only
    if it has zero repeats, and the pigeonhole one if it has the fewest forced repeats."""
    counts = pair_counts(rounds, plan.n)
    history = plan.history
    repeats_left = any(count > (1 if key not in history else 0) for key, count in counts.items())
    ideal = plan.plain[0] if repeats_left or plan.bound else plan.zero[0]
    own_repeats = sum(count - 1 for count in counts.values())
    rounds_count, tables = plan.problem.rounds, len(plan.sizes)
    if plan.tight is not None and own_repeats == pigeonhole_bound(plan.n, rounds_count, tables):
        ideal = max(ideal, plan.tight)
    return ideal


def seat(
    problem: SeatingProblem,
    *,
    progress: Callable[[SearchProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Seating:
    """Seat every round of ``problem``; see the module docstring for the pipeline.

    ``progress`` is called now and then with the best seating's counts (``SearchProgress``)
    and ``should_stop`` is polled every few hundred swaps: when it returns True the search
    ends at once and the best seating so far is returned (``stopped_by == "stopped"``).
    Both are plain callables, so a background job can pass its own.
    """
    started = time.perf_counter()
    plan = _plan(problem, started)
    rng = random.Random(problem.seed)
    watch = _Watch(plan, started, progress, should_stop)
    result, constructed, iterations = _meetings_phase(plan, rng, watch)
    result, iterations = _fairness_phase(plan, rng, result, iterations, watch)
    watch.report(result.rounds)
    # The household-aware bound holds only for seatings without a family conflict.
    _, conflicts = meeting_counts(result.rounds, plan.n, plan.history, plan.forbidden)
    bound = plan.bound
    if conflicts:
        bound = _bound(
            plan.n, problem.rounds, plan.sizes, plan.history, plan.forbidden, with_apart=False
        )
    report = build_report(
        problem,
        plan.pattern,
        result.rounds,
        plan.history,
        plan.forbidden,
        bound,
        _ideal_spread(plan, result.rounds),
        constructed,
    )
    report = replace(
        report,
        stopped_by=result.stopped_by,
        iterations=iterations,
        seconds=time.perf_counter() - started,
    )
    ids = problem.players
    return Seating(
        rounds=tuple(
            tuple(tuple(ids[p] for p in table) for table in tables) for tables in result.rounds
        ),
        report=report,
    )
