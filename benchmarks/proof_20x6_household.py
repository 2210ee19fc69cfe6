"""Offline proof: 20 players over 6 rounds with a household of 4 need 9 repeats.

Not part of the engine; the solver needs OR-Tools (``pip install ortools``), the case split
does not. Run

    python -m benchmarks.proof_20x6_household [--time-limit 600] [--cases 0,8]

and each case answers INFEASIBLE, FEASIBLE or UNKNOWN (time limit).

Players 16..19 are the household (members, who never share a table), 0..15 the others (O).
A member sits with 3 others a round, all from O: 18 seats over 6 rounds among 16 players,
so each member repeats at least 18 - 16 = 2 times with O players, and the 4 members'
repeats are distinct pairs: at least 8 (the engine's bound). At most 8 therefore means
exactly this, which is what the model asks:

* every member meets every O player (a member who missed one would repeat 3 times);
* no two O players ever meet twice;
* so an O player x sits at the free table (the one without a member) at most twice: x must
  meet all 4 members, which takes 4 of its 6 rounds.

Symmetry breaking, each step keeping one schedule of every class:

1. Member i sits at table i in every round (tables are unlabelled), table 4 is free.
2. Round 0 seats O players 3i..3i+2 with member i and 12..15 at the free table.
3. Round 1 is fixed by its incidence with round 0: how many of round 0's block b (a
   member's 3, or the free 4) sit at round 1's table t. No two O players meet twice, so
   the entries are 0 or 1, with row and column sums 3, 3, 3, 3, 4. Permuting the members
   (each with its tables and round-0 block) permutes rows 0-3 and columns 0-3 alike:
   ``incidences`` keeps one matrix of each class, 46 in all. Renumbering the players
   inside each round-0 block, so that they go to round 1's tables in increasing order,
   makes round 1 exactly ``second_round(matrix)``.
4. Rounds 2..5 are interchangeable: their table numbers are in lexicographic order.

Status (2026-12-04, one worker): see docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import sys
from itertools import combinations, permutations, product

from benchmarks.proof_20x6 import _lex_leq, run, seat_model

PLAYERS, TABLES, ROUNDS = 20, 5, 6
MEMBERS = range(16, 20)
OTHERS = range(16)
FIRST_BLOCKS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11), (12, 13, 14, 15))
CAPS = (3, 3, 3, 3, 4)  # O seats at tables 0-3 (a member's) and at the free table 4
Matrix = tuple[tuple[int, ...], ...]


def _smallest_form(matrix: Matrix) -> Matrix:
    def moved(order):
        index = (*order, 4)
        return tuple(
            tuple(matrix[index[b]][index[t]] for t in range(TABLES)) for b in range(TABLES)
        )

    return min(moved(order) for order in permutations(range(4)))


def incidences() -> list[Matrix]:
    """One 0/1 block x table matrix (row and column sums ``CAPS``) per class (step 3)."""
    found: set[Matrix] = set()

    def extend(rows: list[tuple[int, ...]], columns: list[int]) -> None:
        if len(rows) == TABLES:
            if tuple(columns) == CAPS:
                found.add(_smallest_form(tuple(rows)))
            return
        for row in product((0, 1), repeat=TABLES):
            sums = [c + v for c, v in zip(columns, row, strict=True)]
            if sum(row) == CAPS[len(rows)] and all(s <= c for s, c in zip(sums, CAPS, strict=True)):
                extend([*rows, row], sums)

    extend([], [0] * TABLES)
    return sorted(found)


def second_round(matrix: Matrix) -> list[list[int]]:
    """Round 1's O players at tables 0-4 for this incidence (step 3)."""
    tables: list[list[int]] = [[] for _ in range(TABLES)]
    for block, row in zip(FIRST_BLOCKS, matrix, strict=True):
        players = iter(block)
        for t in range(TABLES):
            if row[t]:
                tables[t].append(next(players))
    return tables


def incidence_of(first: list[list[int]], second: list[list[int]]) -> Matrix:
    """The block x table matrix of two rounds given as O players at tables 0-4."""
    return tuple(tuple(len(set(b) & set(t)) for t in second) for b in first)


def build(matrix: Matrix, *, members_meet_everyone: bool = True):
    """The CP-SAT model of one case. ``members_meet_everyone=False`` drops that rule (the
    control: what is left is satisfiable, so the rule is what makes the cases fail)."""

    model, x = seat_model(PLAYERS, ROUNDS, TABLES)
    for r in range(ROUNDS):
        for i, member in enumerate(MEMBERS):
            model.add(x[member, r, i] == 1)
    for r, tables in ((0, FIRST_BLOCKS), (1, second_round(matrix))):
        for t, table in enumerate(tables):
            for p in table:
                model.add(x[p, r, t] == 1)
    for p, q in combinations(OTHERS, 2):
        together = []
        for r in range(ROUNDS):
            for t in range(TABLES):
                y = model.new_bool_var(f"y{p}_{q}_{r}_{t}")
                model.add_implication(y, x[p, r, t])
                model.add_implication(y, x[q, r, t])
                model.add_bool_or([x[p, r, t].Not(), x[q, r, t].Not(), y])
                together.append(y)
        model.add(sum(together) <= 1)
    if members_meet_everyone:
        for i in range(len(MEMBERS)):
            for p in OTHERS:
                model.add_bool_or([x[p, r, i] for r in range(ROUNDS)])
        for p in OTHERS:
            model.add(sum(x[p, r, 4] for r in range(ROUNDS)) <= 2)
    number = {
        (p, r): sum(t * x[p, r, t] for t in range(1, TABLES))
        for p in OTHERS
        for r in range(2, ROUNDS)
    }
    for r in range(2, ROUNDS - 1):
        _lex_leq(model, [number[p, r] for p in OTHERS], [number[p, r + 1] for p in OTHERS])
    return model, x


def solve(matrix: Matrix, *, time_limit: float = 600.0, members_meet_everyone: bool = True):
    """("INFEASIBLE" | "FEASIBLE" | "UNKNOWN", schedule or None, seconds)."""

    model, x = build(matrix, members_meet_everyone=members_meet_everyone)
    return run(model, x, PLAYERS, ROUNDS, TABLES, time_limit)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--cases", help="only these case numbers, e.g. 0,8")
    args = parser.parse_args(argv)
    chosen = {int(n) for n in args.cases.split(",")} if args.cases else None
    todo = incidences()
    print(f"{len(todo)} cases", flush=True)
    answers = []
    for n, matrix in enumerate(todo):
        if chosen is not None and n not in chosen:
            continue
        status, schedule, seconds = solve(matrix, time_limit=args.time_limit)
        answers.append(status)
        print(f"case {n}: incidence {matrix}: {status} ({seconds:.1f} s)", flush=True)
        if schedule:
            print("schedule", schedule, flush=True)
    print(
        "all infeasible" if set(answers) == {"INFEASIBLE"} else f"answers: {sorted(set(answers))}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
