"""What a player's estate is worth on the score sheet.

The one valuation rule of the championship rules (Championship Rules, SCORING BY ROUND): cash
on hand; lots, utilities and railroads at the price printed on the board; mortgaged property
at half that price; houses at their purchase price; hotels at their purchase price including
the houses turned in for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gameplay.edition import Edition
from gameplay.sheet import Holding


@dataclass(frozen=True)
class Valuation:
    cash: int
    deed_value: int
    building_value: int
    # The tie-breaker: printed prices of the title deeds that are not mortgaged.
    unmortgaged_property_value: int

    @property
    def net_worth(self) -> int:
        return self.cash + self.deed_value + self.building_value


def deed_value(holding: Holding, edition: Edition) -> int:
    price = edition.spaces[holding.position].price
    return price // 2 if holding.mortgaged else price


def building_value(holding: Holding, edition: Edition) -> int:
    street = edition.spaces[holding.position]
    if holding.hotel:
        return edition.hotel_value(street)
    return holding.houses * street.house_cost


def value_estate(*, cash: int, holdings: Iterable[Holding], edition: Edition) -> Valuation:
    holdings = tuple(holdings)
    return Valuation(
        cash=cash,
        deed_value=sum(deed_value(h, edition) for h in holdings),
        building_value=sum(building_value(h, edition) for h in holdings),
        unmortgaged_property_value=sum(
            edition.spaces[h.position].price for h in holdings if not h.mortgaged
        ),
    )
