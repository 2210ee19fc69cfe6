"""Offline proof: 20 players, 6 rounds, tables of 4 — at most K repeats?

Not part of the engine (seating/engine/ never imports it); it needs OR-Tools
(``pip install ortools``), which the engine does not. Run

    python benchmarks/proof_20x6.py --players 20 --rounds 6 --max-repeats 3

and it answers FEASIBLE (with a schedule, recounted here) or INFEASIBLE (CP-SAT proved no
schedule exists), or UNKNOWN when the time limit ran out.

Counting. 20 players over 6 rounds of five 4-tables make 6 · 5 · 6 = 180 pair meetings
among 190 pairs, so repeats = Σ max(0, c − 1) = 180 − (met pairs) = (never-met pairs) − 10.
"At most K repeats" is therefore "at most 10 + K never-met pairs", which is what the model
asks: a boolean u[p, q] per pair, a clause "u[p, q] or p and q share a table in some round",
and Σ u ≤ n_pairs − meetings + K. (u is also forced false when the pair meets: that only
removes the solver's freedom to mark a met pair unmet, which never helped.) The same
bound stated per pair propagates better: s[p, q] = c − 1 + u = max(0, c − 1) in 0..K, Σ s ≤ K.

Model. x[p, r, t] = player p at table t in round r; each player one table a round, each
table exactly 4 players. y[p, q, r, t] = x[p, r, t] ∧ x[q, r, t]; m[p, q, r] = Σ_t y (0/1).
Redundant: each player meets exactly 3 others a round.

Symmetry breaking. Each rule keeps at least one schedule from every class of schedules
equivalent under relabelling players, reordering rounds and relabelling tables within a
round — so "infeasible" for the broken model is infeasible for the problem:

1. *Orthogonal rounds come first.* Call two rounds orthogonal when no pair meets in
   both. A pair meeting c times makes its c rounds a clique of the "share a pair" graph
   on rounds, and c − 1 of the ≤ K repeats are its. ``orthogonal_rounds`` tries every way
   of spending K repeats on pairs and their rounds and finds the smallest largest
   independent set: for K = 3, R = 6 it is 3 (worst case one pair in 4 rounds: the other
   2 rounds and one of the 4). So some 3 rounds are pairwise orthogonal; reorder the
   rounds to put them first, and the model requires it (each pair meets at most once in
   them). ``spoiled_round_pairs`` is the quick count behind rule 3's use of two of them:
   at most 6 of the 15 pairs of rounds share a pair.
2. *Round 1 is fixed* as {0-3}, {4-7}, ...: relabel players.
3. *Round 2 is fixed* (``second_round``). With 5 groups of round 1 and 5 tables of round 2
   orthogonal to it, every table holds 4 players from 4 different groups, and every group's
   4 players sit at 4 different tables: the group × table incidence matrix has row and
   column sums 4, so it is J − P for a permutation P. Relabel round 2's tables so that
   group g misses table g, then renumber the players inside each group (round 1 stays)
   so that player 4g + k sits at the k-th smallest table other than g. Round 2 is then
   exactly the fixed one. (For 16 players the matrix is all ones, and player 4g + k sits
   at table k.) Rule 3 needs rule 1 to give 2 rounds.
4. *Tables are unlabelled:* in rounds 3.., tables are numbered by first appearance (player
   p sits at table t > 0 only if some player q < p sits at table t − 1), i.e. by smallest
   player. Relabelling one round's tables changes nothing else.
5. *Interchangeable rounds are in lexicographic order* of their table-number vectors
   (non-strict): the orthogonal rounds after round 2 among themselves, and the rest among
   themselves. Permuting within either chain keeps rules 1–4.

Checks with known answers (``KNOWN``, rerun by tests/seating/engine/
test_seating_proof_20x6.py): 16 players over 5 rounds and 20 over 5 have 0-repeat
schedules (the affine plane of order 4; the 5-4-5 social golfer design), while 20 over 6
has none (the 5-4-6 golfer problem, a resolvable 4-GDD of type 2^10, does not exist).
One worker, niced, on a shared 2-core machine: 0.0 s, 4 s and 24 s (13 s with rule 1
giving only 2 rounds). Status of the real question: no answer for <= 3 repeats within
1800 s (and none within about 12 min before rule 1 gave 3 rounds), none for <= 1 within
420 s. ``proof_20x6_anchored`` settles it without a solver: no schedule has fewer than 6.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from itertools import combinations, combinations_with_replacement, product
from math import comb

SIZE = 4


def spoiled_round_pairs(max_repeats: int, rounds: int) -> int:
    """Most pairs of rounds that share a pair when there are at most ``max_repeats``
    repeats: pile the repeats onto as few pairs as possible (C(c, 2) is convex)."""
    spoiled, left = 0, max_repeats
    while left > 0:
        extra = min(left, rounds - 1)  # a pair meets at most ``rounds`` times
        spoiled += comb(extra + 1, 2)
        left -= extra
    return spoiled


def _splits(left: int, most: int) -> list[list[int]]:
    """Every multiset of pair repeats (each 1..most, non-increasing) summing to <= left."""
    found = [[]]
    for first in range(min(left, most), 0, -1):
        found += [[first, *rest] for rest in _splits(left - first, first)]
    return found


def orthogonal_rounds(max_repeats: int, rounds: int) -> int:
    """The most rounds that are surely pairwise orthogonal in some schedule with at most
    ``max_repeats`` repeats, by brute force: a pair meeting c times makes its c rounds a
    clique of the "share a pair" graph on rounds; for every way of choosing the repeated
    pairs and their rounds, the graph's largest independent set is at least the answer."""
    best = rounds
    everyone = range(rounds)
    for split in _splits(max_repeats, rounds - 1):
        if sum(split) < max_repeats and rounds > 1:
            continue  # one more repeated pair only adds to the graph: the full sums are worst
        options = [
            list(combinations_with_replacement(list(combinations(everyone, extra + 1)), times))
            for extra, times in Counter(split).items()
        ]
        for chosen_cliques in product(*options):
            cliques = [clique for group in chosen_cliques for clique in group]
            spoiled = {pair for clique in cliques for pair in combinations(clique, 2)}
            size = max(
                size
                for size in range(1, rounds + 1)
                for chosen in combinations(everyone, size)
                if not any(pair in spoiled for pair in combinations(chosen, 2))
            )
            best = min(best, size)
    return best


