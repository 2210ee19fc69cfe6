"""Offline proof: 20 players over 6 rounds at tables of 4 need at least 6 repeats.

Not part of the engine (seating/engine/ never imports it) and pure Python: no solver.
Run

    python -m benchmarks.proof_20x6_anchored --max-repeats 5

and every pattern of shared pairs a schedule of <= 5 repeats could have is answered
INFEASIBLE, or FEASIBLE with a schedule (recounted). The engine seats 20 x 6 with 6, so
6 is the minimum. ``proof_20x6_split`` asks the same question of CP-SAT, case by case;
it settled every case of <= 2 repeats and 30 of the 51 of <= 3, and its answers agree
with this search wherever both have one (tests/seating/engine/
test_seating_proof_20x6_anchored.py).

Counting as in ``proof_20x6``: a pair meeting c times costs c - 1.

1. *The pattern.* W(i, j) is the number of pairs rounds i and j share. A schedule of
   <= K repeats has, after relabelling its rounds, one of ``proof_20x6_split.
   share_patterns(K)``: W is a sum of cliques of rounds, one per repeated pair, of cost
   Σ (|C| - 1) <= K. Here W is pinned exactly: no six rounds sharing exactly W(i, j)
   pairs for every i, j, whatever their repeats, is what each answer says.
2. *Two anchors.* Pick rounds a, b with W(a, b) = 0 (``anchors``: every pattern of
   <= 5 repeats but one has such a pair whose other rounds each share at most 2 pairs with
   one anchor and at most 1 with the other, or 1 with both; the one, a pair in all six
   rounds, is ``_pair_in_every_round``'s). Orthogonal rounds are one
   configuration up to relabelling players (``proof_20x6`` rule 3), so round a is
   ``first_round`` and round b ``second_round``: player 4g + k sits at round a's table g
   and at the k-th smallest of round b's tables other than g.
3. *Classes.* Every other round x shares exactly (W(a, x), W(b, x)) pairs with the
   anchors. ``round_class`` lists all such rounds (each partition once: tables by
   smallest player). (0, 0): 9,408 rounds; (0, 1) and (1, 0): 82,080; (1, 1): 726,000;
   (2, 0) and (0, 2): 318,720. The (1, 0) and (0, 2) lists are the (0, 1) and (2, 0)
   ones under ``TRANSPOSE``, the relabelling that swaps the two anchors.
4. *One round up to symmetry.* The relabellings of players that keep both anchors (as
   partitions) are the 120 that permute groups and round b's tables alike (``anchor_group``;
   group g misses table g, so the two permutations must agree). They keep every class, so
   the first round searched (the non-anchor with the smallest class) is taken as the
   smallest form of its orbit (``orbit_representatives``) and the others range over
   their whole classes.
5. *Search.* Depth first, each remaining round's candidates filtered to those sharing
   exactly the pinned number of pairs with every round chosen so far; the round with the
   fewest candidates left goes next, and an empty list backtracks. Nothing else is
   pruned, so "no schedule found" is a proof for that pattern.

Checks with known answers (the tests): the empty pattern (the 5-4-6 golfer design) is
infeasible, as ``proof_20x6.KNOWN`` says; the patterns of the engine's 6-repeat
schedules are realized; orbit sizes divide 120 and add up to the class.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator
from functools import cache
from itertools import combinations, permutations

from benchmarks.proof_20x6 import first_round, repeats_of, second_round
from benchmarks.proof_20x6_split import (
    ROUND_PAIRS,
    ROUNDS,
    Pattern,
    Schedule,
    incidence_classes,
    second_round_from,
    share_patterns,
)

PLAYERS, SIZE = 20, 4
Partition = tuple[tuple[int, ...], ...]
PAIR_BIT = {pair: 1 << k for k, pair in enumerate(combinations(range(PLAYERS), 2))}
ANCHOR_A: Partition = tuple(tuple(t) for t in first_round(PLAYERS))
ANCHOR_B: Partition = tuple(tuple(sorted(t)) for t in second_round(PLAYERS))


@cache
def table_mask(table: tuple[int, ...]) -> int:
    """The table's pairs as bits (cached: the enumeration asks for the same tables again
    and again)."""
    mask = 0
    for pair in combinations(sorted(table), 2):
        mask |= PAIR_BIT[pair]
    return mask


def round_mask(partition) -> int:
    """The round's 30 pairs as bits of one int: two rounds share popcount(a & b) pairs."""
    mask = 0
    for table in partition:
        mask |= table_mask(tuple(table))
    return mask


