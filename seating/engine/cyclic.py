"""Zero-repeat rounds with a prescribed symmetry: the cyclic construction.

Where the grid (``construct.transversal``) runs out of rounds, design theory's classic
move is to look only for schedules invariant under a permutation σ of order k: players
0..n−f−1 lie in cycles of length k (σ adds 1 mod k inside each block of k numbers), the
last f players are fixed, and round r·k + s is σ^s applied to *base round* r. Then a pair
{a, b} meets as often as its σ-orbit's pairs appear in the base rounds, so "nobody meets
twice" becomes "every pair orbit appears at most once in the base rounds" — and orbits of
fewer than k pairs (two fixed players, or {x, σ^(k/2) x}) must not appear at all, since
each appearance would be a repeat. The search space shrinks by a factor of about k and the
local search over base rounds (swaps, as in ``search.py``) finds such designs in moments
where a search over all rounds does not:

* 24 players, 7 rounds (k = 7, 3 fixed players): found in well under a second; it is the
  resolvable 4-GDD of type 3^8 the literature knows, and an 8th round on top gives the
  18 repeats of the 24 × 8 target.
* 32 players, 10 rounds (k = 10, 2 fixed; a single base round) is tried too — the social
  golfer problem 8-4-10, where each player would miss exactly one other (the pairs
  {x, σ^5 x} and the two fixed players) — but within the budget the search stops one
  pair orbit short, so the grid's 9 rounds are kept there (docs/benchmarks.md).

Only uniform table sizes are tried (a base round maps to a round of the same sizes either
way, but mixed sizes make the 5-table seats move with σ, which the fairness phase then has
to undo). Results are a pure function of the seed and the iteration budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

Rounds = list[list[list[int]]]


class Orbits:
    """σ's cycles on players and on pairs for n players, cycle length k, f fixed."""

    def __init__(self, n: int, k: int, fixed: int) -> None:
        self.n, self.k, self.fixed = n, k, fixed
        moving = n - fixed
        # image[s][x] = σ^s(x)
        self.image = [
            [x if x >= moving else x - x % k + (x % k + s) % k for x in range(n)] for s in range(k)
        ]
        self.of = [-1] * (n * n)  # pair a·n + b → orbit id
        self.short: list[bool] = []
        for a in range(n):
            for b in range(a + 1, n):
                if self.of[a * n + b] >= 0:
                    continue
                members = {(min(img[a], img[b]), max(img[a], img[b])) for img in self.image}
                orbit = len(self.short)
                self.short.append(len(members) < k)
                for x, y in members:
                    self.of[x * n + y] = self.of[y * n + x] = orbit

    def develop(self, base: Rounds) -> Rounds:
        """Every base round followed by its k − 1 images under σ."""
        return [
            [[img[x] for x in table] for table in tables] for tables in base for img in self.image
        ]


class CyclicSearch:
    """Tabu search over the base rounds; cost = pair orbits beyond their first appearance,
    plus short orbits at all (weighted, since each is several repeats)."""

    SHORT = 8

    def __init__(self, orbits: Orbits, base: Rounds, rng: random.Random) -> None:
        self.orbits, self.base, self.rng = orbits, base, rng
        n = orbits.n
        self.where = [[0] * n for _ in base]
        self.count = [0] * len(orbits.short)
        for r, tables in enumerate(base):
            for j, table in enumerate(tables):
                for p in table:
                    self.where[r][p] = j
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        self.count[orbits.of[a * n + b]] += 1
        self.cost = sum(self._cost(o, c) for o, c in enumerate(self.count))

    def _cost(self, orbit: int, count: int) -> int:
        return self.SHORT * count if self.orbits.short[orbit] else max(0, count - 1)

    def _changes(self, r: int, p: int, q: int) -> list[int]:
        """Orbit ids a swap removes (id) and adds (~id)."""
        n, of, tables, where = self.orbits.n, self.orbits.of, self.base[r], self.where[r]
        out: list[int] = []
        for x in tables[where[p]]:
            if x != p:
                out += (of[p * n + x], ~of[q * n + x])
        for y in tables[where[q]]:
            if y != q:
                out += (of[q * n + y], ~of[p * n + y])
        return out

    def delta(self, changes: list[int]) -> int:
        count, delta = self.count, 0
        for c in changes:
            o, step = (c, -1) if c >= 0 else (~c, 1)
            delta += self._cost(o, count[o] + step) - self._cost(o, count[o])
            count[o] += step
        for c in changes:
            count[c if c >= 0 else ~c] += 1 if c >= 0 else -1
        return delta

    def swap(self, r: int, p: int, q: int, changes: list[int], delta: int) -> None:
        for c in changes:
            self.count[c if c >= 0 else ~c] += -1 if c >= 0 else 1
        where, tables = self.where[r], self.base[r]
        ja, jb = where[p], where[q]
        tables[ja][tables[ja].index(p)] = q
        tables[jb][tables[jb].index(q)] = p
        where[p], where[q] = jb, ja
        self.cost += delta

    def conflicted(self, r: int, p: int) -> bool:
        n, of, count, short = self.orbits.n, self.orbits.of, self.count, self.orbits.short
        for x in self.base[r][self.where[r][p]]:
            if x != p:
                o = of[p * n + x]
                if short[o] or count[o] > 1:
                    return True
        return False

    def best_move(self, it: int, tabu: list[list[int]], best: int) -> tuple | None:
        move, ties, rng = None, 0, self.rng
        for r, tables in enumerate(self.base):
            for p in range(self.orbits.n):
                if not self.conflicted(r, p):
                    continue
                for jb, other in enumerate(tables):
                    if jb == self.where[r][p]:
                        continue
                    for q in other:
                        changes = self._changes(r, p, q)
                        d = self.delta(changes)
                        if max(tabu[r][p], tabu[r][q]) > it and self.cost + d >= best:
                            continue
                        if move is None or d < move[0]:
                            move, ties = (d, r, p, q, changes), 1
                        elif d == move[0]:
                            ties += 1
                            if rng.randrange(ties) == 0:
                                move = (d, r, p, q, changes)
        return move

    def run(
        self, max_iterations: int, deadline: float, should_stop: Callable[[], bool] | None = None
    ) -> bool:
        rng, tabu = self.rng, [[0] * self.orbits.n for _ in self.base]
        best, last = self.cost, 0
        for it in range(1, max_iterations + 1):
            if self.cost == 0:
                return True
            if it & 15 == 0 and (
                time.perf_counter() > deadline or (should_stop is not None and should_stop())
            ):
                return False
            move = self.best_move(it, tabu, best)
            if move is not None:
                d, r, p, q, changes = move
                self.swap(r, p, q, changes, d)
                tabu[r][p] = tabu[r][q] = it + 2 + rng.randrange(5)
            if self.cost < best:
                best, last = self.cost, it
            elif it - last > _KICK_AFTER:
                last = it
                self._kick()
        return self.cost == 0

    def _kick(self) -> None:
        """One random swap: leaves a basin the tabu list alone cannot escape."""
        r = self.rng.randrange(len(self.base))
        ja, jb = self.rng.sample(range(len(self.base[r])), 2)
        p, q = self.rng.choice(self.base[r][ja]), self.rng.choice(self.base[r][jb])
        changes = self._changes(r, p, q)
        self.swap(r, p, q, changes, self.delta(changes))


