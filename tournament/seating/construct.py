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


def transversal(
    n: int,
    sizes: Sequence[int],
    rounds: int,
    components: Sequence[Sequence[int]],
    rng: random.Random,
) -> tuple[Rounds, int]:
    """Grid construction; returns the rounds it could build (sizes may be off by a player
    where the grid has holes — the caller fits them to the pattern) and their count."""
    t = len(sizes)
    rows_count = max(sizes)
    capacities = []
    left = n
    for _ in range(rows_count):
        capacities.append(min(t, left))
        left -= capacities[-1]
    ring, supported = _ring_for(t, rows_count, rounds)
    rows = pack_rows(components, capacities, rng)
    built: Rounds = []
    for r in range(min(rounds, supported)):
        tables: list[list[int]] = [[] for _ in range(t)]
        for i, row in enumerate(rows):
            # Cell (i, c) sits at table j with c = j + a_i·b_r, i.e. j = c − a_i·b_r.
            if ring is None:
                step = (i * r) % t
                for c, player in enumerate(row):
                    tables[(c - step) % t].append(player)
            else:
                step = ring.mul[i][r]
                for c, player in enumerate(row):
                    tables[_subtract(ring, c, step)].append(player)
        built.append(tables)
    uniform = len(set(sizes)) == 1
    if len(built) < rounds and uniform and n == rows_count * t and t % rows_count == 0:
        per_row = t // rows_count
        tables = []
        for row in rows:
            tables.extend(row[k::per_row] for k in range(per_row))
        built.append(tables)
    return built, len(built)


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
