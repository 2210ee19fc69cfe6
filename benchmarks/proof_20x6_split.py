"""Offline proof: do 20 players over 6 rounds at tables of 4 need 4 repeats?

Not part of the engine (seating/engine/ never imports it); the solver needs OR-Tools
(``pip install ortools``), the case analysis does not. Run

    python -m benchmarks.proof_20x6_split --max-repeats 3 [--part 0 --parts 2]

and each case answers INFEASIBLE, FEASIBLE (a schedule, recounted, is printed) or UNKNOWN
(time limit). Where it stopped (2026-12-04): every case of <= 2 repeats and 30 of the 51
cases of <= 3 infeasible, the others without an answer. ``proof_20x6_anchored`` answers
the whole question (no schedule of <= 5) without a solver, using this module's patterns;
these cases stay as a second, independent check of its answers up to 2 and 3.

The question is split into cases that are each small for CP-SAT; ``proof_20x6.py``'s single
model gave no answer in 30 minutes. Counting as there: a pair meeting c times costs c - 1.

1. *The pattern.* For two rounds i, j let W(i, j) be the number of pairs they share. A pair
   meeting in a set C of rounds adds 1 to W on every two rounds of C, so W is a sum of
   cliques, one per repeated pair, with total cost Σ (|C| - 1) <= K. ``share_patterns``
   lists every such W up to relabelling the rounds, with W(0, 1) >= W(i, j) for all i, j:
   number the rounds so that rounds 0 and 1 share the most. W(0, 1) >= 1, since a
   schedule with no shared pair at all is the 5-4-6 golfer design (``proof_20x6.KNOWN``
   proves it impossible; it is also the pattern-free case below: it has no repeats).
   Only rounds 2..5 are relabelled when comparing patterns (0 and 1 stay), so each W is
   kept as its smallest form under permutations of 2..5.
2. *Round 0 is {0-3}, {4-7}, ...* (relabel players; its table t is group t).
3. *Round 1 is fixed by its incidence with round 0.* The 5 x 5 matrix of how many players
   of group g sit at round 1's table t has row and column sums 4 and Σ C(m, 2) = W(0, 1)
   shared pairs. Permuting groups (with their round-0 tables) and round 1's tables, it is
   one of ``incidence_classes(W(0, 1))``; renumbering the players inside each group so
   that they go to round 1's tables in increasing order makes round 1 exactly
   ``second_round_from(matrix)``.
4. *Tables of rounds 2..5 are numbered by their smallest player.*
5. *Interchangeable rounds are in lex order*: rounds a < b of 2..5 whose swap leaves W
   as it is (twins: an equivalence, so sorting each class satisfies every such pair).

A case is (W, matrix); the model pins every two rounds' shared pairs to W and the total
cost to <= K. ``canonical_case`` carries any schedule into its case by exactly these steps
(tests/seating/engine/test_seating_proof_20x6_split.py checks it on the engine's
schedules and on relabelled ones), which is what makes "every case infeasible" a proof.
"""

from __future__ import annotations

import argparse
import sys
from functools import cache
from itertools import combinations, permutations, product
from math import comb

from benchmarks.proof_20x6 import _lex_leq, first_round, repeats_of, run, seat_model

PLAYERS, TABLES, SIZE, ROUNDS = 20, 5, 4, 6
ROUND_PAIRS = list(combinations(range(ROUNDS), 2))
Pattern = dict[tuple[int, int], int]  # the round pairs that share pairs, and how many
Matrix = tuple[tuple[int, ...], ...]
Schedule = list[list[list[int]]]


def _matrix_form(rows: Matrix) -> Matrix:
    """The smallest form of a matrix under permuting its rows and its columns."""
    return min(
        tuple(sorted(tuple(row[c] for c in order) for row in rows))
        for order in permutations(range(TABLES))
    )