def _cells() -> tuple[dict[int, tuple[int, int]], dict[tuple[int, int], int]]:
    """Each player as (round a's table, the group missing from its round b table), and back:
    the cells (g, h) with g != h of a 5 x 5 grid."""
    groups = range(ROUNDS - 1)
    missing = {
        p: next(g for g in groups if all(q // SIZE != g for q in table))
        for table in ANCHOR_B
        for p in table
    }
    cell = {p: (p // SIZE, missing[p]) for p in range(PLAYERS)}
    return cell, {v: k for k, v in cell.items()}


def _relabel(partition, label) -> Partition:
    return tuple(sorted(tuple(sorted(label[p] for p in table)) for table in partition))


def anchor_group() -> list[tuple[int, ...]]:
    """Every relabelling of players that maps each anchor onto itself (as a partition)."""
    cell, player = _cells()
    group = []
    for groups in permutations(range(ROUNDS - 1)):
        for tables in permutations(range(ROUNDS - 1)):
            images = [(groups[g], tables[t]) for g, t in (cell[p] for p in range(PLAYERS))]
            if all(image in player for image in images):
                group.append(tuple(player[image] for image in images))
    return group


def anchored_form(schedule: Schedule, a: int, b: int) -> list[Partition]:
    """The schedule relabelled so that its orthogonal rounds a and b are the anchors (step 2)."""
    _, player = _cells()
    group = {p: g for g, table in enumerate(schedule[a]) for p in table}
    label = {}
    for table in schedule[b]:
        missing = next(g for g in range(ROUNDS - 1) if all(group[p] != g for p in table))
        label.update({p: player[group[p], missing] for p in table})
    return [_relabel(partition, label) for partition in schedule]


def _transpose() -> tuple[int, ...]:
    cell, player = _cells()
    return tuple(player[t, g] for g, t in (cell[p] for p in range(PLAYERS)))


TRANSPOSE = _transpose()


def _enumerate(
    anchor_a: Partition,
    anchor_b: Partition,
    budget_a: int,
    budget_b: int,
    together: tuple[int, int] | None = None,
) -> Iterator[Partition]:
    mask_a, mask_b = round_mask(anchor_a), round_mask(anchor_b)
    # Every table a player can head (its lowest player), within the budgets, in the order
    # of combinations(): the players left are a bitset, and a table fits if all its players
    # are left. The same rounds in the same order as choosing from the players left each
    # time, without building a table's pairs again at every step.
    headed: list[list[tuple[int, tuple[int, ...], int, int]]] = []
    for first in range(PLAYERS):
        options = []
        for others in combinations(range(first + 1, PLAYERS), SIZE - 1):
            table = (first, *others)
            if together and (together[0] in table) != (together[1] in table):
                continue
            mask = table_mask(table)
            cost_a, cost_b = (mask & mask_a).bit_count(), (mask & mask_b).bit_count()
            if cost_a <= budget_a and cost_b <= budget_b:
                options.append((sum(1 << p for p in table), table, cost_a, cost_b))
        headed.append(options)

    # The last table is the four players left: looked up, not searched for.
    by_players = {bits: (table, a, b) for options in headed for bits, table, a, b in options}
    found: list[Partition] = []

    def extend(left: int, tables: list, used_a: int, used_b: int) -> None:
        if left.bit_count() == SIZE:
            last = by_players.get(left)
            if last and (used_a + last[1], used_b + last[2]) == (budget_a, budget_b):
                found.append((*tables, last[0]))
            return
        first = (left & -left).bit_length() - 1
        for bits, table, cost_a, cost_b in headed[first]:
            if bits & left == bits and used_a + cost_a <= budget_a and used_b + cost_b <= budget_b:
                extend(left ^ bits, [*tables, table], used_a + cost_a, used_b + cost_b)

    extend((1 << PLAYERS) - 1, [], 0, 0)
    return iter(found)


@cache
def round_class(budget_a: int, budget_b: int) -> tuple[Partition, ...]:
    """Every round sharing exactly these many pairs with round a and with round b."""
    if budget_a > budget_b:  # the mirror image, one transposition away
        return tuple(_relabel(p, TRANSPOSE) for p in round_class(budget_b, budget_a))
    return tuple(_enumerate(ANCHOR_A, ANCHOR_B, budget_a, budget_b))


@cache
def class_masks(budget_a: int, budget_b: int) -> tuple[int, ...]:
    """``round_class`` as pair masks, in the same order."""
    return tuple(round_mask(p) for p in round_class(budget_a, budget_b))


@cache
def orbit_representatives(budget_a: int, budget_b: int) -> tuple[int, ...]:
    """Indexes into ``round_class`` of one round per orbit of ``anchor_group``."""
    rounds = round_class(budget_a, budget_b)
    index = {partition: k for k, partition in enumerate(rounds)}
    group = anchor_group()
    seen: set[int] = set()
    representatives = []
    for k, partition in enumerate(rounds):
        if k not in seen:
            representatives.append(k)
            seen.update(index[_relabel(partition, g)] for g in group)
    return tuple(representatives)


# How big each class is, to choose anchors whose other rounds have the smallest classes.
CLASS_WEIGHT = {(0, 0): 1, (0, 1): 9, (1, 0): 9, (1, 1): 77, (2, 0): 34, (0, 2): 34}


def _shares(pattern: Pattern, i: int, j: int) -> int:
    return pattern.get((min(i, j), max(i, j)), 0)


def anchors(pattern: Pattern) -> tuple[int, int]:
    """Two rounds sharing no pair whose other rounds fall in the smallest classes."""
    options = []
    for a, b in combinations(range(ROUNDS), 2):
        if _shares(pattern, a, b):
            continue
        classes = [(_shares(pattern, a, x), _shares(pattern, b, x)) for x in range(ROUNDS)]
        classes = [c for x, c in enumerate(classes) if x not in (a, b)]
        if all(c in CLASS_WEIGHT for c in classes):
            options.append((sum(CLASS_WEIGHT[c] for c in classes), a, b))
    if not options:
        raise ValueError(f"no two anchors for {pattern}: a class this module does not list")
    _, a, b = min(options)
    return a, b


def repeats_of_masks(masks: Iterable[int]) -> int:
    """Repeats of rounds given as pair masks: their 30 meetings each less the pairs met."""
    masks = list(masks)
    union = 0
    for mask in masks:
        union |= mask
    return 30 * len(masks) - union.bit_count()


def _search(
    pattern: Pattern,
    candidates: dict[int, list[int]],
    first: int,
    starts: tuple[int, ...],
    fixed: list[int],
    max_repeats: int | None,
    stats: dict | None,
) -> dict[int, int] | None:
    """Step 5 over the rounds in ``candidates`` (pair masks), round ``first`` started
    only from its ``starts``. Rounds that realize the pattern with more than
    ``max_repeats`` repeats (it has a cheaper decomposition than theirs) are passed over."""
    nodes = 0

    def narrowed(remaining: dict, x: int, mask: int) -> dict | None:
        kept = {}
        for y, options in remaining.items():
            if y != x:
                wanted = _shares(pattern, x, y)
                kept[y] = [m for m in options if (m & mask).bit_count() == wanted]
                if not kept[y]:
                    return None
        return kept

    def search(chosen: dict[int, int], remaining: dict) -> dict[int, int] | None:
        nonlocal nodes
        nodes += 1
        if not remaining:
            cost = repeats_of_masks([*fixed, *chosen.values()])
            return chosen if max_repeats is None or cost <= max_repeats else None
        x = min(remaining, key=lambda r: (len(remaining[r]), r))
        for mask in remaining[x]:
            kept = narrowed(remaining, x, mask)
            if kept is not None and (found := search({**chosen, x: mask}, kept)):
                return found
        return None

    found = None
    for k in starts:
        mask = candidates[first][k]
        kept = narrowed(candidates, first, mask)
        if kept is not None and (found := search({first: mask}, kept)):
            break
    if stats is not None:
        stats["nodes"] = nodes
    return found


def _partition_of(mask: int) -> list[list[int]]:
    """The round back from its pairs: each player's table is the player and its partners."""
    table = {p: {p} for p in range(PLAYERS)}
    for (p, q), bit in PAIR_BIT.items():
        if mask & bit:
            table[p].add(q)
            table[q].add(p)
    return [list(t) for t in sorted({tuple(sorted(t)) for t in table.values()})]


def realize(
    pattern: Pattern, max_repeats: int | None = None, stats: dict | None = None
) -> Schedule | None:
    """Six rounds sharing exactly ``pattern``'s pairs (with at most ``max_repeats``
    repeats), or None when there are none."""
    if len(pattern) == len(ROUND_PAIRS) and set(pattern.values()) == {1}:
        return _pair_in_every_round(max_repeats, stats)
    a, b = anchors(pattern)
    others = [x for x in range(ROUNDS) if x not in (a, b)]
    klass = {x: (_shares(pattern, a, x), _shares(pattern, b, x)) for x in others}
    first = min(others, key=lambda x: (len(round_class(*klass[x])), x))
    candidates = {x: list(class_masks(*klass[x])) for x in others}
    fixed = [round_mask(ANCHOR_A), round_mask(ANCHOR_B)]
    starts = orbit_representatives(*klass[first])
    found = _search(pattern, candidates, first, starts, fixed, max_repeats, stats)
    if stats is not None:
        stats.update(anchors=(a, b))
    if not found:
        return None
    schedule: Schedule = [[] for _ in range(ROUNDS)]
    schedule[a], schedule[b] = [list(t) for t in ANCHOR_A], [list(t) for t in ANCHOR_B]
    for x, mask in found.items():
        schedule[x] = _partition_of(mask)
    return schedule


def _pair_in_every_round(max_repeats: int | None, stats: dict | None) -> Schedule | None:
    """Every two rounds share one pair: no orthogonal anchors. Of cost <= 5 this pattern is
    one pair meeting in all six rounds (any other sum of cliques giving it costs more), so
    with that budget the rounds are anchored on rounds 0 and 1 sharing that pair (one
    incidence class, ``proof_20x6_split.incidence_classes(1)``), and every other round
    seats the pair together and shares nothing else with them."""
    if max_repeats is None or max_repeats > 5:
        raise ValueError("only the one-pair-in-all-rounds decomposition (<= 5 repeats) is done")
    (matrix,) = incidence_classes(1)
    first, second = ANCHOR_A, tuple(tuple(t) for t in second_round_from(matrix))
    (pair,) = {pair for table in first for pair in combinations(table, 2)} & {
        pair for table in second for pair in combinations(sorted(table), 2)
    }
    together = [round_mask(p) for p in _enumerate(first, second, 1, 1, together=pair)]
    pattern = dict.fromkeys(ROUND_PAIRS, 1)
    candidates = {x: together for x in range(2, ROUNDS)}
    fixed = [round_mask(first), round_mask(second)]
    starts = tuple(range(len(together)))
    found = _search(pattern, candidates, 2, starts, fixed, max_repeats, stats)
    if stats is not None:
        stats.update(anchors=(0, 1))
    if not found:
        return None
    return [[list(t) for t in first], [list(t) for t in second]] + [
        _partition_of(found[x]) for x in range(2, ROUNDS)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-repeats", type=int, default=5)
    args = parser.parse_args(argv)
    patterns = [{}, *share_patterns(args.max_repeats)]  # {}: no shared pair (5-4-6)
    print(f"<= {args.max_repeats} repeats: {len(patterns)} patterns", flush=True)
    start, realized = time.perf_counter(), 0
    for n, pattern in enumerate(patterns):
        stats: dict = {}
        began = time.perf_counter()
        schedule = realize(pattern, args.max_repeats, stats)
        shares = " ".join(f"{i}{j}:{v}" for (i, j), v in sorted(pattern.items()) if v)
        answer = f"FEASIBLE, {repeats_of(schedule)} repeats" if schedule else "INFEASIBLE"
        print(
            f"pattern {n}: shares {shares}: {answer} (anchors {stats['anchors']}, "
            f"{stats['nodes']} nodes, {time.perf_counter() - began:.1f} s)",
            flush=True,
        )
        if schedule:
            realized += 1
            print("schedule", schedule, flush=True)
    seconds = time.perf_counter() - start
    verdict = "all infeasible" if not realized else f"{realized} realized"
    print(f"{verdict} ({seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
