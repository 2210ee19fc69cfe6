"""The simulator against the engine: thousands of played games must all be legal sheets.

Two independent pieces of code meet here. ``gameplay.simulate`` plays by the rule books and
keeps its own net-worth tally; ``gameplay.check`` reads the sheet it writes and values it.
Any disagreement is a bug in one of them. No Django and no database: the engine is pure.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.check import check_sheet
from gameplay.edition import load_edition
from gameplay.simulate import (
    JAIL,
    SimulatedGame,
    _Game,
    _interest,
    bills_for,
    simulate_game,
)

EDITIONS = ("classic-us", "classic-uk", "boutique", "india-rupee")
# Short games catch early states, long ones bankruptcies, hotels and building shortages.
TURN_LIMITS = (0, 25, 80, 200, 400, 700, 1200)
GAMES_PER_EDITION = 500


def _errors(game: SimulatedGame) -> str:
    report = check_sheet(game.sheet)
    return "; ".join(f"{e.code}: {e.message}" for e in report.errors)


def _game_label(game: SimulatedGame) -> str:
    return f"{game.edition_slug} seed={game.seed} turns={game.turns_played}"


def test_thousands_of_end_states_are_valid_and_valued_alike() -> None:
    started = time.perf_counter()
    failures: list[str] = []
    seen: Counter[str] = Counter()
    for edition_index, slug in enumerate(EDITIONS):
        edition = load_edition(slug)
        for index in range(GAMES_PER_EDITION):
            # Offset seeds per edition: the three classic-scale editions share every number,
            # so equal seeds would replay the same games three times.
            seed = edition_index * 1_000_003 + index
            players = 2 + index % 5
            max_turns = TURN_LIMITS[index % len(TURN_LIMITS)]
            game = simulate_game(edition=edition, players=players, seed=seed, max_turns=max_turns)
            report = check_sheet(game.sheet)
            if not report.valid:
                failures.append(f"{_game_label(game)}: {_errors(game)}")
                continue
            for player in report.players:
                if player.valuation.net_worth != game.net_worth[player.id]:
                    failures.append(
                        f"{_game_label(game)}: {player.id} engine {player.valuation.net_worth}"
                        f" != simulator {game.net_worth[player.id]}"
                    )
            properties = game.sheet["properties"]
            seen["games"] += 1
            seen["buildings"] += any(p["houses"] or p["hotel"] for p in properties)
            seen["hotels"] += any(p["hotel"] for p in properties)
            seen["mortgages"] += any(p["mortgaged"] for p in properties)
            seen["mortgage beside buildings"] += any(p["mortgaged"] for p in properties) and any(
                p["houses"] or p["hotel"] for p in properties
            )
            seen["bankruptcies"] += bool(game.bankrupt_order)
            seen["one player left"] += len(game.bankrupt_order) == players - 1
            seen[f"{slug} bankruptcies"] += bool(game.bankrupt_order)
    elapsed = time.perf_counter() - started
    print(f"\n{seen['games']} games in {elapsed:.1f} s: {dict(seen)}")
    assert not failures, f"{len(failures)} bad games:\n" + "\n".join(failures[:20])

    games = seen["games"]
    assert games == len(EDITIONS) * GAMES_PER_EDITION >= 2000
    # Observed over 4,000 games (a seventh of them stopped before the first turn):
    # buildings 40%, hotels 23%, mortgages 19%, a mortgage beside buildings 18%,
    # bankruptcies 35% (classic scale 23%, india-rupee 71%), one player left 23%. The
    # floors sit well below, so only a simulator that stopped building, mortgaging or
    # going bankrupt fails them.
    assert seen["buildings"] >= 0.25 * games
    assert seen["hotels"] >= 0.12 * games
    assert seen["mortgages"] >= 0.10 * games
    assert seen["mortgage beside buildings"] >= 0.08 * games
    assert seen["bankruptcies"] >= 0.20 * games
    assert seen["one player left"] >= 0.10 * games
    for slug in EDITIONS:
        assert seen[f"{slug} bankruptcies"] >= 0.10 * GAMES_PER_EDITION, slug


@pytest.mark.parametrize("slug", EDITIONS)
def test_every_intermediate_state_of_a_game_is_valid(slug: str) -> None:
    """A lower turn limit stops the same game earlier, so this checks states mid-game."""
    edition = load_edition(slug)
    for seed in (3, 11):
        full = simulate_game(edition=edition, players=4, seed=seed, max_turns=600)
        for max_turns in range(0, full.turns_played + 1, 3):
            game = simulate_game(edition=edition, players=4, seed=seed, max_turns=max_turns)
            assert game.turns_played == max_turns
            report = check_sheet(game.sheet)
            assert report.valid, f"{_game_label(game)}: {_errors(game)}"
            assert {p.id: p.valuation.net_worth for p in report.players} == game.net_worth


def test_same_seed_same_game() -> None:
    edition = load_edition("classic-us")
    for seed in (0, 1, 99, 2**40):
        first = simulate_game(edition=edition, players=5, seed=seed, max_turns=300)
        second = simulate_game(edition=edition, players=5, seed=seed, max_turns=300)
        assert first.sheet == second.sheet
        assert first == second


def test_different_seeds_different_games() -> None:
    edition = load_edition("classic-uk")
    sheets = [
        repr(simulate_game(edition=edition, players=4, seed=seed, max_turns=200).sheet)
        for seed in range(12)
    ]
    assert len(set(sheets)) == len(sheets)


def test_a_game_does_not_touch_the_global_random_state() -> None:
    random.seed(5)
    expected = random.random()
    random.seed(5)
    simulate_game(edition=load_edition("boutique"), players=3, seed=1, max_turns=100)
    assert random.random() == expected


@settings(max_examples=150, deadline=None)
@given(
    slug=st.sampled_from(EDITIONS),
    players=st.integers(2, 8),
    seed=st.integers(0, 2**64),
    max_turns=st.integers(0, 1500),
)
def test_bank_supply_and_even_building_hold(
    slug: str, players: int, seed: int, max_turns: int
) -> None:
    edition = load_edition(slug)
    game = simulate_game(edition=edition, players=players, seed=seed, max_turns=max_turns)
    properties = {p["position"]: p for p in game.sheet["properties"]}
    houses = sum(p["houses"] for p in properties.values())
    hotels = sum(p["hotel"] for p in properties.values())
    assert houses <= edition.bank_houses == 32
    assert hotels <= edition.bank_hotels == 12

    for group in edition.groups.values():
        held = [properties.get(position) for position in group.positions]
        built = [p for p in held if p is not None and (p["houses"] or p["hotel"])]
        if not built:
            continue
        assert all(p is not None for p in held), "buildings without the whole group"
        assert len({p["owner"] for p in held}) == 1, "buildings without the whole group"
        assert not any(p["mortgaged"] for p in held), "buildings in a mortgaged group"
        assert edition.spaces[group.positions[0]].kind == "street"
        levels = []
        for p in held:
            assert 0 <= p["houses"] <= edition.max_houses
            if p["hotel"]:
                assert p["houses"] == 0
                levels.append(edition.houses_per_hotel + 1)
            else:
                levels.append(p["houses"])
        assert max(levels) - min(levels) <= 1, f"uneven {group.key}: {levels}"
    assert check_sheet(game.sheet).valid, _errors(game)


@settings(max_examples=300, deadline=None)
@given(slug=st.sampled_from(EDITIONS), amount=st.integers(0, 10**9))
def test_bills_add_up_and_use_only_the_editions_bills(slug: str, amount: int) -> None:
    edition = load_edition(slug)
    bills = bills_for(amount, edition)
    assert sum(int(bill) * count for bill, count in bills.items()) == amount
    assert {int(bill) for bill in bills} <= set(edition.denominations)
    assert all(count > 0 for count in bills.values())
    # Greedy: never as many of a bill as would make up the next larger one.
    larger = sorted(edition.denominations, reverse=True)
    for bigger, smaller in zip(larger, larger[1:], strict=False):
        assert bills.get(str(smaller), 0) * smaller < bigger


def test_bills_for_refuses_a_negative_amount() -> None:
    with pytest.raises(ValueError):
        bills_for(-1, load_edition("classic-us"))


def test_bills_for_starting_cash() -> None:
    assert bills_for(1500, load_edition("classic-us")) == {"500": 3}
    assert bills_for(1789, load_edition("classic-us")) == {
        "500": 3,
        "100": 2,
        "50": 1,
        "20": 1,
        "10": 1,
        "5": 1,
        "1": 4,
    }


@pytest.mark.parametrize("slug", EDITIONS)
def test_a_sheet_in_bills_is_valid_and_counts_the_same_cash(slug: str) -> None:
    edition = load_edition(slug)
    for seed in range(8):
        plain = simulate_game(edition=edition, players=4, seed=seed, max_turns=250)
        billed = simulate_game(
            edition=edition, players=4, seed=seed, max_turns=250, cash_as_bills=True
        )
        report = check_sheet(billed.sheet)
        assert report.valid, _errors(billed)
        for plain_entry, billed_entry, result in zip(
            plain.sheet["players"], billed.sheet["players"], report.players, strict=True
        ):
            assert "cash" not in billed_entry
            total = sum(int(bill) * count for bill, count in billed_entry["bills"].items())
            assert total == plain_entry["cash"] == result.valuation.cash
            assert result.valuation.net_worth == billed.net_worth[result.id]
        assert billed.sheet["properties"] == plain.sheet["properties"]


def test_the_game_ends_with_one_player_or_at_the_turn_limit() -> None:
    ended_early = 0
    for index in range(300):
        slug = EDITIONS[index % len(EDITIONS)]
        players = 2 + index % 5
        max_turns = (50, 300, 1000)[index % 3]
        game = simulate_game(
            edition=load_edition(slug), players=players, seed=index, max_turns=max_turns
        )
        remaining = players - len(game.bankrupt_order)
        assert game.turns_played <= max_turns
        assert remaining >= 1
        assert game.turns_played == max_turns or remaining == 1, _game_label(game)
        ended_early += game.turns_played < max_turns
        entries = {entry["id"]: entry for entry in game.sheet["players"]}
        assert sorted(entries) == sorted(f"P{i}" for i in range(1, players + 1))
        for out_order, player_id in enumerate(game.bankrupt_order, start=1):
            entry = entries[player_id]
            assert entry["bankrupt"] and entry["cash"] == 0 and entry["out_order"] == out_order
            assert game.net_worth[player_id] == 0
            assert all(p["owner"] != player_id for p in game.sheet["properties"])
        assert sum(entry["bankrupt"] for entry in entries.values()) == len(game.bankrupt_order)
    assert ended_early > 20


def test_no_turns_leaves_the_opening_position() -> None:
    edition = load_edition("india-rupee")
    game = simulate_game(edition=edition, players=8, seed=7, max_turns=0)
    assert game.turns_played == 0
    assert game.sheet["properties"] == []
    assert game.net_worth == {f"P{i}": edition.starting_cash for i in range(1, 9)}


@pytest.mark.parametrize("players", [0, 1, 9])
def test_player_count_is_two_to_eight(players: int) -> None:
    with pytest.raises(ValueError):
        simulate_game(edition=load_edition("classic-us"), players=players, seed=0)


# Rare paths, set up by hand on the simulator's table so they are tested every run.


def _table(slug: str = "classic-us", players: int = 2) -> _Game:
    return _Game(load_edition(slug), players, random.Random(0))


def _give(game: _Game, player: int, positions: tuple[int, ...], houses: int = 0) -> None:
    for position in positions:
        game.owner[position] = player
        game.houses[position] = houses
        game.houses_on_board += houses


def test_the_bank_counts_its_buildings_right_and_runs_out_of_houses() -> None:
    """The simulator's supply counters must match the board, or shortages come too early."""
    full_supply = 0
    for seed in range(400):
        game = _Game(load_edition(EDITIONS[seed % 4]), 2 + seed % 5, random.Random(seed))
        game.play(1000)
        assert game.houses_on_board == sum(
            houses for houses, hotel in zip(game.houses, game.hotel, strict=True) if not hotel
        )
        assert game.hotels_on_board == sum(game.hotel)
        full_supply += game.houses_on_board == game.edition.bank_houses
    # Observed: 15 of these 400 games end with every house on the board.
    assert full_supply >= 4