@cache
def incidence_classes(shared: int) -> tuple[Matrix, ...]:
    """Every group x table incidence of two rounds sharing ``shared`` pairs, one per class."""
    rows = [
        r
        for r in product(range(SIZE + 1), repeat=TABLES)
        if sum(r) == SIZE and sum(comb(v, 2) for v in r) <= shared
    ]
    found: set[Matrix] = set()

    def extend(chosen: list[tuple[int, ...]], columns: list[int], cost: int) -> None:
        if len(chosen) == TABLES:
            if cost == shared and all(c == SIZE for c in columns):
                found.add(_matrix_form(tuple(chosen)))
            return
        for row in rows:
            if chosen and row < chosen[-1]:
                continue
            sums = [a + b for a, b in zip(columns, row, strict=True)]
            more = cost + sum(comb(v, 2) for v in row)
            if max(sums) <= SIZE and more <= shared:
                extend([*chosen, row], sums, more)

    extend([], [0] * TABLES, 0)
    return tuple(sorted(found))


def second_round_from(matrix: Matrix) -> list[list[int]]:
    """Round 1 for this incidence: group g's players go to the tables in increasing order."""
    tables: list[list[int]] = [[] for _ in range(TABLES)]
    for g, row in enumerate(matrix):
        seats = [t for t in range(TABLES) for _ in range(row[t])]
        for k, t in enumerate(seats):
            tables[t].append(SIZE * g + k)
    return [sorted(t) for t in tables]


def _pattern_key(pattern: Pattern, order: dict[int, int]) -> tuple:
    return tuple(
        sorted((tuple(sorted((order[a], order[b]))), v) for (a, b), v in pattern.items() if v)
    )


def smallest_form(pattern: Pattern) -> tuple[tuple, dict[int, int]]:
    """The pattern's smallest key under permutations of rounds 2..5, and one such order."""
    options = []
    for rest in permutations(range(2, ROUNDS)):
        order = dict(zip(range(ROUNDS), (0, 1, *rest), strict=True))
        options.append((_pattern_key(pattern, order), order))
    return min(options, key=lambda option: option[0])


@cache
def share_patterns(max_repeats: int) -> tuple[Pattern, ...]:
    """Every sum of round cliques of cost <= max_repeats with W(0, 1) largest and >= 1."""
    cliques = [c for k in range(2, ROUNDS + 1) for c in combinations(range(ROUNDS), k)]
    found: dict[tuple, Pattern] = {}
    # Many sums of cliques give the same pattern up to the order of rounds 2..5 (180,000
    # sums, 1,378 forms): the smallest form (24 orders, sorted) is looked for once per form.
    seen: set[tuple[int, ...]] = set()

    # Each clique as the positions of its round pairs in ROUND_PAIRS; each order of rounds
    # 2..5 as where it sends each position (a pattern and its reorderings share one form).
    index = {pair: n for n, pair in enumerate(ROUND_PAIRS)}
    clique_pairs = [[index[pair] for pair in combinations(c, 2)] for c in cliques]
    reorderings = []
    for rest in permutations(range(2, ROUNDS)):
        order = (0, 1, *rest)
        reorderings.append([index[tuple(sorted((order[a], order[b])))] for a, b in ROUND_PAIRS])

    def extend(counts: list[int], cost: int, start: int) -> None:
        if cost and counts[0] >= 1 and counts[0] == max(counts):
            if tuple(counts) not in seen:
                for moved in reorderings:
                    reordered = [0] * len(counts)
                    for n, to in enumerate(moved):
                        reordered[to] = counts[n]
                    seen.add(tuple(reordered))
                key, _ = smallest_form(dict(zip(ROUND_PAIRS, counts, strict=True)))
                found.setdefault(key, dict(key))
        for i in range(start, len(cliques)):
            more = cost + len(cliques[i]) - 1
            if more <= max_repeats:
                for n in clique_pairs[i]:
                    counts[n] += 1
                extend(counts, more, i)
                for n in clique_pairs[i]:
                    counts[n] -= 1

    extend([0] * len(ROUND_PAIRS), 0, 0)
    return tuple(found.values())


def interchangeable(pattern: Pattern, a: int, b: int) -> bool:
    swap = {a: b, b: a}
    moved = {tuple(sorted((swap.get(i, i), swap.get(j, j)))): v for (i, j), v in pattern.items()}
    return {k: v for k, v in moved.items() if v} == {k: v for k, v in pattern.items() if v}


def shared_pairs(first: list[list[int]], second: list[list[int]]) -> int:
    def pairs(partition):
        return {pair for table in partition for pair in combinations(sorted(table), 2)}

    return len(pairs(first) & pairs(second))