_KICK_AFTER = 100


def cyclic_rounds(
    n: int,
    sizes: Sequence[int],
    rounds: int,
    rng: random.Random,
    max_iterations: int,
    deadline: float,
    should_stop: Callable[[], bool] | None = None,
) -> Rounds | None:
    """``rounds`` zero-repeat rounds of uniform ``sizes`` found by the σ-invariant search,
    or None. Cycle lengths are tried longest first (fewest base rounds); the fixed players
    must sit at different tables (two fixed players meeting once meet in every image)."""
    if len(set(sizes)) != 1 or rounds < 2:
        return None
    size = sizes[0]
    for k in range(rounds, 1, -1):
        fixed = n % k
        if rounds % k or fixed > len(sizes) or n // k < 2:
            continue
        orbits = Orbits(n, k, fixed)
        base: Rounds = []
        for _ in range(rounds // k):
            order = list(range(n))
            rng.shuffle(order)
            base.append([order[j * size : (j + 1) * size] for j in range(len(sizes))])
        search = CyclicSearch(orbits, base, rng)
        if search.run(max_iterations, deadline, should_stop):
            return orbits.develop(search.base)
        return None
    return None


def embed_households(
    rounds: Rounds, n: int, households: Sequence[Sequence[int]], rng: random.Random
) -> Rounds:
    """Rename the players of a constructed schedule so that each household lands on
    positions that never share a table (a clique of the "never met" graph), largest
    household first; one that fits nowhere is placed anyhow and left to the search."""
    met = [0] * n
    for tables in rounds:
        for table in tables:
            mask = sum(1 << p for p in table)
            for p in table:
                met[p] |= mask
    free = set(range(n))
    label: dict[int, int] = {}  # position → player

    def clique(size: int, chosen: list[int], candidates: list[int]) -> list[int] | None:
        if len(chosen) == size:
            return chosen
        for i, v in enumerate(candidates):
            rest = [u for u in candidates[i + 1 :] if not met[v] >> u & 1]
            found = clique(size, [*chosen, v], rest)
            if found:
                return found
        return None

    for members in sorted(households, key=len, reverse=True):
        if len(members) < 2:
            continue
        pool = sorted(free)
        rng.shuffle(pool)
        spots = clique(len(members), [], pool) or _least_met(len(members), pool, met)
        for spot, player in zip(spots, members, strict=False):
            label[spot] = player
            free.discard(spot)
    placed = set(label.values())
    others = [p for p in range(n) if p not in placed]
    rng.shuffle(others)
    for spot, player in zip(sorted(free), others, strict=True):
        label[spot] = player
    return [[[label[p] for p in table] for table in tables] for tables in rounds]


def _least_met(size: int, pool: list[int], met: list[int]) -> list[int]:
    """Positions for a household no never-met clique can hold: greedily the ones sharing
    fewest tables with those already chosen, so the search has the fewest conflicts to
    undo (32 × 10 with a household of 4: two never-met pairs, 4 meetings, not 6)."""
    chosen = [pool[0]]
    while len(chosen) < size:
        rest = [p for p in pool if p not in chosen]
        chosen.append(min(rest, key=lambda p: sum(met[q] >> p & 1 for q in chosen)))
    return chosen