def test_interest_is_rounded_up() -> None:
    assert _interest(75, 10) == 8
    assert _interest(100, 10) == 10
    assert _interest(0, 10) == 0


def test_rent_doubles_on_a_group_with_a_mortgaged_lot_but_not_on_that_lot() -> None:
    game = _table()
    _give(game, 1, (6, 8, 9))
    game.mortgaged[8] = True
    space = game.spaces[6]
    assert game.rent(space, 1, dice=7) == 2 * space.rents[0]
    game.cash[0] = 100
    game.position[0] = 8 - 4
    game.advance(0, 4)
    assert game.cash == [100, game.edition.starting_cash]


def test_railroad_and_utility_rent_count_what_the_owner_holds() -> None:
    game = _table()
    _give(game, 1, (5, 15, 25))
    assert game.rent(game.spaces[5], 1, dice=7) == game.edition.railroad_rents[2]
    _give(game, 1, (12,))
    assert game.rent(game.spaces[12], 1, dice=9) == 9 * game.edition.utility_multipliers[0]
    _give(game, 1, (28,))
    assert game.rent(game.spaces[12], 1, dice=9) == 9 * game.edition.utility_multipliers[1]


def test_a_hotel_the_bank_cannot_break_is_sold_with_its_whole_group() -> None:
    game = _table()
    # P2 holds all 32 houses: brown, light blue and pink at four houses a lot.
    _give(game, 1, (1, 3, 6, 8, 9, 11, 13, 14), houses=4)
    assert game.houses_on_board == game.edition.bank_houses
    _give(game, 0, (37, 39))
    game.hotel[37] = game.hotel[39] = True
    game.hotels_on_board = 2
    game.cash[0] = 0
    assert game.pay(0, 500, 1)
    # Two hotels at half of five house prices ($200) each: $1,000, less the $500 paid.
    assert game.cash[0] == 500
    assert not game.hotel[37] and not game.hotel[39] and game.hotels_on_board == 0
    assert game.houses_on_board == 32
    assert check_sheet(game.sheet(cash_as_bills=False)).valid