def pattern_of(schedule: Schedule) -> Pattern:
    shares = {(i, j): shared_pairs(schedule[i], schedule[j]) for i, j in ROUND_PAIRS}
    return {pair: count for pair, count in shares.items() if count}


def table_numbers(partition: list[list[int]]) -> list[int]:
    """Each player's table, players 1..19 (player 0 is always at table 0)."""
    number = {p: t for t, table in enumerate(partition) for p in table}
    return [number[p] for p in range(1, PLAYERS)]


def canonical_case(schedule: Schedule) -> tuple[Pattern, Matrix, Schedule]:
    """The case (pattern, matrix) that holds this schedule, and the schedule as that case's
    model sees it (steps 1-5 of the module's docstring)."""
    first, second = max(ROUND_PAIRS, key=lambda ij: shared_pairs(schedule[ij[0]], schedule[ij[1]]))
    a, b = schedule[first], schedule[second]
    incidence = [[len(set(g) & set(t)) for t in b] for g in a]
    target = _matrix_form(tuple(map(tuple, incidence)))
    group_order, table_order = next(
        (rows, columns)
        for rows in permutations(range(TABLES))
        for columns in permutations(range(TABLES))
        if all(
            incidence[rows[g]][columns[t]] == target[g][t]
            for g in range(TABLES)
            for t in range(TABLES)
        )
    )
    label = {}
    for g in range(TABLES):
        seats = [
            p
            for t in range(TABLES)
            for p in sorted(set(a[group_order[g]]) & set(b[table_order[t]]))
        ]
        label.update({p: SIZE * g + k for k, p in enumerate(seats)})
    rest = [schedule[r] for r in range(ROUNDS) if r not in (first, second)]
    relabelled = [
        [sorted(label[p] for p in table) for table in partition]
        for partition in ([a[g] for g in group_order], [b[t] for t in table_order], *rest)
    ]
    relabelled[2:] = [sorted(partition) for partition in relabelled[2:]]
    _, order = smallest_form(pattern_of(relabelled))
    placed: list = [None] * ROUNDS
    for r, partition in enumerate(relabelled):
        placed[order[r]] = partition
    pattern = pattern_of(placed)
    for a_round, b_round in combinations(range(2, ROUNDS), 2):  # twins in lex order
        if interchangeable(pattern, a_round, b_round) and table_numbers(
            placed[a_round]
        ) > table_numbers(placed[b_round]):
            placed[a_round], placed[b_round] = placed[b_round], placed[a_round]
    return pattern, target, placed


def build_case(pattern: Pattern, matrix: Matrix, max_repeats: int):
    """The CP-SAT model of one case: rounds 0 and 1 fixed, shared pairs pinned to the
    pattern, tables of rounds 2..5 by smallest player, twins in lex order."""

    players, tables, rounds = range(PLAYERS), range(TABLES), range(ROUNDS)
    model, x = seat_model(PLAYERS, ROUNDS, TABLES)
    for r, partition in enumerate([first_round(PLAYERS), second_round_from(matrix)]):
        for t, table in enumerate(partition):
            for p in players:
                model.add(x[p, r, t] == (1 if p in table else 0))
    free = range(2, ROUNDS)
    for r in free:
        model.add(x[0, r, 0] == 1)
        for p in range(1, PLAYERS):
            for t in range(1, TABLES):
                model.add_bool_or([x[q, r, t - 1] for q in range(p)]).only_enforce_if(x[p, r, t])
    number = {(p, r): sum(t * x[p, r, t] for t in range(1, TABLES)) for p in players for r in free}
    for a, b in combinations(free, 2):
        if interchangeable(pattern, a, b):
            _lex_leq(
                model,
                [number[p, a] for p in range(1, PLAYERS)],
                [number[p, b] for p in range(1, PLAYERS)],
            )
    meets, cost = {}, []
    for p, q in combinations(players, 2):
        for r in rounds:
            together = []
            for t in tables:
                y = model.new_bool_var(f"y{p}_{q}_{r}_{t}")
                model.add_implication(y, x[p, r, t])
                model.add_implication(y, x[q, r, t])
                model.add_bool_or([x[p, r, t].Not(), x[q, r, t].Not(), y])
                together.append(y)
            meets[p, q, r] = model.new_bool_var(f"m{p}_{q}_{r}")
            model.add(meets[p, q, r] == sum(together))
        never = model.new_bool_var(f"u{p}_{q}")
        model.add_bool_or([never, *(meets[p, q, r] for r in rounds)])
        for r in rounds:
            model.add_implication(never, meets[p, q, r].Not())
        pair_cost = model.new_int_var(0, max_repeats, f"s{p}_{q}")
        model.add(pair_cost == sum(meets[p, q, r] for r in rounds) - 1 + never)
        cost.append(pair_cost)
    model.add(sum(cost) <= max_repeats)
    for i, j in ROUND_PAIRS:
        both = []
        for p, q in combinations(players, 2):
            b = model.new_bool_var(f"b{p}_{q}_{i}_{j}")
            model.add_implication(b, meets[p, q, i])
            model.add_implication(b, meets[p, q, j])
            model.add_bool_or([meets[p, q, i].Not(), meets[p, q, j].Not(), b])
            both.append(b)
        model.add(sum(both) == pattern.get((i, j), 0))
    _cap_incidences(model, x, pattern)
    for p in players:  # redundant: each player meets 3 others a round
        for r in rounds:
            model.add(sum(meets[min(p, q), max(p, q), r] for q in players if q != p) == SIZE - 1)
    return model, x


