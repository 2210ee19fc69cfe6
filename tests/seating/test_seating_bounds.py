"""The counting lower bound on repeat meetings against cases worked out by hand."""

import pytest

from tournament.seating import repeat_lower_bound


def test_eight_players_three_rounds_at_two_tables():
    # Each player meets 3 others a round, 9 in all, but only 7 exist: 2 excess each,
    # 8 · 2 = 16 seen from both ends, so at least 8 repeat meetings. (Tight: see bounds.py,
    # and test_seating_engine reaches it.)
    assert repeat_lower_bound(8, 3, (4, 4)) == 8


def test_twelve_players_four_rounds():
    # 4 · 3 = 12 meetings against 11 others: 1 excess each, 12 / 2 = 6.
    assert repeat_lower_bound(12, 4, (4, 4, 4)) == 6


def test_thirteen_players_with_a_five_table():
    # D = 4 rounds · (20 + 12 + 12) = 176 directed meetings; each player can absorb at most
    # 12 new people (and must take at least 4 · 3 = 12), so 176 − 13 · 12 = 20 excess → 10.
    assert repeat_lower_bound(13, 4, (5, 4, 4)) == 10


@pytest.mark.parametrize(
    "n, rounds, sizes",
    [(16, 5, (4,) * 4), (20, 5, (4,) * 5), (32, 10, (4,) * 8), (25, 6, (5,) * 5)],
)
def test_zero_when_everyone_can_meet_new_people(n, rounds, sizes):
    assert repeat_lower_bound(n, rounds, sizes) == 0


def test_sixteen_players_six_rounds():
    # 18 meetings each, 15 others: 3 excess each, 16 · 3 / 2 = 24.
    assert repeat_lower_bound(16, 6, (4,) * 4) == 24


def test_social_golfer_24_by_8():
    # 8 · 3 = 24 meetings against 23 others: 1 excess each → 12.
    assert repeat_lower_bound(24, 8, (4,) * 6) == 12


def test_history_reduces_who_is_new():
    # Player 0 already met all 7 others: every one of their 3 meetings is a repeat, and
    # each of those is one pair meeting, seen once from player 0 → ceil(3 / 2) = 2.
    partners = [7] + [1] * 7
    assert repeat_lower_bound(8, 1, (4, 4), partners) == 2


def test_degenerate_inputs():
    assert repeat_lower_bound(1, 3, (1,)) == 0
    assert repeat_lower_bound(8, 0, (4, 4)) == 0
    with pytest.raises(ValueError):
        repeat_lower_bound(8, 1, (4, 4), [0])
