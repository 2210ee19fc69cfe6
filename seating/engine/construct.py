"""Constructive starting seatings: zero repeats by algebra, before any search.

Players are laid out in a grid with one row per seat of the largest table and one column
per table. Round r seats, at table j, the cell (i, j + a_i · b_r) of every row i, where a_i
and b_r are distinct elements of a ring of size t = number of tables. Two cells of rows i, i'
meet in rounds r and r' only if (a_i − a_i')(b_r − b_r') = 0, so in a field (or in Z_t when
no product of small differences is a multiple of t) nobody meets anyone twice. Cells of one
row never meet at all, which is why whole families (and keep-apart groups) are packed into
single rows: with three rounds and large N this alone gives zero repeats and zero conflicts.

When rows are full and t is a multiple of the table size, one more round comes free: rows
are exactly the pairs that never met, so splitting each row into tables adds a round (for
16 = AG(2,4) and 25 = AG(2,5) this is the affine plane's last parallel class; for 32
players it gives the 9th round of the social golfer problem 8-4-9). That round does put
row-mates together, so it is used only when more rounds are wanted than the ring supplies.

When the pattern has 5-tables (N = 4t + k, k = 1..3), a 5th row would seat the same k
players at a 5-table every round. Instead the grid keeps 4 rows and gets t + 1 columns, with
its 4 − k holes spread over the last row; each round one short group is dissolved and its
players become 5th (or 4th) players elsewhere (``complete_rounds``), so the 5-table seats
move from round to round and exposure stays within one of fair.

Rounds beyond what the algebra supplies are built greedily and left to the local search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

Rounds = list[list[list[int]]]


def _prime_power(q: int) -> tuple[int, int] | None:
    if q < 2:
        return None
    for p in range(2, q + 1):
        if q % p == 0:
            k, rest = 0, q
            while rest % p == 0:
                rest //= p
                k += 1
            return (p, k) if rest == 1 else None
    return None


@dataclass(frozen=True)
class Ring:
    """Addition and multiplication tables of Z_t or GF(t), elements numbered 0..t−1."""

    size: int
    add: tuple[tuple[int, ...], ...]
    mul: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=32)
def galois_field(q: int) -> Ring | None:
    """GF(q) for a prime power q ≤ 256 (larger tables cost more than they are worth)."""
    found = _prime_power(q)
    if found is None or q > 256:
        return None
    p, k = found
    if k == 1:
        return Ring(
            q,
            tuple(tuple((x + y) % q for y in range(q)) for x in range(q)),
            tuple(tuple((x * y) % q for y in range(q)) for x in range(q)),
        )

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(k)]

    def number(ds: Sequence[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    add = tuple(
        tuple(
            number([(a + b) % p for a, b in zip(digits(x), digits(y), strict=True)])
            for y in range(q)
        )
        for x in range(q)
    )
    # Try monic polynomials x^k + c(x) until the multiplication table is a field's one.
    for tail in range(q):
        modulus = digits(tail)

        def times(x: int, y: int, modulus: list[int] = modulus) -> int:
            product = [0] * (2 * k - 1)
            for i, a in enumerate(digits(x)):
                for j, b in enumerate(digits(y)):
                    product[i + j] = (product[i + j] + a * b) % p
            for degree in range(2 * k - 2, k - 1, -1):
                lead = product[degree]
                if lead:
                    product[degree] = 0
                    for i, c in enumerate(modulus):
                        product[degree - k + i] = (product[degree - k + i] - lead * c) % p
            return number(product[:k])

        mul = tuple(tuple(times(x, y) for y in range(q)) for x in range(q))
        if all(1 in mul[x] for x in range(1, q)):
            return Ring(q, add, mul)
    return None


def _zt_rounds(t: int, rows: int) -> int:
    if rows > t:
        return 1
    rounds = 1
    while rounds < t and all((d1 * rounds) % t for d1 in range(1, rows)):
        rounds += 1
    return rounds


def _ring_for(t: int, rows: int, wanted: int) -> tuple[Ring | None, int]:
    """Pick Z_t (returned as None: plain modular arithmetic, any t) or GF(t) (prime
    powers up to 256), whichever supplies more rounds."""
    zt = _zt_rounds(t, rows)
    if zt >= wanted or rows > t:
        return None, zt
    field = galois_field(t)
    if field is not None and t > zt:
        return field, t
    return None, zt


def pack_rows(
    components: Sequence[Sequence[int]], capacities: Sequence[int], rng: random.Random
) -> list[list[int]]:
    """Place each must-not-meet component inside one row, largest first, into the row with
    the most room; a component larger than any row is split over rows (the search repairs)."""
    rows: list[list[int]] = [[] for _ in capacities]
    room = list(capacities)
    order = sorted(components, key=lambda c: (-len(c), c[0]))
    for component in order:
        members = list(component)
        if len(members) > 1:
            target = max(range(len(room)), key=lambda i: (room[i], -i))
            if room[target] >= len(members):
                rows[target].extend(members)
                room[target] -= len(members)
                continue
        for player in members:
            target = max(range(len(room)), key=lambda i: (room[i], -i))
            rows[target].append(player)
            room[target] -= 1
    # Family members sit next to each other in a row; the row-split round deals a row out
    # by stride, so neighbours land at different tables there too.
    del rng
    return rows


def grid_shape(n: int, sizes: Sequence[int], rounds: int) -> tuple[int, int]:
    """(rows, columns) of the grid: the shape whose ring supplies the most of the wanted
    rounds, then the one with fewest groups to dissolve (columns beyond the table count).

    Rows are a table size of the pattern (usually 4), so most groups are whole tables; when
    the pattern mixes 4s and a few 5s, a 4-row grid with one column more than there are
    tables beats a 5-row one: its ring has more rounds, and the 5th seats are then chosen
    per round (``complete_rounds``) instead of being the same partial row every round.
    """
    t = len(sizes)
    best: tuple[tuple[int, bool, int], tuple[int, int]] | None = None
    for rows in sorted(set(sizes)):
        narrowest = max(t, -(-n // rows))
        for columns in range(narrowest, narrowest + 3):
            supported = _ring_for(columns, rows, rounds)[1]
            if _row_split_ok(n, sizes, rows, columns):
                supported += 1
            # A partial row of 5th seats is the same players at 5-tables every round:
            # only a uniform pattern may use rows other than the standard 4.
            unfair = rows != 4 and len(set(sizes)) > 1
            key = (-min(supported, rounds), unfair, columns - t)
            if best is None or key < best[0]:
                best = (key, (rows, columns))
    assert best is not None
    return best[1]


def _row_split_ok(n: int, sizes: Sequence[int], rows: int, columns: int) -> bool:
    uniform = len(set(sizes)) == 1 and sizes[0] == rows and len(sizes) == columns
    return uniform and n == rows * columns and columns % rows == 0


def transversal(
    n: int,
    sizes: Sequence[int],
    rounds: int,
    components: Sequence[Sequence[int]],
    rng: random.Random,
) -> tuple[Rounds, int]:
    """Grid construction; returns the rounds it could build and their count.

    A round is a list of groups, one per grid column: where the grid has holes, or has
    more columns than the pattern has tables, groups do not match the table sizes yet —
    ``complete_rounds`` turns them into tables.
    """
    rows_count, t = grid_shape(n, sizes, rounds)
    capacities = []
    left = n
    for _ in range(rows_count):
        capacities.append(min(t, left))
        left -= capacities[-1]
    ring, supported = _ring_for(t, rows_count, rounds)
    rows = pack_rows(components, capacities, rng)
    cells = [_spread(len(row), t) for row in rows]
    built: Rounds = []
    for r in range(min(rounds, supported)):
        tables: list[list[int]] = [[] for _ in range(t)]
        for i, row in enumerate(rows):
            # Cell (i, c) sits at table j with c = j + a_i·b_r, i.e. j = c − a_i·b_r.
            if ring is None:
                step = (i * r) % t
                for c, player in zip(cells[i], row, strict=True):
                    tables[(c - step) % t].append(player)
            else:
                step = ring.mul[i][r]
                for c, player in zip(cells[i], row, strict=True):
                    tables[_subtract(ring, c, step)].append(player)
        built.append(tables)
    if len(built) < rounds and _row_split_ok(n, sizes, rows_count, t):
        per_row = t // rows_count
        tables = []
        for row in rows:
            tables.extend(row[k::per_row] for k in range(per_row))
        built.append(tables)
    return built, len(built)


def complete_rounds(
    built: Rounds,
    n: int,
    sizes: Sequence[int],
    meet: list[int] | dict[int, int],
    rng: random.Random,
) -> Rounds:
    """Turn each round's grid groups into tables of exactly the pattern's sizes.

    Surplus groups (the grid has one column more than there are tables when the pattern
    has 5-tables) are dissolved, smallest first, then those whose players have had fewest
    5-table rounds and moves so far, so the movers differ from round to round. The
    movers are then placed by a small branch and bound (``_place_movers``): fewest
    meetings with people already met — counting every grid meeting of *all* rounds, so
    a mover never walks into a later round's tablemate — then least added to Σ e²
    (e = rounds at a 5-table so far), so the 5th seats go to whoever has had fewest.

    ``meet`` (flat a·n + b) holds history and forbidden-pair costs on entry and is updated
    with every meeting of the returned rounds.
    """
    top = max(sizes)
    grids = [[list(g) for g in groups if g] for groups in built]
    # Every grid meeting of every round counts from the start, so no mover walks into a
    # tablemate of a later round; a dissolved group's meetings are taken back when it goes.
    for groups in grids:
        for group in groups:
            for i, a in enumerate(group):
                _meet_all(meet, n, group[:i], a, 1)
    exposure = [0] * n
    moved = [0] * n
    out: Rounds = []
    for groups in grids:
        movers: list[int] = []
        extra = len(groups) - len(sizes)
        if extra > 0:
            # Movers usually end at a 5-table: dissolve groups of players who have had
            # the fewest 5-table rounds (and moves) so far.
            order = sorted(
                range(len(groups)),
                key=lambda g: (
                    len(groups[g]),
                    sum(exposure[p] for p in groups[g]),
                    sum(moved[p] for p in groups[g]),
                    rng.random(),
                ),
            )
            dropped = set(order[:extra])
            for g in sorted(dropped):
                group = groups[g]
                for i, a in enumerate(group):
                    _meet_all(meet, n, group[:i], a, -1)
                movers.extend(group)
            groups = [group for g, group in enumerate(groups) if g not in dropped]
        while len(groups) < len(sizes):
            groups.append([])
        # A group larger than any table sheds its last members.
        for group in groups:
            while len(group) > top:
                shed = group.pop()
                _meet_all(meet, n, group, shed, -1)
                movers.append(shed)
        for p in movers:
            moved[p] += 1
        if movers:
            _place_movers(groups, movers, sizes, meet, exposure, n, rng)
        for group in groups:
            if len(group) > STANDARD:
                for p in group:
                    exposure[p] += 1
        out.append(sorted(groups, key=len, reverse=True))
    return out


STANDARD = 4  # table size above which a table counts as a "5-table" for fairness
_CANDIDATES = 6  # full groups tried per mover (every short group is always tried)
_NODE_BUDGET = 20_000  # branch-and-bound nodes per round before keeping the best found


def _meet_all(
    meet: list[int] | dict[int, int], n: int, table: Sequence[int], p: int, step: int = 1
) -> None:
    base = p * n
    for q in table:
        meet[base + q] += step
        meet[q * n + p] += step


def _place_movers(
    groups: list[list[int]],
    movers: list[int],
    sizes: Sequence[int],
    meet: list[int] | dict[int, int],
    exposure: list[int],
    n: int,
    rng: random.Random,
) -> None:
    """Add ``movers`` to ``groups`` so that the group sizes become the pattern's.

    Cost of a placement: (meetings with people already met, then the Σ e² added by tables
    that end above the standard size), minimised exactly by depth-first branch and bound
    over each mover's few best groups — a greedy one-at-a-time choice walks into dead ends
    where the last mover is forced into a group it has met.
    """
    ledger = _SizeLedger(groups, sizes)
    order = sorted(movers, key=lambda x: (-exposure[x], rng.random()))
    placement = _MoverPlacement(groups, order, meet, exposure, n, ledger)
    plan = placement.best(_mover_options(placement, rng)) or placement.any_fit()
    for x, j in zip(order, plan, strict=True):
        _meet_all(meet, n, groups[j], x)
        groups[j].append(x)


class _SizeLedger:
    """How many groups reach each size, against how many tables of at least that size the
    pattern has: a mover may join a group only while that stays within the pattern."""

    def __init__(self, groups: list[list[int]], sizes: Sequence[int]) -> None:
        self.top = top = max(sizes)
        self.need = [0] * (top + 2)  # need[s]: pattern tables of size ≥ s
        for size in sizes:
            for s in range(size + 1):
                self.need[s] += 1
        self.have = [0] * (top + 2)  # have[s]: groups of size ≥ s now
        for group in groups:
            for s in range(min(len(group), top + 1) + 1):
                self.have[s] += 1

    def fits_after(self, group: list[int]) -> bool:
        s = len(group) + 1
        return s <= self.top and self.have[s] + 1 <= self.need[s]

    def grow(self, group: list[int], step: int) -> None:
        """Count ``group`` one seat larger (step 1, before appending) or undo it (step −1,
        after popping)."""
        self.have[len(group) + 1] += step


class _MoverPlacement:
    """Branch and bound over the movers' options (``_place_movers``)."""

    WEIGHT = 1 << 20  # one meeting outweighs any fairness difference

    def __init__(
        self,
        groups: list[list[int]],
        order: list[int],
        meet: list[int] | dict[int, int],
        exposure: list[int],
        n: int,
        ledger: _SizeLedger,
    ) -> None:
        self.groups, self.order, self.meet = groups, order, meet
        self.exposure, self.n, self.ledger = exposure, n, ledger
        self.best_cost: int | None = None
        self.best_plan: list[int] = []
        self.plan: list[int] = []
        self.budget = _NODE_BUDGET

    def step(self, x: int, group: Sequence[int]) -> int:
        """Cost of x joining ``group``: meetings first, then the Σ e² it adds (the whole
        table turns "big" at size STANDARD + 1)."""
        base = x * self.n
        cost = sum(self.meet[base + y] for y in group) * self.WEIGHT
        if len(group) + 1 > STANDARD:
            exposure = self.exposure
            cost += 2 * exposure[x] + 1
            if len(group) == STANDARD:
                cost += sum(2 * exposure[y] + 1 for y in group)
        return cost

    def best(self, options: list[list[int]]) -> list[int] | None:
        self.options = options
        self._dfs(0, 0)
        return self.best_plan if self.best_cost is not None else None

    def _dfs(self, i: int, cost: int) -> None:
        if self.best_cost is not None and cost >= self.best_cost:
            return
        if i == len(self.order):
            self.best_cost, self.best_plan = cost, list(self.plan)
            return
        self.budget -= 1
        if self.budget < 0 and self.best_cost is not None:
            return
        x, groups, ledger = self.order[i], self.groups, self.ledger
        steps = sorted(
            (self.step(x, groups[j]), j) for j in self.options[i] if ledger.fits_after(groups[j])
        )
        for step, j in steps:
            ledger.grow(groups[j], 1)
            groups[j].append(x)
            self.plan.append(j)
            self._dfs(i + 1, cost + step)
            self.plan.pop()
            groups[j].pop()
            ledger.grow(groups[j], -1)

    def any_fit(self) -> list[int]:
        """Candidate lists too narrow (a pathological grid): fill any group that fits.
        Some group always can while have[s] <= need[s] holds for every s."""
        groups, plan = self.groups, []
        for x in self.order:
            j = next(j for j in range(len(groups)) if self.ledger.fits_after(groups[j]))
            self.ledger.grow(groups[j], 1)
            groups[j].append(x)
            plan.append(j)
        for x, j in zip(self.order, plan, strict=True):
            groups[j].remove(x)
        return plan