def _cap_incidences(model, x, pattern: Pattern) -> None:
    """Redundant: two rounds sharing w pairs seat at most c players of one table together,
    C(c, 2) <= w (w = 0: at most 1, the J - P incidence; w = 1, 2: 2; w = 3: 3)."""
    players, tables = range(PLAYERS), range(TABLES)
    for i, j in ROUND_PAIRS:
        most = max(c for c in range(1, SIZE + 1) if comb(c, 2) <= pattern.get((i, j), 0))
        for a in tables:
            for b in tables:
                both = [model.new_bool_var(f"z{p}_{i}{a}_{j}{b}") for p in players]
                for p, z in zip(players, both, strict=True):
                    model.add_implication(z, x[p, i, a])
                    model.add_implication(z, x[p, j, b])
                    model.add_bool_or([x[p, i, a].Not(), x[p, j, b].Not(), z])
                model.add(sum(both) <= most)


def solve_case(pattern, matrix, max_repeats, *, time_limit=1200.0, fixed=None):
    """("INFEASIBLE" | "FEASIBLE" | "UNKNOWN", schedule or None, seconds); ``fixed`` pins
    every seat (the soundness control: a known schedule in its canonical form)."""

    model, x = build_case(pattern, matrix, max_repeats)
    for r, partition in enumerate(fixed or []):
        for t, table in enumerate(partition):
            for p in range(PLAYERS):
                model.add(x[p, r, t] == (1 if p in table else 0))
    status, schedule, seconds = run(model, x, PLAYERS, ROUNDS, TABLES, time_limit)
    if schedule:
        assert repeats_of(schedule) <= max_repeats
    return status, schedule, seconds


def cases(max_repeats: int) -> list[tuple[Pattern, Matrix]]:
    return [
        (pattern, matrix)
        for pattern in share_patterns(max_repeats)
        for matrix in incidence_classes(pattern[0, 1])
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-repeats", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=1200.0)
    parser.add_argument("--part", type=int, default=0)
    parser.add_argument("--parts", type=int, default=1)
    parser.add_argument("--cases", help="only these case numbers, e.g. 27,29 (to resume)")
    args = parser.parse_args(argv)
    chosen = {int(n) for n in args.cases.split(",")} if args.cases else None
    todo = cases(args.max_repeats)
    print(f"<= {args.max_repeats} repeats: {len(todo)} cases", flush=True)
    answers = []
    for n, (pattern, matrix) in enumerate(todo):
        if n % args.parts != args.part or (chosen is not None and n not in chosen):
            continue
        status, schedule, seconds = solve_case(
            pattern, matrix, args.max_repeats, time_limit=args.time_limit
        )
        answers.append(status)
        shares = " ".join(f"{i}{j}:{v}" for (i, j), v in sorted(pattern.items()))
        print(
            f"case {n}: shares {shares}; incidence {matrix}: {status} ({seconds:.1f} s)", flush=True
        )
        if schedule:
            print("schedule", schedule, "repeats", repeats_of(schedule), flush=True)
    print(
        "all infeasible" if set(answers) == {"INFEASIBLE"} else f"answers: {sorted(set(answers))}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
