"""Checking and valuing a whole score sheet: what the banker's tablet and the CLI call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gameplay.edition import Edition, EditionError, load_edition
from gameplay.points import CHAMPIONSHIP_POINTS, PointsTable, Standing, rank_table
from gameplay.rules import rule_violations
from gameplay.sheet import ScoreSheet, SheetFormatError, Violation, read_sheet
from gameplay.valuation import Valuation, value_estate


@dataclass(frozen=True)
class PlayerResult:
    id: str
    bankrupt: bool
    valuation: Valuation
    place: int | None
    points: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "bankrupt": self.bankrupt,
            "cash": self.valuation.cash,
            "deed_value": self.valuation.deed_value,
            "building_value": self.valuation.building_value,
            "net_worth": self.valuation.net_worth,
            "unmortgaged_property_value": self.valuation.unmortgaged_property_value,
            "place": self.place,
            "points": self.points,
        }


@dataclass(frozen=True)
class SheetReport:
    """Every violation on the sheet, and each player's valuation.

    Net worth is given even for a sheet with violations, so the tablet can show it while the
    banker corrects; places and points only once the sheet is valid.
    """

    sheet: ScoreSheet
    errors: tuple[Violation, ...]
    players: tuple[PlayerResult, ...]
    unresolved_ties: tuple[tuple[str, ...], ...]

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "errors": [error.to_dict() for error in self.errors],
            "players": [player.to_dict() for player in self.players],
            "unresolved_ties": [list(tie) for tie in self.unresolved_ties],
        }


def check_sheet(
    data: Any,
    *,
    edition: Edition | None = None,
    points_table: PointsTable | None = CHAMPIONSHIP_POINTS,
) -> SheetReport:
    """Read, check and value ``data`` (the CLI's JSON shape; see gameplay/README.md).

    ``edition`` defaults to the one the sheet names. Raises SheetFormatError where the data
    is not a score sheet at all.
    """
    if edition is None:
        edition = _edition_named_in(data)
    sheet, errors = read_sheet(data, edition=edition)
    errors.extend(rule_violations(sheet))
    valuations = {
        player.id: value_estate(
            cash=player.cash,
            holdings=(h for h in sheet.holdings if h.owner == player.id),
            edition=edition,
        )
        for player in sheet.players
    }
    if errors:
        placings: dict[str, tuple[int | None, int | None]] = {
            player.id: (None, None) for player in sheet.players
        }
        ties: tuple[tuple[str, ...], ...] = ()
    else:
        result = rank_table(
            [
                Standing(
                    id=player.id,
                    bankrupt=player.bankrupt,
                    net_worth=valuations[player.id].net_worth,
                    unmortgaged_property_value=valuations[player.id].unmortgaged_property_value,
                    out_order=player.out_order,
                )
                for player in sheet.players
            ],
            table=points_table,
        )
        placings = {p.id: (p.place, p.points) for p in result.placings}
        ties = result.unresolved_ties
    return SheetReport(
        sheet=sheet,
        errors=tuple(errors),
        players=tuple(
            PlayerResult(
                id=player.id,
                bankrupt=player.bankrupt,
                valuation=valuations[player.id],
                place=placings[player.id][0],
                points=placings[player.id][1],
            )
            for player in sheet.players
        ),
        unresolved_ties=ties,
    )


def _edition_named_in(data: Any) -> Edition:
    slug = data.get("edition") if isinstance(data, dict) else None
    if not isinstance(slug, str):
        raise SheetFormatError("'edition' must name an edition (see 'python -m gameplay editions')")
    try:
        return load_edition(slug)
    except EditionError as error:
        raise SheetFormatError(str(error)) from error
