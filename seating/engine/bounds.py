"""A counting lower bound on repeat meetings, so a report can say how far from optimal it is.

Definitions (shared with the report and the checker): a *repeat meeting* is one meeting in
this seating between two players who had already met — in the supplied history or in an
earlier round of this seating. A pair with ``h`` history meetings and ``s`` meetings here
contributes ``s`` if ``h >= 1`` and ``max(0, s - 1)`` otherwise.

The bound, from one player's point of view: player p sits with ``d_p`` = Σ over rounds of
(own table size − 1) people, but only ``c_p = N − 1 − H_p`` of them can be new (``H_p`` =
distinct history partners in the roster). Every meeting beyond ``c_p`` is a repeat seen from
p, and each repeat meeting is seen from exactly its two ends, so

    repeats >= ceil( Σ_p max(0, d_p − c_p) / 2 ).

``d_p`` depends on how often p sits at a larger table, which the seating chooses, so we take
the minimum over every split of the fixed total D = R · Σ_t s_t (s_t − 1) with each d_p in
[L, U] (L, U = R·(smallest − 1), R·(largest − 1)). That minimum is attained by giving each
player up to max(L, min(c_p, U)) and letting only what is left over spill into excess:

    excess = Σ_p max(0, L − c_p) + max(0, D − Σ_p max(L, min(c_p, U))).

Worked example (also a unit test): N = 8, two tables of 4, 3 rounds. d_p = 9, c_p = 7,
so excess = 8 · 2 = 16 and the bound is 8. It is tight: give each round's side as a bit
and use the four vectors 111, 001, 010, 100 twice each; the duplicate pairs meet 3 times
(2 repeats each, 4 pairs → 8) and every other pair exactly once.

A second, independent bound counts table *pairs* instead (pigeonhole): with t tables per
round, any two rounds r, r' put each player in one of t² boxes (table in r, table in r').
Two players in one box meet in both rounds, so each pair of rounds has at least
Σ_box C(n_box, 2) ≥ rem · C(q + 1, 2) + (t² − rem) · C(q, 2) such "collisions"
(N = q · t² + rem, boxes as even as possible). A pair meeting s ≤ R times makes C(s, 2)
collisions and at least s − 1 = C(s, 2) · 2 / s ≥ C(s, 2) · 2 / R repeats, so

    repeats >= ceil( 2 · C(R, 2) · collisions_per_round_pair / R ).

It is what makes 17–19 players over 3 rounds honest: 4 tables give only 16 boxes, so
N = 16 + m players force m collisions per pair of rounds and at least 2m repeats (a pair
meeting in all three rounds turns 3 collisions into 2 repeats). The counting bound says 0
there. ``repeat_lower_bound`` returns the largest of these bounds.

Households (and keep-apart pairs) sharpen the first bound for seatings without a family
conflict, which is what the engine aims for. A household member cannot meet their own
household, so its ``c_p`` shrinks by the household's size − 1 (it is counted with the
history partners, as one set). And the members' excess cannot be shared among themselves:
let x_p = Σ_q r_pq be p's repeats (r_pq the repeats of pair pq), so Σ_p x_p = 2 · repeats
and x_p ≥ d_p − c_p ≥ L − c_p. For a household S no r_pq has both ends in S, so
Σ_{p∈S} x_p counts distinct repeats and

    repeats >= Σ_{p∈S} max(0, L − c_p)        for every household S.

Worked example (a unit test): 16 players, 5 rounds of 4 tables of 4, one household of
four. A member meets 15 people in 5 rounds but only the 12 outsiders are allowed, so each
member has 3 repeats with outsiders, 12 in all: at least 12 repeats, where the counting
bound alone (halving 4 · 3) says 6.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from itertools import combinations


def repeat_lower_bound(
    n: int,
    rounds: int,
    sizes: Sequence[int],
    history_partners: Sequence[int] | None = None,
    households: Sequence[Sequence[int]] = (),
) -> int:
    """Lower bound on repeat meetings for ``n`` players, ``rounds`` rounds of ``sizes``.

    ``history_partners[p]`` is the number of distinct roster members p cannot meet anew:
    already met, or barred (own household, keep-apart). ``households`` lists groups of
    player indices who never share a table; with them (or barred partners) the bound holds
    for seatings without a family conflict.
    """
    if n <= 1 or rounds <= 0 or not sizes:
        return 0
    partners = list(history_partners) if history_partners is not None else [0] * n
    if len(partners) != n:
        raise ValueError("history_partners must have one entry per player")
    total = rounds * sum(size * (size - 1) for size in sizes)
    low = rounds * (min(sizes) - 1)
    high = rounds * (max(sizes) - 1)
    excess = 0
    absorbed = 0
    for known in partners:
        capacity = max(0, n - 1 - known)
        excess += max(0, low - capacity)
        absorbed += max(low, min(capacity, high))
    excess += max(0, total - absorbed)
    apart = max(
        (sum(max(0, low - (n - 1 - partners[p])) for p in group) for group in households),
        default=0,
    )
    pigeonhole = pigeonhole_bound(n, rounds, len(sizes))
    if nine_box_tight(n, rounds, sizes) is False:
        pigeonhole += 1
    return max((excess + 1) // 2, apart, pigeonhole)


# The fewest repeats possible where the bounds above fall short: no schedule has one repeat
# fewer, and the engine finds one with this many. Keys are (players, rounds, table sizes
# largest first); no history, households count as none (they only add constraints).
EXHAUSTIVE_MINIMUM: dict[tuple[int, int, tuple[int, ...]], int] = {
    # The exhaustive search of exact.py (tests/seating/engine/test_seating_exact.py).
    (11, 4, (4, 4, 3)): 8,  # counting and nine-box bounds: 7
    (12, 4, (4, 4, 4)): 13,  # bounds: 10
    (13, 4, (5, 4, 4)): 14,  # bounds: 13
    # benchmarks/proof_20x6_anchored.py: no six rounds share pairs in any pattern of <= 5
    # repeats (tests/seating/engine/test_seating_proof_20x6_anchored.py). Bounds: 0.
    (20, 6, (4, 4, 4, 4, 4)): 6,
}


def proven_minimum(n: int, rounds: int, sizes: Sequence[int]) -> int:
    """``EXHAUSTIVE_MINIMUM`` for this field, or 0: a bound for any seating without history."""
    return EXHAUSTIVE_MINIMUM.get((n, rounds, tuple(sorted(sizes, reverse=True))), 0)


def pigeonhole_bound(n: int, rounds: int, tables: int) -> int:
    """Repeats forced because two rounds of ``tables`` tables only have tables² boxes."""
    if n <= 1 or rounds <= 1 or tables <= 0:
        return 0
    boxes = tables * tables
    share, extra = divmod(n, boxes)
    per_pair = extra * (share + 1) * share // 2 + (boxes - extra) * share * (share - 1) // 2
    collisions = rounds * (rounds - 1) // 2 * per_pair
    return -(-2 * collisions // rounds)


def nine_box_tight(n: int, rounds: int, sizes: Sequence[int]) -> bool | None:
    """Can 10–17 players at 3 tables over 3 or 4 rounds have exactly the pigeonhole bound's
    repeats? None where the question does not apply.

    Write N = 9 + m. Every two rounds put the players in 9 boxes, so they make ≥ m
    collisions, and a pair meeting s times turns C(s, 2) collisions into s − 1 ≥ C(s, 2) · 2/R
    repeats, equal only for s = R. So the bound (R − 1) · m is met only if exactly m pairs
    meet in every round, no other pair meets twice, and every two rounds have exactly m
    collisions. Those pairs are disjoint (two sharing a player would close a triangle, one
    box of three), so merging each leaves 9 units, one per box: the rounds are 3 or 4
    mutually orthogonal splits of 9 units into 3 groups of 3, i.e. parallel classes of the
    affine plane of order 3 (unique). A table holds 3 units, so its size is 3 + the merged
    units on its line, and the bound is reachable only if m of the 9 points split over
    the lines of R classes as the table sizes say. Examples (unit tests): 12 players at
    4+4+4 over 4 rounds cannot (two merged units always share a line, a table of 5), so
    the bound is 10, not 9; 11 over 4 rounds (4+4+3): 7, not 6; 13 (5+4+4): 13, not 12.
    """
    if len(sizes) != 3 or rounds not in (3, 4) or not 9 < n < 18:
        return None
    extra = sorted(size - 3 for size in sizes)
    if extra[0] < 0:
        return False
    classes = [
        [[x * 3 + (slope * x + b) % 3 for x in range(3)] for b in range(3)] for slope in range(3)
    ]
    classes.append([[b * 3 + y for y in range(3)] for b in range(3)])
    for merged in combinations(range(9), n - 9):
        chosen = set(merged)
        if all(
            sorted(sum(p in chosen for p in line) for line in lines) == extra
            for lines in classes[:rounds]
        ):
            return True
    return False


def pigeonhole_cost_floor(
    n: int, rounds: int, tables: int, repeat_weight: int, triple_weight: int
) -> int:
    """Least search cost (repeat and triple weights) the pigeonhole collisions force.

    A pair meeting s times costs w_r·(s − 1) + w_t·max(0, s − 2) and makes C(s, 2)
    collisions; every pair of rounds needs its collisions, so the cost is at least
    collisions × the cheapest cost per collision over s = 2..R. With 3 rounds a pair met
    thrice is the cheapest way (2 repeats for 3 collisions), which is why 17 players over
    3 rounds cannot do better than one pair meeting in every round.
    """
    if n <= 1 or rounds <= 1 or tables <= 0:
        return 0
    boxes = tables * tables
    share, extra = divmod(n, boxes)
    per_pair = extra * (share + 1) * share // 2 + (boxes - extra) * share * (share - 1) // 2
    collisions = rounds * (rounds - 1) // 2 * per_pair
    best = None
    for s in range(2, rounds + 1):
        cost = repeat_weight * (s - 1) + triple_weight * max(0, s - 2)
        pairs = s * (s - 1) // 2
        # ceil(collisions · cost / pairs), compared as a fraction to stay exact
        candidate = -(-collisions * cost // pairs)
        best = candidate if best is None else min(best, candidate)
    return best or 0


def fairness_floor(
    n: int,
    big_seats_per_round: int,
    rounds: int,
    low: list[int],
    high: list[int],
    overlap: int = 0,
) -> tuple[int, int]:
    """(least max − min, least Σ e²) of 5-table exposures e_p with low_p ≤ e_p ≤ high_p,
    Σ e_p = rounds · big seats per round, and Σ_p C(e_p, 2) ≥ ``overlap``.

    Without pins and overlap this is spread 0 when the seats divide evenly and 1
    otherwise; a pin can force more (a player pinned to a 5-table in every round), and so
    can ``overlap`` — see ``big_table_overlap``: with zero repeats, 5-tables of different
    rounds must share players when there are few 4-tables.
    """
    total = rounds * big_seats_per_round
    if not n or not total:
        return 0, 0
    spread = None
    for width in range(rounds + 1):
        for bottom in range(rounds + 1 - width):
            top = bottom + width
            floors = [max(lo, bottom) for lo in low]
            ceilings = [min(hi, top) for hi in high]
            if any(f > c for f, c in zip(floors, ceilings, strict=True)):
                continue
            if not sum(floors) <= total <= sum(ceilings):
                continue
            if overlap and _most_overlap(floors, ceilings, total) < overlap:
                continue
            spread = width
            break
        if spread is not None:
            break
    # Σ e² is smallest when seats go one at a time to whoever has fewest (water-filling);
    # Σ e² = 2 Σ C(e, 2) + Σ e bounds it from the overlap side.
    exposure = list(low)
    left = total - sum(exposure)
    heap = [(e, p) for p, e in enumerate(exposure) if e < high[p]]
    heapq.heapify(heap)
    while left > 0 and heap:
        e, p = heapq.heappop(heap)
        exposure[p] = e + 1
        left -= 1
        if e + 1 < high[p]:
            heapq.heappush(heap, (e + 1, p))
    squares = max(sum(e * e for e in exposure), 2 * overlap + total)
    if spread is None:
        spread = max(exposure) - min(exposure)
    return spread, squares


def _most_overlap(floors: list[int], ceilings: list[int], total: int) -> int:
    # Σ C(e, 2) is convex: with the sum fixed it is largest when the spare seats go to as
    # few players as possible, each filled up to their ceiling.
    exposure = list(floors)
    left = total - sum(exposure)
    for p in sorted(range(len(exposure)), key=lambda p: -(ceilings[p] - floors[p])):
        take = min(left, ceilings[p] - exposure[p])
        exposure[p] += take
        left -= take
    return sum(e * (e - 1) // 2 for e in exposure)


def big_table_overlap(rounds: int, sizes: Sequence[int], standard: int = 4) -> int:
    """Least Σ_p C(e_p, 2) — pairs (player, two rounds at a 5-table) — with zero repeats.

    A table of size s above the standard in round r has its s players at s different
    tables of any other round r' (else two of them meet twice). Only the small tables of
    r' can take them without a 5-table seat, so at least s − (number of small tables) of
    them sit at a 5-table in r' too: |B_r ∩ B_r'| ≥ Σ_big max(0, s − small) for every
    pair of rounds, and Σ over pairs of rounds of |B_r ∩ B_r'| is Σ_p C(e_p, 2).

    Example: 21 players (5+4+4+4+4), 3 rounds. A 5-table's players need 5 different
    tables in each other round but only four are 4-tables, so every two rounds' 5-tables
    share a player and someone sits at a 5-table twice while 6 players never do: spread 2
    is the best a zero-repeat seating can do, although 15 seats over 21 players look like 1.
    """
    small = sum(1 for size in sizes if size <= standard)
    per_round = sum(max(0, size - small) for size in sizes if size > standard)
    return rounds * (rounds - 1) // 2 * per_round


def pigeonhole_tight_spread(
    n: int, rounds: int, sizes: Sequence[int], largest_family: int = 0
) -> int | None:
    """Least 5-table spread of a seating of 17–19 players, 3 rounds at four tables, whose
    own meetings have only the ``pigeonhole_bound`` repeats (2, 4, 6); None elsewhere.

    Write N = 16 + m (m = 1, 2, 3; m tables of 5). A pair meeting s times makes C(s, 2)
    collisions (shared (table, table) boxes of two rounds) for s − 1 repeats; every pair of
    rounds needs m collisions, 3m in all, from 2m repeats. Only pairs meeting in all three
    rounds give 3 collisions per 2 repeats, so exactly m pairs meet thrice, no other pair
    meets twice, and every pair of rounds has exactly m boxes of two, the rest of one. (For
    m = 3 the pairs are disjoint: a triangle always together is one box of three, which
    leaves 16 players for the other 15 boxes — a 4th collision.) Merge each such pair into
    one *unit*: 16 units, and in every pair of rounds each table meets each other table in
    exactly one unit, so every table holds exactly 4 units — the rounds are the three
    parallel classes of a 3-net of order 4 (a Latin square: rows, columns, symbols), and a
    table of 5 is one merged pair + 3 players. Hence:

    * the 2m players of merged pairs sit at a 5-table in every round: exposure 3;
    * any other unit v sits at a 5-table exactly as often as it shares a line with a
      merged unit: e_v = number of merged units on a common line with v.

    m = 1: 15 others share 3 · 3 = 9 seats, so someone has 0: spread 3.
    m = 2: the merged units u1, u2 lie in different rows, columns and symbols; take the
    other two rows and the other two columns. Symbol s1 (u1's) sits in u2's row in one of
    those two columns (not u1's column, not u2's: there is s2), so in the 2 × 2 block it
    appears once — and so does s2. At least two cells of the block share nothing with u1
    or u2: exposure 0, spread 3.
    m = 3: the cell in the one row and the one column free of merged units shares at most
    its symbol with them, so someone has at most 1: spread ≥ 2. It is 2 exactly when the
    Latin square has no transversal (the cyclic one of Z4): there every other cell shares
    a line with a merged unit. A square with a transversal is three classes of the affine
    plane AG(2, 4), where three mutually unlinked units lie on one line of a 4th or 5th
    class and the last point of that line is linked to none: spread 3. A household of four
    at different tables in every round is four mutually unlinked units — a transversal —
    so with one the least is 3. (Both claims are also checked over all 576 Latin squares
    of order 4 in the tests.)
    """
    m = n - 16
    if rounds != 3 or len(sizes) != 4 or not 1 <= m <= 3:
        return None
    if sorted(sizes) != [4] * (4 - m) + [5] * m:
        return None
    if m == 3 and largest_family < 4:
        return 2
    return 3
