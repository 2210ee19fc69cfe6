"""Reading an end-of-game score sheet.

A score sheet arrives as plain data (JSON from the command line, a form from the banker's
tablet). Reading it turns it into frozen dataclasses and reports every count that cannot be
read as a :class:`Violation`, so the banker sees all mistakes at once and the rules checks
run on what could be read. Only a sheet whose shape is wrong (no player list, a player
without an id) is refused outright with :class:`SheetFormatError`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from gameplay.edition import Edition
from gameplay.wording import SENTENCES, Words


class SheetFormatError(ValueError):
    """The input is not a score sheet at all; nothing about it can be checked."""


# Every code the engine reports: one per sentence of wording.py. Applications key their own
# wording on these, so a Violation with a code not listed is refused.
VIOLATION_CODES = frozenset(SENTENCES)


@dataclass(frozen=True)
class Violation:
    """One broken rule: a stable code, a sentence for the banker, and where it is.

    ``params`` carries the facts as raw data (player ids, deed positions, group keys,
    counts, amounts); ``message`` is the code's sentence (wording.py) written from them in
    English, players by id, as the command line prints it. An application writes the same
    sentence in its own language from ``params`` and names players its own way. Which keys
    each code carries is listed in gameplay/README.md. ``params`` is read-only and takes no
    part in equality. Build one with :func:`violation`, which writes the message.
    """

    code: str
    message: str
    player: str | None = None
    positions: tuple[int, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.code not in VIOLATION_CODES:
            raise ValueError(
                f"unknown violation code {self.code!r}; give it a sentence in wording.py"
            )
        # A frozen violation should not change under whoever holds it: copy, then seal.
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "player": self.player,
            "positions": list(self.positions),
            "params": _plain(self.params),
        }


def violation(
    code: str,
    *,
    edition: Edition,
    params: Mapping[str, Any],
    player: str | None = None,
    positions: tuple[int, ...] = (),
) -> Violation:
    """A violation of ``code`` whose message is its one sentence, in English, by player id."""
    message = SENTENCES[code](params, Words(edition=edition))
    return Violation(code, message, player, positions, params=params)


def _plain(value: Any) -> Any:
    """``value`` as JSON data: mappings become dicts, tuples lists (reports are stored as JSON)."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _as_data(value: Any) -> Any:
    """What the sheet said, kept as data for ``Violation.params`` while staying JSON-safe.

    A whole number, a string, a boolean or null is kept; anything else (a list, an object, a
    float that is not finite) is given as its Python spelling, which is what the message shows.
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    return repr(value)


@dataclass(frozen=True)
class PlayerEntry:
    """A player's line: cash (from bills or a counted total) and whether they went bankrupt.

    ``out_order`` is 1 for the first player to go bankrupt, 2 for the next, and so on.
    """

    id: str
    bankrupt: bool
    cash: int
    out_order: int | None = None


@dataclass(frozen=True)
class Holding:
    """A title deed and its state. Deeds not on the sheet belong to the bank."""

    position: int
    owner: str | None
    mortgaged: bool = False
    houses: int = 0
    hotel: bool = False


@dataclass(frozen=True)
class ScoreSheet:
    edition: Edition
    players: tuple[PlayerEntry, ...]
    holdings: tuple[Holding, ...]


def read_sheet(data: Any, *, edition: Edition) -> tuple[ScoreSheet, list[Violation]]:
    """The readable part of ``data`` and a violation for each count that could not be read."""
    if not isinstance(data, Mapping):
        raise SheetFormatError("a score sheet must be a JSON object")
    players_data = data.get("players")
    if not isinstance(players_data, list) or not players_data:
        raise SheetFormatError("'players' must be a non-empty list")
    properties_data = data.get("properties", [])
    if not isinstance(properties_data, list):
        raise SheetFormatError("'properties' must be a list")

    violations: list[Violation] = []
    players = tuple(_read_player(item, edition, violations) for item in players_data)
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise SheetFormatError("every player needs a different 'id'")
    orders = [player.out_order for player in players if player.out_order is not None]
    if len(set(orders)) != len(orders):
        raise SheetFormatError("two bankrupt players cannot have the same 'out_order'")
    if any(player.out_order is not None and not player.bankrupt for player in players):
        raise SheetFormatError("'out_order' is only for bankrupt players")
    holdings = _read_holdings(properties_data, edition, set(ids), violations)
    return ScoreSheet(edition=edition, players=players, holdings=holdings), violations


def _whole_number(value: Any) -> int | None:
    """The value as an int if it is a whole number (2 or 2.0), else None. Booleans are not."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _flag(item: Mapping, key: str, where: str) -> bool:
    value = item.get(key, False)
    if not isinstance(value, bool):
        raise SheetFormatError(f"{where}: '{key}' must be true or false")
    return value


