"""The standings' tie-breakers one key at a time, on games worked by hand.

Championship Rules, SCORING: places score by the players remaining (28; 25-14; 22-12-6;
19-10-5-3; 16-8-4-2-1); TIE BREAKERS: "the player who has the highest value of unmortgaged
property". Championship Rules, POSTING SCORES: "Point scores (not net worth) will be posted".
"""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.utils import translation

from gameplay.edition import load_edition
from scoring.tie_breakers import (
    DECIDED_BY_HEAD_JUDGE,
    TIE_BREAKERS,
    TieBreakers,
    columns,
    format_points,
    public_keys,
    tie_breakers_for,
    tie_breakers_valid,
    tie_broken_by,
    tie_broken_text,
)
from tournament.models import Event

# Three games of one player: a win of four (19), a second of three (12), a bankruptcy (0).
GAMES = [
    {"place": 1, "points": Decimal(19), "net_worth": 3000, "unmortgaged_property_value": 800},
    {"place": 2, "points": Decimal(12), "net_worth": 2500, "unmortgaged_property_value": 600},
    {"place": 4, "points": Decimal(0), "net_worth": 0, "unmortgaged_property_value": 0},
]


def total(key: str, games=GAMES):
    return TIE_BREAKERS[key].total(games)


def test_each_key_adds_up_the_counted_games_as_the_rule_book_says():
    assert total("points") == Decimal(31)  # 19 + 12 + 0
    assert total("wins") == 1  # only the first place
    assert total("net_worth") == 5500  # 3000 + 2500 + 0
    assert total("best_game") == 3000
    assert total("unmortgaged") == 1400  # 800 + 600 + 0


def test_points_not_given_yet_count_as_nothing_and_a_shared_first_is_a_win():
    # Two players level at first place wait for the head judge: both placed 1, no points yet.
    games = [
        {"place": 1, "points": None, "net_worth": 2000, "unmortgaged_property_value": 0},
        {"place": 1, "points": Decimal("14.5"), "net_worth": 2000, "unmortgaged_property_value": 0},
    ]
    assert total("points", games) == Decimal("14.5")
    assert total("wins", games) == 2


def test_points_are_written_whole_or_to_the_cent_of_a_shared_place():
    assert format_points(Decimal(19)) == "19"
    assert format_points(Decimal("19.00")) == "19"
    assert format_points(Decimal("14.50")) == "14.5"  # (19 + 10) / 2
    assert format_points(Decimal("11.33")) == "11.33"  # (19 + 10 + 5) / 3
    assert format_points(Decimal(0)) == "0"
    assert format_points(None) == ""


def test_higher_ranks_first_on_every_key_so_more_is_a_smaller_sort_key():
    order = TieBreakers(keys=("points", "wins", "net_worth"))
    better = {"points": Decimal(41), "wins": 2, "net_worth": 6200}
    worse = {"points": Decimal(41), "wins": 1, "net_worth": 8000}
    assert order.strength(better.__getitem__) < order.strength(worse.__getitem__)
    richer = {"points": Decimal(41), "wins": 1, "net_worth": 8100}
    assert order.strength(richer.__getitem__) < order.strength(worse.__getitem__)


def test_a_tie_breaker_has_its_own_name_in_words():
    with translation.override("en"):
        assert {key: str(tb.label) for key, tb in TIE_BREAKERS.items()} == {
            "points": "points",
            "wins": "games won",
            "net_worth": "total net worth",
            "best_game": "best game",
            "unmortgaged": "unmortgaged property value",
        }
        assert tie_broken_text("wins") == "games won"
        assert tie_broken_text(DECIDED_BY_HEAD_JUDGE) == "decided by the head judge"


