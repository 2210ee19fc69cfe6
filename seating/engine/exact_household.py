"""Exhaustive search for 16 players over 5 rounds at tables of 4 with a household of 3.

At most 8 repeats are wanted there; the bound says 6, the engine and every local
search tried reach 11. This search decides "at most ``ceiling`` repeats?" exactly, and
answers no for 8 (so the minimum is 9, 10 or 11).

Players 0, 1, 2 are the household, 3..15 the others (O). Every round seats the three
members at three different tables with a triple from O each, and a *free* table of four
from O. Counting meetings from each side gives, for any seating without conflicts:

    repeats = 6 + N_H + E_O

where N_H is the number of member–O pairs that never meet and E_O the repeats among O
pairs (45 member–O meetings over 39 pairs give 6 + N_H; O pairs repeat E_O times). Both
only grow as rounds are added, and two lower bounds on N_H hold at every step:

* per player x of O: N_H counts 3 − d_x for x (d_x members met), and 3 − d_x =
  f_x − 2 + m_x, with f_x the rounds x sat at the free table and m_x the times x met a
  member again (x meets members 5 − f_x times); both only grow, and 3 − d_x ≥ 0;
* per member a: a meets 15 O-seats and at most 13 O players, so a's never-met O players
  number e_a − 2 at least, e_a being a's repeat meetings so far.

So a branch is cut once E_O + max(both bounds on N_H) > ceiling − 6.

Symmetry breaking (each step keeps one seating of every class): round 1 is fixed
(member i with players 3i+3..3i+5, the free table 12..15); round 2 is one seating per
*refined intersection matrix* with round 1 — member i at round-2 table i, table 3 free,
and how many players of each round-1 table sit at each round-2 table — since permuting
players inside a round-1 table maps any two seatings with the same matrix onto each
other; rounds 3–5 come in non-decreasing order, and tables inside a round are listed by
smallest player.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

Table = tuple[int, ...]

_N, _MEMBERS, _ROUNDS = 16, 3, 5
_FIRST: tuple[Table, ...] = ((0, 3, 4, 5), (1, 6, 7, 8), (2, 9, 10, 11), (12, 13, 14, 15))
_GROUPS = ((3, 4, 5), (6, 7, 8), (9, 10, 11), (12, 13, 14, 15))  # round 1's O players


class _State:
    def __init__(self, extra: int) -> None:
        self.extra = extra  # ceiling − 6: what N_H + E_O may use
        self.count = [0] * (_N * _N)
        self.excess = [0] * _MEMBERS  # e_a
        self.free = [0] * _N  # f_x
        self.again = [0] * _N  # m_x
        self.o_repeats = 0  # E_O
        self.nodes = 0

    def slack_left(self) -> bool:
        by_players = sum(max(0, self.free[x] - 2 + self.again[x]) for x in range(_MEMBERS, _N))
        by_members = sum(max(0, e - 2) for e in self.excess)
        return self.o_repeats + max(by_players, by_members) <= self.extra

    def add(self, table: Table, step: int) -> None:
        if table[0] >= _MEMBERS:  # sorted, so no member: the free table
            for x in table:
                self.free[x] += step
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                key = a * _N + b
                if step < 0:
                    self.count[key] -= 1
                if self.count[key] >= 1:
                    if a < _MEMBERS:
                        self.excess[a] += step
                        self.again[b] += step
                    else:
                        self.o_repeats += step
                if step > 0:
                    self.count[key] += 1

    def extend(
        self, r: int, rest: list[int], now: list[Table], previous: tuple[Table, ...]
    ) -> bool:
        """Complete round ``r`` (``now`` placed) and the rounds after it within the slack."""
        self.nodes += 1
        if not rest:
            done = tuple(now)
            if r >= 3 and done < previous:
                return False
            return r + 1 == _ROUNDS or self.extend(r + 1, list(range(_N)), [], done)
        first, others = rest[0], rest[1:]
        for trio in combinations(others, 3):
            table = (first, *trio)
            if trio[0] < _MEMBERS and first < _MEMBERS:
                continue  # two members at one table
            if not now and r >= 3 and table < previous[0]:
                continue
            self.add(table, 1)
            if self.slack_left():
                now.append(table)
                if self.extend(r, [p for p in others if p not in trio], now, previous):
                    return True
                now.pop()
            self.add(table, -1)
        return False


def second_rounds() -> Iterator[tuple[Table, ...]]:
    """One round 2 per refined intersection matrix with round 1 (module docstring)."""
    caps = (3, 3, 3, 4)  # O seats at round-2 tables: members' tables, then the free one

    def rows(i: int, left: tuple[int, ...]) -> Iterator[list[tuple[int, ...]]]:
        if i == len(_GROUPS):
            if not any(left):
                yield []
            return
        for vec in product(range(5), repeat=4):
            if sum(vec) == len(_GROUPS[i]) and all(v <= c for v, c in zip(vec, left, strict=True)):
                rest = tuple(c - v for v, c in zip(vec, left, strict=True))
                for tail in rows(i + 1, rest):
                    yield [vec, *tail]

    for matrix in rows(0, caps):
        tables: list[list[int]] = [[0], [1], [2], []]
        for group, vec in zip(_GROUPS, matrix, strict=True):
            players = iter(group)
            for j, how_many in enumerate(vec):
                tables[j].extend(next(players) for _ in range(how_many))
        yield tuple(sorted(tuple(sorted(t)) for t in tables))


def heavy_household_within(ceiling: int, second: tuple[Table, ...] | None = None) -> bool:
    """Whether 16 players over 5 rounds at tables of 4, players 0–2 a household never
    seated together, can have at most ``ceiling`` repeats. ``second`` restricts round 2
    to one seating (already relabelled to round 1's form; the tests use it to check that
    a known schedule is found). Exponential: here about 90 s for ceiling 7 and 20 minutes
    for ceiling 8 (both False: "at most 8" cannot be met)."""
    state = _State(ceiling - 6)
    for table in _FIRST:
        state.add(table, 1)
    for round_two in [second] if second is not None else second_rounds():
        for table in round_two:
            state.add(table, 1)
        found = state.slack_left() and state.extend(2, list(range(_N)), [], round_two)
        for table in round_two:
            state.add(table, -1)
        if found:
            return True
    return False