def _read_count(
    value: Any,
    player: str,
    edition: Edition,
    violations: list[Violation],
    bill: int | None = None,
) -> int:
    """A non-negative whole number, or 0 with a violation saying what is wrong with it.

    ``bill`` is the denomination when the count is a number of bills, None for counted cash.
    """
    counted: dict[str, Any] = {"player": player, "field": "cash" if bill is None else "bills"}
    if bill is not None:
        counted["bill"] = bill
    number = _whole_number(value)
    if number is None:
        violations.append(
            violation(
                "non-integer-count",
                edition=edition,
                player=player,
                params={**counted, "value": _as_data(value)},
            )
        )
        return 0
    if number < 0:
        violations.append(
            violation(
                "negative-count",
                edition=edition,
                player=player,
                params={**counted, "value": number},
            )
        )
        return 0
    return number


def _read_player(item: Any, edition: Edition, violations: list[Violation]) -> PlayerEntry:
    if not isinstance(item, Mapping) or not isinstance(item.get("id"), str) or not item["id"]:
        raise SheetFormatError("every player needs an 'id' that is a non-empty string")
    player = item["id"]
    bankrupt = _flag(item, "bankrupt", f"player {player}")

    bills_total = None
    bills = item.get("bills")
    if bills is not None:
        if not isinstance(bills, Mapping):
            raise SheetFormatError(f"player {player}: 'bills' must map denominations to counts")
        bills_total = 0
        for denomination, count in bills.items():
            bill = _whole_number(_as_number(denomination))
            if bill not in edition.denominations:
                violations.append(
                    violation(
                        "unknown-denomination",
                        edition=edition,
                        player=player,
                        params={
                            "player": player,
                            "bill": _as_data(denomination),
                            "denominations": edition.denominations,
                        },
                    )
                )
                continue
            bills_total += bill * _read_count(count, player, edition, violations, bill)

    cash = bills_total
    if "cash" in item and item["cash"] is not None:
        counted = _read_count(item["cash"], player, edition, violations)
        if bills_total is not None and counted != bills_total:
            violations.append(
                violation(
                    "cash-total-mismatch",
                    edition=edition,
                    player=player,
                    params={"player": player, "bills_total": bills_total, "cash": counted},
                )
            )
        cash = counted
    out_order = item.get("out_order")
    if out_order is not None and (_whole_number(out_order) is None or out_order < 1):
        raise SheetFormatError(f"player {player}: 'out_order' must be a whole number from 1")
    return PlayerEntry(
        id=player,
        bankrupt=bankrupt,
        cash=cash or 0,
        out_order=None if out_order is None else int(out_order),
    )


def _as_number(text: Any) -> Any:
    """JSON object keys are strings: read '500' as 500 and leave anything else as it is."""
    if isinstance(text, str):
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                return text
    return text


def _read_holdings(
    items: list, edition: Edition, player_ids: set[str], violations: list[Violation]
) -> tuple[Holding, ...]:
    holdings: dict[int, Holding] = {}
    for item in items:
        if not isinstance(item, Mapping):
            raise SheetFormatError("every entry of 'properties' must be an object")
        position = _whole_number(item.get("position"))
        deed = None if position is None else edition.deed(position)
        if position is None or deed is None:
            listed_for = item.get("owner") if isinstance(item.get("owner"), str) else None
            violations.append(
                violation(
                    "unknown-property",
                    edition=edition,
                    player=listed_for,
                    positions=(position,) if position is not None else (),
                    params={"position": _as_data(item.get("position")), "owner": listed_for},
                )
            )
            continue
        owner = item.get("owner")
        if owner is not None and owner not in player_ids:
            violations.append(
                violation(
                    "unknown-owner",
                    edition=edition,
                    positions=(position,),
                    params={"position": position, "owner": _as_data(owner)},
                )
            )
            continue
        where = f"{deed.name} (position {position})"
        holding = Holding(
            position=position,
            owner=owner,
            mortgaged=_flag(item, "mortgaged", where),
            houses=_read_houses(item.get("houses", 0), position, owner, edition, violations),
            hotel=_flag(item, "hotel", where),
        )
        earlier = holdings.get(position)
        if earlier is None:
            holdings[position] = holding
        elif earlier.owner != holding.owner:
            violations.append(
                violation(
                    "property-owned-twice",
                    edition=edition,
                    player=holding.owner,
                    positions=(position,),
                    params={"position": position, "owners": (earlier.owner, holding.owner)},
                )
            )
        else:
            violations.append(
                violation(
                    "property-listed-twice",
                    edition=edition,
                    player=holding.owner,
                    positions=(position,),
                    params={"position": position, "owner": holding.owner},
                )
            )
    return tuple(holdings[position] for position in sorted(holdings))


def _read_houses(
    value: Any,
    position: int,
    owner: str | None,
    edition: Edition,
    violations: list[Violation],
) -> int:
    houses = _whole_number(value)
    if houses is None or not 0 <= houses <= edition.max_houses:
        violations.append(
            violation(
                "houses-out-of-range",
                edition=edition,
                player=owner,
                positions=(position,),
                params={
                    "case": "count",
                    "position": position,
                    "player": owner,
                    "value": _as_data(value),
                    "max_houses": edition.max_houses,
                },
            )
        )
        return 0
    return houses
