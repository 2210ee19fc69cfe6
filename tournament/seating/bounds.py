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
"""

from __future__ import annotations

from collections.abc import Sequence


def repeat_lower_bound(
    n: int,
    rounds: int,
    sizes: Sequence[int],
    history_partners: Sequence[int] | None = None,
) -> int:
    """Lower bound on repeat meetings for ``n`` players, ``rounds`` rounds of ``sizes``.

    ``history_partners[p]`` is the number of distinct roster members p already met.
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
    return (excess + 1) // 2
