"""The rows of the kit's Score Sheet, blank or filled, for one player.

Columns follow the kit (Tournament Kit, Score Sheet): under "No buildings", mortgaged and
fully owned; under "With buildings", with 1..n houses and with a hotel, where n is the
edition's ``max_houses``, the most houses a lot can carry. That is not always the houses a
hotel needs: the rupee edition (Market Edition Rules) builds "up to a limit of four houses to a
property" yet sells a hotel after three, so its lots can stand with 4 houses. A cell's value
is what the deed is worth in that state under gameplay's valuation: price/2 mortgaged, price
owned, price + k house costs with k houses, price + ``edition.hotel_value`` with a hotel
(which counts the ``houses_per_hotel`` turned in). Railroads and utilities have only the
first two columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from gameplay.edition import Edition, Space
from gameplay.sheet import Holding
from gameplay.valuation import building_value, deed_value

if TYPE_CHECKING:
    from tournament.models import Player

# The kit lists the streets in board order, then the railroads, then the utilities.
KIND_ORDER = {"street": 0, "railroad": 1, "utility": 2}


@dataclass
class Cell:
    value: int | None  # None: no such state for this deed (a railroad with houses)
    marked: bool = False


@dataclass
class DeedRow:
    deed: Space
    group_colour: str
    cells: list[Cell]
    value: int | None = None  # filled sheets: the value of the marked cell


@dataclass
class BillRow:
    denomination: int
    count: int | None = None

    @property
    def value(self) -> int | None:
        return None if self.count is None else self.count * self.denomination


@dataclass
class SheetPage:
    """One printed score sheet: one player's page."""

    edition: Edition
    columns: list[str]
    rows: list[DeedRow]
    bills: list[BillRow]
    player: Player | None = None
    seat: object | None = None
    table: object | None = None
    round: object | None = None
    total_property: int | None = None
    total_cash: int | None = None
    signature: str = ""
    banker_signature: str = ""
    bankrupt: bool = False
    extras: dict = field(default_factory=dict)

    @property
    def building_columns(self) -> int:
        """The columns under "With buildings": 1..max_houses houses, then the hotel."""
        return len(self.columns) - 2

    @property
    def grand_total(self) -> int | None:
        if self.total_property is None or self.total_cash is None:
            return None
        return self.total_property + self.total_cash


def columns(edition: Edition) -> list[str]:
    house, houses = edition.word("house"), edition.word("house", 2)
    labels = [_("Mortgaged"), _("Fully owned")]
    labels.append(_("With 1 %(house)s") % {"house": house})
    labels += [
        _("With %(count)d %(houses)s") % {"count": k, "houses": houses}
        for k in range(2, edition.max_houses + 1)
    ]
    labels.append(_("With a %(hotel)s") % {"hotel": edition.word("hotel")})
    return labels


def deed_values(deed: Space, edition: Edition) -> list[int | None]:
    """The value of ``deed`` in each column of the sheet."""
    values: list[int | None] = [deed.price // 2, deed.price]
    if deed.kind == "street":
        values += [deed.price + k * deed.house_cost for k in range(1, edition.max_houses + 1)]
        values.append(deed.price + edition.hotel_value(deed))
    else:
        values += [None] * (edition.max_houses + 1)
    return values


def column_of(holding: Holding) -> int:
    if holding.mortgaged:
        return 0
    if holding.hotel:
        return -1
    return 1 + holding.houses


def blank_page(edition: Edition, **header) -> SheetPage:
    rows = [
        DeedRow(
            deed=deed,
            group_colour=edition.groups[deed.group].colour if deed.group else "#ffffff",
            cells=[Cell(value) for value in deed_values(deed, edition)],
        )
        for deed in sorted(edition.deeds, key=lambda deed: (KIND_ORDER[deed.kind], deed.position))
    ]
    # The kit counts bills from the smallest up.
    bills = [BillRow(denomination) for denomination in sorted(edition.denominations)]
    return SheetPage(edition=edition, columns=columns(edition), rows=rows, bills=bills, **header)


def filled_page(edition: Edition, data: dict, player_id: str, **header) -> SheetPage:
    """The player's page with the marks, counts and totals of a TableSheet's ``data``.

    Totals use gameplay.valuation, the engine's own rule, so the paper agrees with standings.
    """
    page = blank_page(edition, **header)
    entry: dict[str, Any] = next(
        (p for p in data.get("players", []) if str(p.get("id")) == player_id), {}
    )
    page.bankrupt = bool(entry.get("bankrupt"))
    by_position = {row.deed.position: row for row in page.rows}
    total_property = 0
    for item in data.get("properties", []):
        if str(item.get("owner")) != player_id or item.get("position") not in by_position:
            continue
        holding = Holding(
            position=item["position"],
            owner=player_id,
            mortgaged=bool(item.get("mortgaged")),
            houses=int(item.get("houses") or 0),
            hotel=bool(item.get("hotel")),
        )
        row = by_position[holding.position]
        value = deed_value(holding, edition) + building_value(holding, edition)
        index = column_of(holding)
        if -len(row.cells) <= index < len(row.cells):
            row.cells[index].marked = True
        row.value = value
        total_property += value
    bills = {int(k): v for k, v in (entry.get("bills") or {}).items() if str(k).isdigit()}
    for bill in page.bills:
        bill.count = int(bills.get(bill.denomination, 0) or 0) if bills else None
    if bills:
        cash = sum(bill.value or 0 for bill in page.bills)
    else:
        cash = int(entry.get("cash") or 0)
    if entry.get("cash") is not None:
        cash = int(entry["cash"])
    page.total_property = total_property
    page.total_cash = cash
    return page