def test_money_keys_are_written_in_the_editions_currency_the_rest_as_numbers():
    edition = load_edition("classic-us")
    with translation.override("en"):
        assert TIE_BREAKERS["net_worth"].text(7400, edition=edition) == "$7,400"
        assert TIE_BREAKERS["best_game"].text(3000, edition=edition) == "$3,000"
        assert TIE_BREAKERS["unmortgaged"].text(1400, edition=edition) == "$1,400"
        # Without an edition there is no currency to write: the bare figure.
        assert TIE_BREAKERS["net_worth"].text(7400, edition=None) == "7400"
        assert TIE_BREAKERS["points"].text(Decimal("14.50"), edition=edition) == "14.5"
        assert TIE_BREAKERS["wins"].text(2, edition=edition) == "2"


def row(**values):
    return SimpleNamespace(key=values.__getitem__)


KEYS = ("points", "wins", "net_worth")


def test_what_parted_two_players_is_the_first_key_where_they_differ():
    upper = row(points=41, wins=2, net_worth=6200)
    assert tie_broken_by(keys=KEYS, upper=upper, lower=row(points=41, wins=1, net_worth=8000)) == (
        "wins"
    )
    assert tie_broken_by(keys=KEYS, upper=upper, lower=row(points=41, wins=2, net_worth=6000)) == (
        "net_worth"
    )
    # Level on every key: only the head judge can have put one above the other.
    assert tie_broken_by(keys=KEYS, upper=upper, lower=row(points=41, wins=2, net_worth=6200)) == (
        DECIDED_BY_HEAD_JUDGE
    )
    # Apart on the first key: no tie was broken at all.
    assert tie_broken_by(keys=KEYS, upper=upper, lower=row(points=37, wins=2, net_worth=6200)) is (
        None
    )


def event_of(format_: str, order=None) -> Event:
    return Event(format=format_, tie_breakers=order)


@pytest.mark.parametrize(
    ("keys", "valid"),
    [
        (["points"], True),
        (["points", "net_worth", "wins"], True),
        (["points", "wins", "net_worth", "best_game"], True),
        ([], False),  # an order ranks by something
        (["wins", "points"], False),  # points first: "the highest Point scores"
        (["points", "wins", "wins"], False),  # a key at most once
        (["points", "unmortgaged"], False),  # not one of the championship's keys
    ],
)
def test_a_championship_order_starts_with_points_and_uses_its_own_keys_once(keys, valid):
    assert tie_breakers_valid(event=event_of("championship"), keys=keys) is valid


def test_an_organizers_order_is_used_only_while_it_fits_the_format():
    assert tie_breakers_for(event=event_of("championship", ["points", "net_worth"])).keys == (
        "points",
        "net_worth",
    )
    # The format was changed afterwards to the junior one: its own order, not half of the old.
    assert tie_breakers_for(event=event_of("junior", ["points", "net_worth"])).keys == (
        "net_worth",
        "unmortgaged",
    )
    assert tie_breakers_for(event=event_of("championship", [])).keys == (
        "points",
        "wins",
        "net_worth",
        "best_game",
    )


def test_the_officials_columns_are_the_formats_keys_in_the_registrys_order():
    assert [tb.key for tb in columns(event=event_of("championship"))] == [
        "points",
        "wins",
        "net_worth",
        "best_game",
    ]
    assert [tb.key for tb in columns(event=event_of("club"))] == ["wins", "net_worth", "best_game"]
    assert [tb.key for tb in columns(event=event_of("junior"))] == ["net_worth", "unmortgaged"]


def test_the_public_sees_points_not_net_worth_at_a_championship():
    # Championship Rules, POSTING SCORES: "Point scores (not net worth) will be posted".
    order = ["points", "net_worth", "wins", "best_game"]
    assert public_keys(event=event_of("championship", order)) == ("points", "wins")
    # A junior event is won on net worth, posted as such.
    assert public_keys(event=event_of("junior")) == ("net_worth", "unmortgaged")
    # A club posts its table winners: games won, never an asset figure.
    assert public_keys(event=event_of("club")) == ("wins",)
