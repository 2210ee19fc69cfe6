"""Seeded random games of the long-game rules, played only as far as a score sheet can see.

Why this exists: the checks in :mod:`gameplay.rules` and the valuation in
:mod:`gameplay.valuation` are only as trustworthy as the sheets they are tested on, and
hand-written sheets cover the cases their author thought of. A simulator that plays by the
rule books (Tournament Kit, the Parker Brothers rules; Championship Rules, the championship rules)
turns out thousands of end states nobody wrote by hand: every one must pass the checker, and the
simulator's own net-worth tally must agree with the engine's.

The game is modelled at the level of the score sheet: who owns which deed, mortgages,
houses and hotels, cash, and who went bankrupt in which order. The simplifications, each
chosen because it cannot change what a sheet may legally show:

* Chance and Community Chest cards are a coin toss with the bank: collect a small amount,
  pay a small amount, or nothing. No card moves a token, and there is no Get Out of Jail
  Free card.
* Income Tax is always the flat amount printed on the space (no 10% option).
* No trades between players; the only ways a deed changes hands are buying, auctions and
  bankruptcy. Houses never go to auction in a building shortage: the player whose turn it
  is builds what the bank has left.
* Players decide by simple random policies (a buying probability, a cash reserve, an urge
  to build), drawn per player from the game's seed.
* Raising cash mortgages deeds of unbuilt groups first and sells buildings only when that
  is not enough, as players do; every step is one the rules allow.
* Selling a hotel turns it back into houses when the bank has them; when it has not, the
  whole colour group is sold down to bare lots at half price, which keeps it even (Championship
  Rules: "all hotels on one color-group may be sold at once").
* A creditor who takes over mortgaged deeds in a bankruptcy pays the bank's interest on
  each one it can afford, in board order, and takes the rest mortgaged without paying:
  the sheet shows only that the deed is mortgaged, not who paid the interest.
* Deeds of a player bankrupt to the bank go back to the bank unmortgaged and are sold
  again when someone lands on them, rather than auctioned at once.
* Railroads and utilities count every one the owner holds, mortgaged or not, for rent.

All money is whole units of the edition's currency, and the bank never runs out of money.
Only ``random.Random(seed)`` supplies chance, so the same arguments give the same game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from gameplay.edition import BOARD_SIZE, Edition, Space

JAIL = 10
GO_TO_JAIL = 30
MIN_PLAYERS = 2
MAX_PLAYERS = 8
# Small amounts on the classic scale: cards must move money without deciding the game.
CARD_AMOUNTS = (10, 20, 25, 50, 100, 150, 200)
_JAIL_TURNS = 3


@dataclass(frozen=True)
class SimulatedGame:
    """One finished game: its score sheet in the engine's input shape and its own tally.

    ``net_worth`` is computed from the simulator's state, not by :mod:`gameplay.valuation`,
    so comparing it with :func:`gameplay.check.check_sheet` pits two independent sums
    against each other.
    """

    edition_slug: str
    seed: int
    turns_played: int
    bankrupt_order: tuple[str, ...]
    sheet: dict[str, Any]
    net_worth: dict[str, int]


def bills_for(amount: int, edition: Edition) -> dict[str, int]:
    """``amount`` in the edition's bills, largest first, keyed like a JSON sheet ("500").

    Greedy is what a banker counting out change does, and it is exact whenever the
    smallest bill is 1, as in every edition shipped.
    """
    if amount < 0:
        raise ValueError(f"cannot pay out a negative amount ({amount})")
    bills: dict[str, int] = {}
    left = amount
    for bill in sorted(edition.denominations, reverse=True):
        count, left = divmod(left, bill)
        if count:
            bills[str(bill)] = count
    if left:
        raise ValueError(f"{edition.money(amount)} cannot be paid in {edition.name} bills")
    return bills


def simulate_game(
    *,
    edition: Edition,
    players: int,
    seed: int,
    max_turns: int = 400,
    cash_as_bills: bool = False,
) -> SimulatedGame:
    """Play one seeded game to ``max_turns`` player turns or until one player is left.

    ``cash_as_bills`` writes each player's cash as ``"bills"`` instead of ``"cash"``, the
    other way a banker may fill in a sheet.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {players}")
    if max_turns < 0:
        raise ValueError(f"max_turns cannot be negative ({max_turns})")
    game = _Game(edition, players, random.Random(seed))
    game.play(max_turns)
    return SimulatedGame(
        edition_slug=edition.slug,
        seed=seed,
        turns_played=game.turns_played,
        bankrupt_order=tuple(game.ids[i] for i in game.bankrupt_order),
        sheet=game.sheet(cash_as_bills=cash_as_bills),
        net_worth={game.ids[i]: game.net_worth(i) for i in range(players)},
    )


