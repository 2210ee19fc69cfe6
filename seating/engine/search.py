"""Tabu search over swaps of two players between tables of one round.

The standard local search for the social golfer problem (Dotú & Van Hentenryck, 2005):
pick a player involved in a conflict, try swapping them with every movable player at
another table of the same round, take the best swap that is not tabu (or that beats the
best cost ever seen), and forbid the swapped players from moving again in that round for a
few iterations so the search does not undo itself. Swaps keep every table's size, so the
table pattern — and therefore "fewest 5-tables" — is an invariant, and pinned players are
simply never offered as swap partners.

Cost is one integer with weights that make the objectives strictly ordered in practice:
family/keep-apart meetings ≫ repeat meetings ≫ meetings beyond the second ≫ Σ e_p², where
e_p is p's number of rounds at an oversize table (Σ e² with a fixed total is smallest
exactly when max − min ≤ 1, which is the fairness target).

Incremental bookkeeping: ``meet[a·n + b]`` holds history + meetings so far, plus a large
offset for forbidden pairs, so one list lookup yields both facts and ``up``/``down`` tables
turn a count into the cost change of one more / one fewer meeting.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

Rounds = list[list[list[int]]]


@dataclass(frozen=True)
class SearchResult:
    rounds: Rounds
    cost: int
    iterations: int
    stopped_by: str


class Watch(Protocol):
    """The caller's eyes on a running search (engine.py builds one from ``seat``'s hooks)."""

    def improved(self, rounds: Rounds) -> None:
        """A better seating was found (the search keeps its own copy)."""

    def should_stop(self) -> bool:
        """Asked every few hundred swaps; True ends the search, keeping the best so far."""


@dataclass(frozen=True)
class Weights:
    """Objective weights; see the module docstring for why they are ordered like this."""

    fair: int
    triple: int
    repeat: int
    forbidden: int

    @classmethod
    def for_rounds(cls, rounds: int) -> Weights:
        # One swap changes Σe² by at most 2R + 2; a triple must outweigh that.
        triple = 2 * rounds + 4
        repeat = 16 * triple
        return cls(fair=1, triple=triple, repeat=repeat, forbidden=64 * repeat)


class TabuSearch:
    """Mutable search state; built once per ``seat`` call and thrown away afterwards."""

    def __init__(
        self,
        n: int,
        rounds: Rounds,
        big_slots: Sequence[Sequence[bool]],
        history: dict[int, int],
        forbidden: set[int],
        locked: Sequence[set[int]],
        weights: Weights,
        rng: random.Random,
        breadth: int = 20,
        window: tuple[int, int] | None = None,
    ) -> None:
        self.n = n
        self.breadth = breadth
        # With a window no swap may take a 5-table exposure outside [low, high]: a seating
        # made fair enough stays so, and the search only works on meetings (see
        # ``repair_fairness`` and engine.seat).
        self.window = window
        # The true cost ranks fairness last, so a fairness gain never pays for the repeat a
        # swap across table sizes usually costs: the search would keep an unfair start
        # unfair. Moves are therefore *chosen* with fairness weighted like a quarter of a
        # repeat, while the best seating is still kept by the true, strictly ordered cost.
        self.steer = weights.repeat // 4
        self.rounds = rounds
        self.big = [list(flags) for flags in big_slots]
        self.locked = locked
        self.rng = rng
        self.weights = weights
        max_history = max(history.values(), default=0)
        self.offset = offset = len(rounds) + max_history + 2
        w = weights

        def pair_cost(k: int) -> int:
            if k >= offset:
                k -= offset
                return w.forbidden * k + pair_cost(k)
            return w.repeat * max(0, k - 1) + w.triple * max(0, k - 2)

        self.pair_cost = pair_cost
        self.up = [pair_cost(k + 1) - pair_cost(k) for k in range(2 * offset + 1)]
        self.down = [0] + [pair_cost(k - 1) - pair_cost(k) for k in range(1, 2 * offset + 1)]
        # A dense list is far faster than a dict; beyond ~2500 players it costs too much
        # memory, and a dict of only the pairs that matter is used instead.
        self.meet: list[int] | _Sparse = [0] * (n * n) if n <= 2500 else _Sparse()
        meet = self.meet
        for key, count in history.items():
            a, b = divmod(key, n)
            meet[a * n + b] += count
            meet[b * n + a] += count
        for key in forbidden:
            a, b = divmod(key, n)
            meet[a * n + b] += offset
            meet[b * n + a] += offset
        self.baseline = sum(pair_cost(meet[k]) for k in _keys(history, forbidden))
        self.where = [[0] * n for _ in rounds]
        self.exposure = [0] * n
        for r, tables in enumerate(rounds):
            for j, table in enumerate(tables):
                for p in table:
                    self.where[r][p] = j
                    if self.big[r][j]:
                        self.exposure[p] += 1
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        meet[a * n + b] += 1
                        meet[b * n + a] += 1
        self.squares = sum(e * e for e in self.exposure)
        self.cost = self._full_cost(history, forbidden)

    def _full_cost(self, history: dict[int, int], forbidden: set[int]) -> int:
        n, meet = self.n, self.meet
        seen = set(_keys(history, forbidden))
        for tables in self.rounds:
            for table in tables:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        seen.add(min(a, b) * n + max(a, b))
        pairs = sum(self.pair_cost(meet[k]) for k in seen)
        return pairs - self.baseline + self.weights.fair * sum(e * e for e in self.exposure)

    def conflicted(self, r: int, j: int) -> list[int]:
        """Players of table j in round r who meet a tablemate for the second time (or at
        all, if forbidden)."""
        n, meet = self.n, self.meet
        table = self.rounds[r][j]
        out = []
        for a in table:
            base = a * n
            for b in table:
                if b != a and meet[base + b] >= 2:
                    out.append(a)
                    break
        return out

    def swap_gain_scan(
        self, r: int, a: int, it: int, tabu: list[list[int]], best_cost: int
    ) -> tuple[int, int, int, int] | None:
        """Best (guide, delta, b, r2) for swapping a with someone at another table of round r.

        ``delta`` is the change of the true cost; ``guide`` ranks moves with fairness
        weighted ``steer`` instead (see ``__init__``). ``r2`` is −1 for a plain swap; with
        a window, a swap that would take an exposure outside it is paired with the
        reverse swap in a round r2 where the two players' roles are the other way round
        (an *exchange*: both keep their exposure, so fairness is untouched).
        """
        n, meet, up, down = self.n, self.meet, self.up, self.down
        tables = self.rounds[r]
        ja = self.where[r][a]
        A = tables[ja]
        base_a = a * n
        leave_a = 0
        for x in A:
            if x != a:
                leave_a += down[meet[base_a + x]]
        locked = self.locked[r]
        tabu_r = tabu[r]
        big = self.big[r]
        big_a = big[ja]
        exposure = self.exposure
        fair = self.weights.fair
        steer = self.steer
        window = self.window
        low, high = window if window is not None else (0, 0)
        ea = exposure[a]
        others = [x for x in A if x != a]
        best: tuple[int, int, int, int] | None = None
        ties = 0
        rng = self.rng
        cost = self.cost
        exchanges: list[tuple[int, int]] = []
        for jb, B in enumerate(tables):
            if jb == ja:
                continue
            join_a = 0
            for y in B:
                join_a += up[meet[base_a + y]]
            fairness_flip = big[jb] != big_a
            for b in B:
                if b in locked:
                    continue
                base_b = b * n
                delta = leave_a + join_a - up[meet[base_a + b]]
                for y in B:
                    if y != b:
                        delta += down[meet[base_b + y]]
                for x in others:
                    delta += up[meet[base_b + x]]
                guide = delta
                if fairness_flip:
                    eb = exposure[b]
                    change = 2 * (eb - ea) + 2 if big_a else 2 * (ea - eb) + 2
                    if window is not None:
                        new_a, new_b = (ea - 1, eb + 1) if big_a else (ea + 1, eb - 1)
                        if not (low <= new_a <= high and low <= new_b <= high):
                            if tabu_r[b] <= it:
                                exchanges.append((b, delta))
                            continue
                    delta += fair * change
                    guide += steer * change
                else:
                    guide = delta
                if tabu_r[b] > it and cost + delta >= best_cost:
                    continue
                if best is None or guide < best[0]:
                    best, ties = (guide, delta, b, -1), 1
                elif guide == best[0]:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        best = (guide, delta, b, -1)
        return self._best_exchange(r, a, big_a, exchanges, best, ties)

    def _best_exchange(
        self,
        r: int,
        a: int,
        big_a: bool,
        exchanges: list[tuple[int, int]],
        best: tuple[int, int, int, int] | None,
        ties: int,
    ) -> tuple[int, int, int, int] | None:
        """The scan's best move after also trying the exchanges it set aside."""
        rng = self.rng
        for b, pairs in exchanges:
            if best is not None and pairs >= best[0] + self.weights.repeat:
                continue  # the first half alone is already far worse than the best swap
            found = self._exchange(r, a, b, big_a)
            if found is None:
                continue
            delta, r2 = found
            if best is None or delta < best[0]:
                best, ties = (delta, delta, b, r2), 1
            elif delta == best[0]:
                ties += 1
                if rng.randrange(ties) == 0:
                    best = (delta, delta, b, r2)
        return best

    def _exchange(self, r: int, a: int, b: int, big_a: bool) -> tuple[int, int] | None:
        """Exact cost change of swapping a, b in round r and back in the best round r2
        where the one now at the 5-table sits at a 4-table and vice versa."""
        first = self.swap_delta(r, a, b)
        self.apply_swap(r, a, b, first)
        # The player who just gained a 5-table seat gives one back in another round.
        gained, lost = (b, a) if big_a else (a, b)
        best: tuple[int, int] | None = None
        for r2, where in enumerate(self.where):
            if r2 == r or gained in self.locked[r2] or lost in self.locked[r2]:
                continue
            big = self.big[r2]
            if big[where[gained]] and not big[where[lost]]:
                second = self.swap_delta(r2, gained, lost)
                if best is None or second < best[0]:
                    best = (second, r2)
        self.apply_swap(r, a, b, -first)
        if best is None:
            return None
        return first + best[0], best[1]

    def apply_swap(self, r: int, a: int, b: int, delta: int) -> None:
        n, meet = self.n, self.meet
        where = self.where[r]
        ja, jb = where[a], where[b]
        A, B = self.rounds[r][ja], self.rounds[r][jb]
        for x in A:
            if x != a:
                meet[a * n + x] -= 1
                meet[x * n + a] -= 1
                meet[b * n + x] += 1
                meet[x * n + b] += 1
        for y in B:
            if y != b:
                meet[b * n + y] -= 1
                meet[y * n + b] -= 1
                meet[a * n + y] += 1
                meet[y * n + a] += 1
        A[A.index(a)] = b
        B[B.index(b)] = a
        where[a], where[b] = jb, ja
        big = self.big[r]
        if big[ja] != big[jb]:
            step = 1 if big[jb] else -1
            exposure = self.exposure
            self.squares -= exposure[a] ** 2 + exposure[b] ** 2
            exposure[a] += step
            exposure[b] -= step
            self.squares += exposure[a] ** 2 + exposure[b] ** 2
        self.cost += delta

    def snapshot(self) -> Rounds:
        return [[list(table) for table in tables] for tables in self.rounds]

    def pair_part(self) -> int:
        """The cost without the fairness term: conflicts, repeats and triples."""
        return self.cost - self.weights.fair * self.squares

    def repair_fairness(self, spread: int) -> int:
        """Swap 5-table seats from the most exposed to the least exposed players until
        max − min ≤ ``spread``, each time the swap that costs fewest meetings.

        Every swap lowers Σ e² (the two exposures differ by at least 2), so this ends; a
        player with e_max and one with e_min ≤ e_max − 2 always share a round where the
        first is at a big table and the second is not — unless pins lock them. Returns the
        number of swaps made.
        """
        swaps = 0
        exposure = self.exposure
        while max(exposure) - min(exposure) > spread:
            high, low = max(exposure), min(exposure)
            best: tuple[int, int, int, int] | None = None
            for r, tables in enumerate(self.rounds):
                big, locked = self.big[r], self.locked[r]
                tops = [
                    a
                    for j, table in enumerate(tables)
                    if big[j]
                    for a in table
                    if exposure[a] == high and a not in locked
                ]
                if not tops:
                    continue
                bottoms = [
                    b
                    for j, table in enumerate(tables)
                    if not big[j]
                    for b in table
                    if exposure[b] <= high - 2 and b not in locked
                ]
                for a in tops:
                    for b in bottoms:
                        delta = self.swap_delta(r, a, b)
                        key = (delta + (exposure[b] - low), r, a, b)
                        if best is None or key < best:
                            best = key
            if best is None:
                break
            _, r, a, b = best
            self.apply_swap(r, a, b, self.swap_delta(r, a, b))
            swaps += 1
        return swaps

    def run(
        self,
        *,
        floor: int,
        deadline: float,
        max_iterations: int | None,
        stall_iterations: int | None,
        pair_floor: int | None = None,
        watch: Watch | None = None,
    ) -> SearchResult:
        """Search until the cost reaches ``floor`` (the lower bound) or a budget runs out.

        With ``pair_floor`` the search also stops once the cost without fairness reaches
        it: the caller then balances 5-table seats in a second, fairness-preserving run.
        ``watch`` hears of every improvement and may stop the search ("stopped").
        """
        rounds_count = len(self.rounds)
        tabu = [[0] * self.n for _ in range(rounds_count)]
        hot: list[tuple[int, int]] = [
            (r, j) for r in range(rounds_count) for j in range(len(self.rounds[r]))
        ]
        hot_set = set(hot)
        best_cost = self.cost
        best_rounds = self.snapshot()
        last_improvement = 0
        it = 0
        stopped_by = "bound"
        perturb_every = max(200, 20 * self.n)
        since_perturb = 0
        # One table a round (a final): no swap changes who meets whom, nothing to search.
        if self.cost > floor and all(len(tables) < 2 for tables in self.rounds):
            return SearchResult(best_rounds, best_cost, 0, "stall")
        while self.cost > floor:
            if pair_floor is not None and self.pair_part() <= pair_floor:
                stopped_by = "bound"
                break
            if max_iterations is not None and it >= max_iterations:
                stopped_by = "iterations"
                break
            if stall_iterations is not None and it - last_improvement >= stall_iterations:
                stopped_by = "stall"
                break
            if it & 127 == 0:
                if time.perf_counter() > deadline:
                    stopped_by = "time"
                    break
                if watch is not None and watch.should_stop():
                    stopped_by = "stopped"
                    break
            it += 1
            move = self._choose(hot, hot_set, tabu, it, best_cost)
            if move is None:
                if not hot:
                    stopped_by = "stall"  # no conflict left that a swap could touch
                    break
                continue
            self._make(move, tabu, it, hot, hot_set)
            since_perturb += 1
            if self.cost < best_cost:
                best_cost = self.cost
                best_rounds = self.snapshot()
                last_improvement = it
                since_perturb = 0
                if watch is not None:
                    watch.improved(best_rounds)
            elif since_perturb >= perturb_every:
                since_perturb = 0
                self._perturb(hot, hot_set)
        if self.cost < best_cost:
            best_cost, best_rounds = self.cost, self.snapshot()
        return SearchResult(best_rounds, best_cost, it, stopped_by)

    def _choose(
        self,
        hot: list[tuple[int, int]],
        hot_set: set[tuple[int, int]],
        tabu: list[list[int]],
        it: int,
        best_cost: int,
    ) -> tuple[int, int, int, int, int, int] | None:
        """(guide, delta, r, a, b, r2): the best swap of a few conflicted players.

        Looking at several players and taking the best of all their swaps stalls on
        plateaus far less often than one random player per step (min-conflicts).
        """
        move = None
        for _ in range(self.breadth):
            choice = self._pick(hot, hot_set, tabu, it)
            if choice is None:
                break
            r_try, a_try = choice
            found = self.swap_gain_scan(r_try, a_try, it, tabu, best_cost)
            if found is not None and (move is None or found[0] < move[0]):
                move = (found[0], found[1], r_try, a_try, found[2], found[3])
        return move

    def _make(
        self,
        move: tuple[int, int, int, int, int, int],
        tabu: list[list[int]],
        it: int,
        hot: list[tuple[int, int]],
        hot_set: set[tuple[int, int]],
    ) -> None:
        """Apply a chosen swap (or exchange) and forbid its players to move back for a
        few iterations in the rounds it touched."""
        _, delta, r, a, b, r2 = move
        tenure = 4 + self.rng.randrange(8)
        if r2 < 0:
            self.apply_swap(r, a, b, delta)
        else:
            first = self.swap_delta(r, a, b)
            self.apply_swap(r, a, b, first)
            self.apply_swap(r2, a, b, delta - first)
            tabu[r2][a] = tabu[r2][b] = it + tenure
            self._heat(r2, a, b, hot, hot_set)
        tabu[r][a] = tabu[r][b] = it + tenure
        self._heat(r, a, b, hot, hot_set)

    def _pick(
        self,
        hot: list[tuple[int, int]],
        hot_set: set[tuple[int, int]],
        tabu: list[list[int]],
        it: int,
    ) -> tuple[int, int] | None:
        rng = self.rng
        while hot:
            index = rng.randrange(len(hot))
            r, j = hot[index]
            movable = [p for p in self.conflicted(r, j) if p not in self.locked[r]]
            if not movable:
                hot[index] = hot[-1]
                hot.pop()
                hot_set.discard((r, j))
                continue
            free = [p for p in movable if tabu[r][p] <= it]
            return r, rng.choice(free or movable)
        # No meeting conflicts left: work on players above the fair share of big tables.
        top = max(self.exposure)
        if top - min(self.exposure) <= 1:
            return None
        over = [
            (r, p)
            for r, tables in enumerate(self.rounds)
            for j, table in enumerate(tables)
            if self.big[r][j]
            for p in table
            if self.exposure[p] == top and p not in self.locked[r]
        ]
        return rng.choice(over) if over else None

    def _heat(
        self, r: int, a: int, b: int, hot: list[tuple[int, int]], hot_set: set[tuple[int, int]]
    ) -> None:
        # Pair counts of a and b changed, so any table holding a or b may have gained or
        # lost a conflict; stale entries are dropped lazily by _pick.
        for rr, where in enumerate(self.where):
            for p in (a, b):
                key = (rr, where[p])
                if key not in hot_set:
                    hot_set.add(key)
                    hot.append(key)

    def _perturb(self, hot: list[tuple[int, int]], hot_set: set[tuple[int, int]]) -> None:
        """A few random swaps to leave a basin the tabu list alone cannot escape."""
        rng = self.rng
        for _ in range(max(2, len(self.rounds[0]) // 2)):
            r = rng.randrange(len(self.rounds))
            tables = self.rounds[r]
            if len(tables) < 2:
                return
            ja, jb = rng.sample(range(len(tables)), 2)
            a = rng.choice(tables[ja])
            b = rng.choice(tables[jb])
            if a in self.locked[r] or b in self.locked[r]:
                continue
            delta = self.swap_delta(r, a, b)
            if self.window is not None and self.big[r][ja] != self.big[r][jb]:
                step = -1 if self.big[r][ja] else 1
                ea, eb = self.exposure[a] + step, self.exposure[b] - step
                low, high = self.window
                if not (low <= ea <= high and low <= eb <= high):
                    continue
            self.apply_swap(r, a, b, delta)
            self._heat(r, a, b, hot, hot_set)

    def swap_delta(self, r: int, a: int, b: int) -> int:
        """Cost change of one specific swap (the scan above computes many at once)."""
        n, meet, up, down = self.n, self.meet, self.up, self.down
        ja, jb = self.where[r][a], self.where[r][b]
        delta = 0
        for x in self.rounds[r][ja]:
            if x != a:
                delta += down[meet[a * n + x]] + up[meet[b * n + x]]
        for y in self.rounds[r][jb]:
            if y != b:
                delta += down[meet[b * n + y]] + up[meet[a * n + y]]
        big = self.big[r]
        if big[ja] != big[jb]:
            ea, eb = self.exposure[a], self.exposure[b]
            delta += self.weights.fair * (2 * (eb - ea) + 2 if big[ja] else 2 * (ea - eb) + 2)
        return delta


class _Sparse(dict[int, int]):
    """Pair counts for very large rosters: missing pairs read as zero without storing."""

    def __missing__(self, key: int) -> int:
        return 0


def _keys(history: dict[int, int], forbidden: set[int]) -> list[int]:
    return sorted(set(history) | forbidden)