def _mover_options(placement: _MoverPlacement, rng: random.Random) -> list[list[int]]:
    """Each mover's candidate groups: every short group, and the ``_CANDIDATES`` cheapest
    full ones (the branch and bound stays small, and a full group is rarely the answer)."""
    groups, top = placement.groups, placement.ledger.top
    options: list[list[int]] = []
    for x in placement.order:
        scored = sorted(
            (placement.step(x, group), rng.random(), j)
            for j, group in enumerate(groups)
            if len(group) < top
        )
        full = 0
        mine = []
        for _, _, j in scored:
            if len(groups[j]) < STANDARD:
                mine.append(j)
            elif full < _CANDIDATES:
                mine.append(j)
                full += 1
        options.append(mine)
    return options


def _spread(length: int, columns: int) -> list[int]:
    """Columns of a row holding ``length`` players, its holes spread evenly.

    Holes mark the short groups of every round, and the movers of a dissolved group fill
    the other short groups. Holes in neighbouring columns would make those groups hold
    players who met each other in another round (cells c and c + d of rows i, i' meet
    when d = (a_i − a_i')(b_r − b_r')); spread out, short groups are strangers.
    """
    holes = columns - length
    if holes <= 0:
        return list(range(columns))
    empty = {(2 * m + 1) * columns // (2 * holes) for m in range(holes)}
    return [c for c in range(columns) if c not in empty]


@lru_cache(maxsize=64)
def _negation(ring: Ring) -> tuple[int, ...]:
    return tuple(ring.add[x].index(0) for x in range(ring.size))


def _subtract(ring: Ring, x: int, y: int) -> int:
    return ring.add[x][_negation(ring)[y]]


def greedy_round(
    n: int,
    sizes: Sequence[int],
    meet: list[int] | dict[int, int],
    rng: random.Random,
) -> list[list[int]]:
    """One round built player by player at the open table where they add the least cost.

    ``meet`` is the flat pair-cost matrix (index a·n + b): a player prefers a table of
    people with a low sum. For large rosters we only sample a few tables per player: the
    full scan is quadratic and the search fixes the rest anyway.
    """
    order = list(range(n))
    rng.shuffle(order)
    tables: list[list[int]] = [[] for _ in sizes]
    open_tables = list(range(len(sizes)))
    sample = len(sizes) if len(sizes) <= 64 else 16
    for player in order:
        base = player * n
        candidates = open_tables if len(open_tables) <= sample else rng.sample(open_tables, sample)
        best = min(
            candidates,
            key=lambda j: (sum(meet[base + x] for x in tables[j]), len(tables[j]) - sizes[j], j),
        )
        tables[best].append(player)
        if len(tables[best]) == sizes[best]:
            open_tables.remove(best)
    return tables


def polish_round(
    tables: list[list[int]],
    n: int,
    meet: list[int] | dict[int, int],
    rng: random.Random,
    passes: int = 200,
) -> None:
    """Improve one round against fixed earlier meetings by swaps (steepest descent, with a
    random sideways step on plateaus), in place.

    A greedy round walks into the cheap tables first and leaves the last players a bad
    choice; on top of a zero-repeat design the best extra round follows the "never met"
    graph closely (24 players after 7 design rounds: one never-met triangle per table,
    18 repeats), which a few passes of swaps find and the greedy does not.
    """

    def join(p: int, table: list[int], skip: int) -> int:
        base = p * n
        return sum(meet[base + x] for x in table if x != skip)

    for _ in range(passes):
        best: tuple[int, float, int, int, int, int] | None = None
        for ja, A in enumerate(tables):
            for jb in range(ja + 1, len(tables)):
                B = tables[jb]
                for i, a in enumerate(A):
                    stay_a = join(a, A, a)
                    for k, b in enumerate(B):
                        delta = join(a, B, b) + join(b, A, a) - stay_a - join(b, B, b)
                        key = (delta, rng.random(), ja, i, jb, k)
                        if best is None or key < best:
                            best = key
        if best is None or best[0] > 0:
            return
        delta, _, ja, i, jb, k = best
        if delta == 0 and rng.random() < 0.5:
            return
        tables[ja][i], tables[jb][k] = tables[jb][k], tables[ja][i]