def _interest(mortgage: int, percent: int) -> int:
    """The bank's interest, rounded up: the bank takes no fractions and never gives change."""
    return -(-mortgage * percent // 100)


class _Game:
    """The mutable table during play; nothing outside this module sees it."""

    def __init__(self, edition: Edition, players: int, rng: random.Random) -> None:
        self.edition = edition
        self.rng = rng
        self.n = players
        self.ids = [f"P{i + 1}" for i in range(players)]
        self.cash = [edition.starting_cash] * players
        self.position = [0] * players
        self.in_jail = [False] * players
        self.jail_turns = [0] * players
        self.bankrupt = [False] * players
        self.bankrupt_order: list[int] = []
        self.turns_played = 0

        self.owner: list[int | None] = [None] * BOARD_SIZE
        self.mortgaged = [False] * BOARD_SIZE
        self.houses = [0] * BOARD_SIZE
        self.hotel = [False] * BOARD_SIZE
        self.houses_on_board = 0
        self.hotels_on_board = 0

        self.spaces = edition.spaces
        self.group_of: dict[int, tuple[int, ...]] = {}
        for group in edition.groups.values():
            for position in group.positions:
                self.group_of[position] = group.positions
        self.street_groups = tuple(
            group.positions
            for group in edition.groups.values()
            if group.positions and self.spaces[group.positions[0]].kind == "street"
        )
        self.deed_positions = tuple(space.position for space in edition.deeds)
        self.hph = edition.houses_per_hotel

        # Personalities differ per player so that games differ in more than the dice.
        self.buy_probability = [rng.uniform(0.55, 1.0) for _ in range(players)]
        self.reserve = [rng.randrange(0, 301, 10) for _ in range(players)]
        self.build_urge = [rng.uniform(0.4, 1.0) for _ in range(players)]
        self.jail_pay_probability = [rng.uniform(0.0, 1.0) for _ in range(players)]
        # Some players keep their houses rather than trade them for hotels, a known ploy to
        # starve the bank of houses; they are what drives games into a building shortage.
        self.buys_hotels = [rng.random() < 0.6 for _ in range(players)]

    # The game loop.

    def play(self, max_turns: int) -> None:
        current = 0
        while self.turns_played < max_turns and self.active_players() > 1:
            if not self.bankrupt[current]:
                self.take_turn(current)
                self.turns_played += 1
            current = (current + 1) % self.n

    def active_players(self) -> int:
        return self.n - len(self.bankrupt_order)

    def roll(self) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)

    def take_turn(self, p: int) -> None:
        if self.in_jail[p] and not self.jail_turn(p):
            if not self.bankrupt[p]:
                self.manage(p)
            return
        doubles = 0
        while True:
            d1, d2 = self.roll()
            if d1 == d2:
                doubles += 1
                if doubles == 3:
                    self.send_to_jail(p)
                    break
            self.advance(p, d1 + d2)
            if self.bankrupt[p] or self.in_jail[p] or d1 != d2:
                break
        if not self.bankrupt[p]:
            self.manage(p)

    def jail_turn(self, p: int) -> bool:
        """One turn in jail. True when the player left by paying first and now rolls as usual.

        A player who leaves by throwing doubles or by the forced fine after the third
        failure moves here, and does not roll again (Tournament Kit, JAIL).
        """
        fine = self.edition.jail_fine
        self.jail_turns[p] += 1
        if self.cash[p] >= fine and self.rng.random() < self.jail_pay_probability[p]:
            self.cash[p] -= fine
            self.in_jail[p] = False
            return True
        d1, d2 = self.roll()
        if d1 != d2:
            if self.jail_turns[p] < _JAIL_TURNS:
                return False
            if not self.pay(p, fine, None):
                return False
        self.in_jail[p] = False
        self.advance(p, d1 + d2)
        return False

    def send_to_jail(self, p: int) -> None:
        self.position[p] = JAIL
        self.in_jail[p] = True
        self.jail_turns[p] = 0

    def advance(self, p: int, steps: int) -> None:
        position = self.position[p] + steps
        if position >= BOARD_SIZE:
            position -= BOARD_SIZE
            self.cash[p] += self.edition.go_salary
        self.position[p] = position
        self.land(p, position, steps)

    def land(self, p: int, position: int, dice: int) -> None:
        if position == GO_TO_JAIL:
            self.send_to_jail(p)
            return
        space = self.spaces[position]
        if space.is_deed:
            owner = self.owner[position]
            if owner is None:
                self.offer(p, space)
            elif owner != p and not self.mortgaged[position]:
                self.pay(p, self.rent(space, owner, dice), owner)
        elif space.kind == "tax":
            self.pay(p, space.tax, None)
        elif space.kind == "card":
            draw = self.rng.random()
            amount = self.rng.choice(CARD_AMOUNTS)
            if draw < 1 / 3:
                self.cash[p] += amount
            elif draw < 2 / 3:
                self.pay(p, amount, None)

    # Deeds and rent.

    def rent(self, space: Space, owner: int, dice: int) -> int:
        position = space.position
        if space.kind == "street":
            if self.hotel[position]:
                return space.rents[5]
            if self.houses[position]:
                return space.rents[self.houses[position]]
            # Double rent needs the whole group, mortgaged lots included (Tournament Kit, PAYING
            # RENT).
            if all(self.owner[lot] == owner for lot in self.group_of[position]):
                return 2 * space.rents[0]
            return space.rents[0]
        count = sum(1 for deed in self.group_of[position] if self.owner[deed] == owner)
        if space.kind == "railroad":
            rents = self.edition.railroad_rents
            return rents[min(count, len(rents)) - 1]
        multipliers = self.edition.utility_multipliers
        return dice * multipliers[min(count, len(multipliers)) - 1]

    def offer(self, p: int, space: Space) -> None:
        if self.cash[p] >= space.price and self.rng.random() < self.buy_probability[p]:
            self.cash[p] -= space.price
            self.owner[space.position] = p
        else:
            self.auction(p, space)

    def auction(self, decliner: int, space: Space) -> None:
        """An English auction from 1: the keenest bidder pays one more than the runner-up.

        Each bidder's limit is a private valuation capped by cash, so nobody bids money they
        would have to raise; the decliner bids too (Tournament Kit, BUYING PROPERTY).
        """
        limits: list[tuple[int, int]] = []
        for offset in range(self.n):
            bidder = (decliner + offset) % self.n
            if self.bankrupt[bidder]:
                continue
            value = self.rng.randint(space.price // 4, space.price * 3 // 2)
            limits.append((min(value, self.cash[bidder]), bidder))
        # A stable sort gives a tie to whoever spoke first, the decliner's seat onwards.
        ranked = sorted(limits, key=lambda limit: -limit[0])
        top, winner = ranked[0]
        if top < 1:
            return
        runner_up = ranked[1][0] if len(ranked) > 1 else 0
        self.cash[winner] -= max(1, min(top, runner_up + 1))
        self.owner[space.position] = winner

    # Building, mortgages and raising cash.

    def level(self, position: int) -> int:
        return self.hph + 1 if self.hotel[position] else self.houses[position]

    def has_buildings(self, group: tuple[int, ...]) -> bool:
        return any(self.houses[lot] or self.hotel[lot] for lot in group)

    def manage(self, p: int) -> None:
        """Between throws a player with spare cash lifts mortgages, then builds."""
        reserve = self.reserve[p]
        percent = self.edition.mortgage_interest_percent
        for position in self.deed_positions:
            if self.owner[position] != p or not self.mortgaged[position]:
                continue
            mortgage = self.spaces[position].mortgage
            cost = mortgage + _interest(mortgage, percent)
            if self.cash[p] - cost >= reserve:
                self.cash[p] -= cost
                self.mortgaged[position] = False
        for group in self.street_groups:
            if not all(self.owner[lot] == p and not self.mortgaged[lot] for lot in group):
                continue
            if self.rng.random() < self.build_urge[p]:
                while self.build_one(p, group, reserve):
                    pass

    def build_one(self, p: int, group: tuple[int, ...], reserve: int) -> bool:
        """Raise the lowest lot of ``group`` one step if the player and bank can; else False.

        Always building on a lowest lot keeps the group even, and a hotel goes up only when
        that lowest lot already has ``houses_per_hotel`` houses, so every lot does.
        """
        lot = min(group, key=self.level)
        cost = self.spaces[lot].house_cost
        if self.hotel[lot] or self.cash[p] - cost < reserve:
            return False
        houses = self.houses[lot]
        house_left = self.houses_on_board < self.edition.bank_houses
        if houses < self.hph:
            if not house_left:
                return False
            self.houses[lot] += 1
            self.houses_on_board += 1
        elif self.buys_hotels[p] and self.hotels_on_board < self.edition.bank_hotels:
            self.hotel[lot] = True
            self.houses[lot] = 0
            self.houses_on_board -= houses
            self.hotels_on_board += 1
        elif houses < self.edition.max_houses and house_left:
            # No hotel wanted or left: a three-house edition may still put up a fourth house.
            self.houses[lot] += 1
            self.houses_on_board += 1
        else:
            return False
        self.cash[p] -= cost
        return True

    def house_sale(self, position: int) -> int:
        return self.spaces[position].house_cost // 2

    def building_sale_value(self, position: int) -> int:
        """What the bank pays for everything on a lot, one house at a time or all at once.

        Both ways of selling a hotel pay the same, so the bankruptcy test can add this up
        before selling anything.
        """
        units = self.hph + 1 if self.hotel[position] else self.houses[position]
        return units * self.house_sale(position)

    def sell_lot(self, position: int) -> int:
        value = self.building_sale_value(position)
        if self.hotel[position]:
            self.hotel[position] = False
            self.hotels_on_board -= 1
        self.houses_on_board -= self.houses[position]
        self.houses[position] = 0
        return value

    def sell_one(self, p: int, group: tuple[int, ...]) -> None:
        """Take the highest lot of ``group`` down one step: the reverse of building."""
        lot = max(group, key=lambda position: (self.level(position), not self.hotel[position]))
        if not self.hotel[lot]:
            self.houses[lot] -= 1
            self.houses_on_board -= 1
            self.cash[p] += self.house_sale(lot)
        elif self.edition.bank_houses - self.houses_on_board >= self.hph:
            self.hotel[lot] = False
            self.hotels_on_board -= 1
            self.houses[lot] = self.hph
            self.houses_on_board += self.hph
            self.cash[p] += self.house_sale(lot)
        else:
            # The bank cannot break the hotel, so the group goes down to bare lots.
            self.cash[p] += sum(self.sell_lot(position) for position in group)

    def liquid_value(self, p: int) -> int:
        """Cash plus all that selling every building and mortgaging every deed would bring."""
        total = self.cash[p]
        for position in self.deed_positions:
            if self.owner[position] != p:
                continue
            total += self.building_sale_value(position)
            if not self.mortgaged[position]:
                total += self.spaces[position].mortgage
        return total

    def mortgage_candidates(self, p: int) -> list[int]:
        """Unmortgaged deeds of groups without buildings, those outside a monopoly first."""
        candidates = []
        for position in self.deed_positions:
            if self.owner[position] != p or self.mortgaged[position]:
                continue
            group = self.group_of[position]
            if self.has_buildings(group):
                continue
            monopoly = all(self.owner[lot] == p for lot in group)
            candidates.append((monopoly, position))
        return [position for _, position in sorted(candidates)]

    def raise_cash(self, p: int, amount: int) -> None:
        """Mortgage and sell until cash covers ``amount``; the caller knows it can."""
        while self.cash[p] < amount:
            for position in self.mortgage_candidates(p):
                self.mortgaged[position] = True
                self.cash[p] += self.spaces[position].mortgage
                if self.cash[p] >= amount:
                    return
            built = [
                group
                for group in self.street_groups
                if self.owner[group[0]] == p and self.has_buildings(group)
            ]
            if not built:
                raise AssertionError("raise_cash ran out of assets; liquid_value is wrong")
            self.sell_one(p, built[0])

    def pay(self, p: int, amount: int, creditor: int | None) -> bool:
        """Pay ``amount`` to a player or (``None``) the bank; False if ``p`` went bankrupt."""
        if self.cash[p] < amount:
            if self.liquid_value(p) < amount:
                self.go_bankrupt(p, creditor)
                return False
            self.raise_cash(p, amount)
        self.cash[p] -= amount
        if creditor is not None:
            self.cash[creditor] += amount
        return True

    def go_bankrupt(self, p: int, creditor: int | None) -> None:
        """Hand everything over (Tournament Kit, BANKRUPTCY); the bankrupt player keeps nothing."""
        owned = [position for position in self.deed_positions if self.owner[position] == p]
        for position in owned:
            self.cash[p] += self.sell_lot(position)
        if creditor is None:
            for position in owned:
                self.owner[position] = None
                self.mortgaged[position] = False
        else:
            self.cash[creditor] += self.cash[p]
            percent = self.edition.mortgage_interest_percent
            for position in owned:
                self.owner[position] = creditor
                if self.mortgaged[position]:
                    interest = _interest(self.spaces[position].mortgage, percent)
                    if self.cash[creditor] >= interest:
                        self.cash[creditor] -= interest
        self.cash[p] = 0
        self.in_jail[p] = False
        self.bankrupt[p] = True
        self.bankrupt_order.append(p)

    # The end of the game.

    def net_worth(self, p: int) -> int:
        """The sheet's valuation rule, counted from the simulator's own state (Championship Rules,
        SCORING)."""
        total = self.cash[p]
        for position in self.deed_positions:
            if self.owner[position] != p:
                continue
            space = self.spaces[position]
            total += space.price // 2 if self.mortgaged[position] else space.price
            if self.hotel[position]:
                total += space.house_cost * (self.hph + 1)
            else:
                total += self.houses[position] * space.house_cost
        return total

    def sheet(self, *, cash_as_bills: bool) -> dict[str, Any]:
        players: list[dict[str, Any]] = []
        for p, player_id in enumerate(self.ids):
            entry: dict[str, Any] = {"id": player_id, "bankrupt": self.bankrupt[p]}
            if cash_as_bills:
                entry["bills"] = bills_for(self.cash[p], self.edition)
            else:
                entry["cash"] = self.cash[p]
            if self.bankrupt[p]:
                entry["out_order"] = self.bankrupt_order.index(p) + 1
            players.append(entry)
        properties = [
            {
                "position": position,
                "owner": self.ids[owner],
                "mortgaged": self.mortgaged[position],
                "houses": self.houses[position],
                "hotel": self.hotel[position],
            }
            for position in self.deed_positions
            if (owner := self.owner[position]) is not None
        ]
        return {"edition": self.edition.slug, "players": players, "properties": properties}
