"""Table-size patterns against hand-worked expectations (N = 4..25) and the fallbacks."""

import pytest

from seating.engine import table_pattern
from seating.engine.check import expected_pattern

# Championship rule 4–5: N = 4k + r needs r tables of 5, so it fits iff r ≤ k.
CHAMPIONSHIP = {
    4: (4,),
    5: (5,),
    6: (3, 3),  # fallback: no 4/5 pattern
    7: (4, 3),  # fallback
    8: (4, 4),
    9: (5, 4),
    10: (5, 5),
    11: (4, 4, 3),  # fallback: 4+4+3 (3 fives would need 3 tables of 4 first)
    12: (4, 4, 4),
    13: (5, 4, 4),
    14: (5, 5, 4),
    15: (5, 5, 5),
    16: (4, 4, 4, 4),
    17: (5, 4, 4, 4),
    18: (5, 5, 4, 4),
    19: (5, 5, 5, 4),
    20: (4, 4, 4, 4, 4),
    21: (5, 4, 4, 4, 4),
    22: (5, 5, 4, 4, 4),
    23: (5, 5, 5, 4, 4),
    24: (4, 4, 4, 4, 4, 4),
    25: (5, 4, 4, 4, 4, 4),
}
# Club rule 3–5: the same, except that 3-tables are allowed (so no fallback), and used only
# where no 4/5 pattern exists: 10 is 5+5, not 4+3+3.
CLUB = {**CHAMPIONSHIP, 6: (3, 3), 7: (4, 3), 11: (4, 4, 3)}


@pytest.mark.parametrize("n", range(4, 26))
def test_championship_patterns(n):
    pattern = table_pattern(n, 4, 5)
    assert pattern.sizes == CHAMPIONSHIP[n]
    assert (pattern.fallback is not None) == (n in (6, 7, 11))


@pytest.mark.parametrize("n", range(4, 26))
def test_club_patterns(n):
    pattern = table_pattern(n, 3, 5)
    assert pattern.sizes == CLUB[n]
    assert pattern.fallback is None


def test_fewest_fives_is_n_mod_4_when_it_fits():
    for n in range(12, 400):
        k, r = divmod(n, 4)
        if r <= k:
            assert table_pattern(n).big_tables == r


@pytest.mark.parametrize("n, sizes", [(1, (1,)), (2, (2,)), (3, (3,))])
def test_fewer_players_than_the_minimum_share_one_table(n, sizes):
    pattern = table_pattern(n)
    assert pattern.sizes == sizes
    assert "cannot be seated" in pattern.fallback


def test_the_fallback_explains_itself():
    assert table_pattern(11).fallback == (
        "11 players cannot be seated at tables of 4–5; fallback 4+4+3 has 1 table(s) below 4"
    )


@pytest.mark.parametrize("rule", [(4, 5), (3, 5), (4, 4), (5, 5), (3, 6), (2, 4)])
def test_dynamic_programme_agrees_with_brute_force(rule):
    for n in range(1, 61):
        assert table_pattern(n, *rule).sizes == expected_pattern(n, *rule), n


@pytest.mark.parametrize("n, rule", [(0, (4, 5)), (8, (0, 5)), (8, (5, 4))])
def test_nonsense_is_refused(n, rule):
    with pytest.raises(ValueError):
        table_pattern(n, *rule)