def first_round(n: int) -> list[list[int]]:
    return [list(range(g * SIZE, g * SIZE + SIZE)) for g in range(n // SIZE)]


def second_round(n: int) -> list[list[int]]:
    """Rule 3's round 2, tables listed by smallest player."""
    groups = n // SIZE
    tables: list[list[int]] = [[] for _ in range(groups)]
    for g in range(groups):
        others = [t for t in range(groups) if t != g] if groups == SIZE + 1 else list(range(SIZE))
        for k, t in enumerate(others):
            tables[t].append(g * SIZE + k)
    return sorted((sorted(t) for t in tables), key=lambda t: t[0])


def build(n: int, rounds: int, max_repeats: int, break_second: bool = True):

    if n % SIZE or n // SIZE not in (SIZE, SIZE + 1):
        raise ValueError("the fixed second round is worked out for 16 and 20 players")
    tables = n // SIZE
    model, x = seat_model(n, rounds, tables)
    fixed = [first_round(n)]
    orthogonal = orthogonal_rounds(max_repeats, rounds) if break_second else 1
    if orthogonal >= 2:
        fixed.append(second_round(n))
    for r, partition in enumerate(fixed):
        for t, table in enumerate(partition):
            for p in range(n):
                model.add(x[p, r, t] == (1 if p in table else 0))
    free = range(len(fixed), rounds)
    for r in free:  # rule 4
        model.add(x[0, r, 0] == 1)
        for p in range(1, n):
            for t in range(1, tables):
                model.add_bool_or([x[q, r, t - 1] for q in range(p)]).only_enforce_if(x[p, r, t])
    number = {(p, r): sum(t * x[p, r, t] for t in range(1, tables)) for p in range(n) for r in free}
    # rule 5: the orthogonal rounds after the fixed ones, then the rest, are each in order
    for chain in (range(len(fixed), orthogonal), range(max(len(fixed), orthogonal), rounds)):
        for a, b in zip(chain, chain[1:], strict=False):
            _lex_leq(
                model, [number[p, a] for p in range(1, n)], [number[p, b] for p in range(1, n)]
            )
    meets = {}
    unmet = {}
    repeats = {}
    for p, q in combinations(range(n), 2):
        for r in range(rounds):
            ys = []
            for t in range(tables):
                y = model.new_bool_var(f"y{p}_{q}_{r}_{t}")
                model.add_implication(y, x[p, r, t])
                model.add_implication(y, x[q, r, t])
                model.add_bool_or([x[p, r, t].Not(), x[q, r, t].Not(), y])
                ys.append(y)
            m = model.new_bool_var(f"m{p}_{q}_{r}")
            model.add(m == sum(ys))
            meets[p, q, r] = m
        u = model.new_bool_var(f"u{p}_{q}")
        model.add_bool_or([u, *(meets[p, q, r] for r in range(rounds))])
        for r in range(rounds):
            model.add_implication(u, meets[p, q, r].Not())
        unmet[p, q] = u
        # The pair's repeats, max(0, c - 1) = c - 1 + u: a per-pair bound propagates.
        s = model.new_int_var(0, max_repeats, f"s{p}_{q}")
        model.add(s == sum(meets[p, q, r] for r in range(rounds)) - 1 + u)
        repeats[p, q] = s
    for p, q in combinations(range(n), 2):  # rule 1: the first rounds are orthogonal
        model.add(sum(meets[p, q, r] for r in range(orthogonal)) <= 1)
    least = max(0, n - 1 - (SIZE - 1) * rounds)  # a player meets at most 3R others
    for p in range(n):
        for r in range(rounds):
            model.add(sum(meets[min(p, q), max(p, q), r] for q in range(n) if q != p) == SIZE - 1)
        model.add(sum(unmet[min(p, q), max(p, q)] for q in range(n) if q != p) >= least)
    model.add(sum(repeats.values()) <= max_repeats)
    pair_meetings = rounds * tables * comb(SIZE, 2)
    model.add(sum(unmet.values()) <= comb(n, 2) - pair_meetings + max_repeats)
    return model, x


def _lex_leq(model, a, b) -> None:
    """a ≤ b lexicographically: e[k] = "a and b agree before k"; where they first differ
    (e[k] and not e[k+1]) a[k] < b[k]."""
    e = [model.new_constant(1)] + [model.new_bool_var(f"e{k}") for k in range(len(a))]
    for k in range(len(a)):
        model.add(a[k] <= b[k]).only_enforce_if(e[k])
        model.add_implication(e[k + 1], e[k])
        model.add(a[k] == b[k]).only_enforce_if(e[k + 1])
        model.add(a[k] < b[k]).only_enforce_if([e[k], e[k + 1].Not()])


def repeats_of(schedule: list[list[list[int]]]) -> int:
    met: dict[tuple[int, int], int] = {}
    for partition in schedule:
        for table in partition:
            for pair in combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(c - 1 for c in met.values())


def solve(n: int, rounds: int, max_repeats: int, time_limit: float = 60.0, workers: int = 1):
    """("FEASIBLE", schedule), ("INFEASIBLE", None) or ("UNKNOWN", None), and seconds."""

    model, x = build(n, rounds, max_repeats)
    status, schedule, seconds = run(model, x, n, rounds, n // SIZE, time_limit, workers)
    if schedule:
        assert all(len(t) == SIZE for part in schedule for t in part)
        assert repeats_of(schedule) <= max_repeats
    return status, schedule, seconds


def seat_model(n: int, rounds: int, tables: int):
    """A CP-SAT model with x[p, r, t] (player p at table t in round r): one table a round
    for each player, SIZE players at each table. The proofs add their own rules to it."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = {
        (p, r, t): model.new_bool_var(f"x{p}_{r}_{t}")
        for p in range(n)
        for r in range(rounds)
        for t in range(tables)
    }
    for r in range(rounds):
        for p in range(n):
            model.add_exactly_one(x[p, r, t] for t in range(tables))
        for t in range(tables):
            model.add(sum(x[p, r, t] for p in range(n)) == SIZE)
    return model, x


def run(model, x, n: int, rounds: int, tables: int, time_limit: float, workers: int = 1):
    """("FEASIBLE", schedule), ("INFEASIBLE", None) or ("UNKNOWN", None), and seconds."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    start = time.perf_counter()
    status = solver.solve(model)
    seconds = time.perf_counter() - start
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        schedule = [
            [[p for p in range(n) if solver.value(x[p, r, t])] for t in range(tables)]
            for r in range(rounds)
        ]
        return "FEASIBLE", schedule, seconds
    return ("INFEASIBLE" if status == cp_model.INFEASIBLE else "UNKNOWN"), None, seconds


KNOWN = [(16, 5, 0, "FEASIBLE"), (20, 5, 0, "FEASIBLE"), (20, 6, 0, "INFEASIBLE")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--max-repeats", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    status, schedule, seconds = solve(
        args.players, args.rounds, args.max_repeats, args.time_limit, args.workers
    )
    print(f"{args.players} x {args.rounds}, <= {args.max_repeats} repeats: {status}", end="")
    print(f" ({seconds:.1f} s)")
    if schedule:
        print(f"repeats {repeats_of(schedule)}")
        for partition in schedule:
            print(" | ".join(" ".join(str(p) for p in t) for t in partition))
    return 0


if __name__ == "__main__":
    sys.exit(main())