def test_a_hotel_is_broken_into_houses_when_the_bank_has_them() -> None:
    game = _table("india-rupee")
    _give(game, 0, (37, 39), houses=3)
    game.houses[37] = 0
    game.houses_on_board -= 3
    game.hotel[37] = True
    game.hotels_on_board = 1
    game.cash[0] = 0
    assert game.pay(0, 150, None)
    # Half of the $200 hotel, then half of one of the three houses that replaced it.
    assert (game.hotel[37], game.houses[37], game.houses[39]) == (False, 2, 3)
    assert game.cash[0] == 100 + 100 - 150
    assert game.houses_on_board == 5
    assert check_sheet(game.sheet(cash_as_bills=False)).valid


def test_bankruptcy_to_a_player_hands_over_cash_and_deeds() -> None:
    game = _table()
    _give(game, 0, (37, 39), houses=1)
    _give(game, 0, (5,))
    game.mortgaged[5] = True
    game.cash = [10, 100]
    # Liquid: $10 + two houses at $100 + Park Place and Boardwalk mortgaged at $375.
    assert game.liquid_value(0) == 10 + 200 + 375
    assert not game.pay(0, 10_000, 1)
    assert game.bankrupt_order == [0] and game.cash[0] == 0
    # P2 gets the $10 and the $200 from the houses, then pays 10% interest on the railroad.
    assert game.cash[1] == 100 + 10 + 200 - 10
    assert [game.owner[p] for p in (5, 37, 39)] == [1, 1, 1]
    assert game.mortgaged[5] and not game.mortgaged[37]
    assert game.houses_on_board == 0
    assert game.net_worth(0) == 0
    assert check_sheet(game.sheet(cash_as_bills=False)).valid


def test_bankruptcy_to_the_bank_returns_deeds_unmortgaged() -> None:
    game = _table()
    _give(game, 0, (1, 3), houses=2)
    game.mortgaged[5] = True
    _give(game, 0, (5,))
    game.cash = [0, 100]
    assert not game.pay(0, 10_000, None)
    assert all(game.owner[p] is None and not game.mortgaged[p] for p in (1, 3, 5))
    assert game.cash == [0, 100] and game.houses_on_board == 0
    assert check_sheet(game.sheet(cash_as_bills=False)).valid


def test_building_waits_for_a_whole_unmortgaged_group_and_goes_evenly() -> None:
    game = _table()
    game.reserve[0] = 0
    game.build_urge[0] = 1.0
    game.buys_hotels[0] = True
    _give(game, 0, (6, 8))
    game.cash[0] = 10_000
    game.manage(0)
    assert game.houses_on_board == 0
    _give(game, 0, (9,))
    game.mortgaged[9] = True
    game.manage(0)
    # Lifting the mortgage costs $60 + $6; then three lots of four houses and a hotel each.
    assert not game.mortgaged[9]
    assert all(game.hotel[p] for p in (6, 8, 9))
    assert (game.houses_on_board, game.hotels_on_board) == (0, 3)
    assert game.cash[0] == 10_000 - 66 - 3 * 5 * 50
    assert check_sheet(game.sheet(cash_as_bills=False)).valid


class _LoadedDice:
    """Stands in for the game's Random: the dice come from a list, every choice says no."""

    def __init__(self, *rolls: tuple[int, int]) -> None:
        self.values = iter(value for roll in rolls for value in roll)

    def randint(self, low: int, high: int) -> int:
        # Running out of rolls raises StopIteration: the game rolled more often than allowed.
        return next(self.values)

    def random(self) -> float:
        return 0.99

    def choice(self, options: tuple[int, ...]) -> int:
        return options[0]


def test_a_jailed_player_pays_after_the_third_failed_throw_and_moves() -> None:
    game = _table()
    game.rng = _LoadedDice((1, 2), (1, 2), (1, 2))
    game.jail_pay_probability[0] = 0.0
    _give(game, 1, (13,))
    game.send_to_jail(0)
    game.take_turn(0)
    game.take_turn(0)
    assert game.in_jail[0] and game.position[0] == JAIL
    game.take_turn(0)
    start = game.edition.starting_cash
    rent = game.spaces[13].rents[0]
    assert not game.in_jail[0] and game.position[0] == 13
    assert game.cash == [start - game.edition.jail_fine - rent, start + rent]


def test_doubles_in_jail_move_without_another_throw() -> None:
    game = _table()
    game.rng = _LoadedDice((2, 2))
    game.jail_pay_probability[0] = 0.0
    _give(game, 1, (14,))
    game.send_to_jail(0)
    game.take_turn(0)
    assert not game.in_jail[0] and game.position[0] == 14


def test_third_double_goes_to_jail_without_moving() -> None:
    game = _table()
    game.rng = _LoadedDice((1, 1), (2, 2), (3, 3))
    game.buy_probability[0] = 1.0
    game.take_turn(0)
    assert game.in_jail[0] and game.position[0] == JAIL
    assert game.owner[6] == 0
    assert game.cash[0] == game.edition.starting_cash - game.spaces[6].price


def test_the_bank_refuses_to_pay_out_what_its_bills_cannot_make():
    classic = load_edition("classic-us")
    assert bills_for(1786, classic) == {
        "500": 3,
        "100": 2,
        "50": 1,
        "20": 1,
        "10": 1,
        "5": 1,
        "1": 1,
    }
    with pytest.raises(ValueError, match=r"^cannot pay out a negative amount \(-5\)$"):
        bills_for(-5, classic)
    no_ones = dataclasses.replace(classic, denominations=(500, 100, 50, 20, 10, 5))
    with pytest.raises(
        ValueError, match=r"^\$1,003 cannot be paid in Classic \(US, Atlantic City\) bills$"
    ):
        bills_for(1003, no_ones)
