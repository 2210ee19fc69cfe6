"""Editions of the game as data.

An edition is everything that changes from one box to another: names, currency, bills,
the bank's buildings and how many houses a hotel needs. Each lives in one JSON file under
``gameplay/editions/``; an edition may ``extend`` another and override what differs, so the
numbers of the classic board are written down exactly once (``classic-us.json``).

This module only loads and checks those files. It is the engine's one piece of I/O.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gameplay.money import WESTERN, format_money

EDITIONS_DIR = Path(__file__).parent / "editions"
BOARD_SIZE = 40
SPACE_KINDS = frozenset({"street", "railroad", "utility", "tax", "card", "corner"})
DEED_KINDS = frozenset({"street", "railroad", "utility"})


class EditionError(ValueError):
    """An edition file is missing or does not describe a playable board."""


@dataclass(frozen=True)
class ColourGroup:
    key: str
    name: str
    colour: str
    positions: tuple[int, ...]


@dataclass(frozen=True)
class Space:
    """One of the 40 board spaces. Deeds carry price and mortgage; streets also rents."""

    position: int
    kind: str
    name: str
    group: str | None = None
    price: int = 0
    mortgage: int = 0
    house_cost: int = 0
    # Street rent: unimproved, with 1, 2, 3, 4 houses, with a hotel.
    rents: tuple[int, ...] = ()
    tax: int = 0
    deck: str | None = None

    @property
    def is_deed(self) -> bool:
        return self.kind in DEED_KINDS


@dataclass(frozen=True)
class Edition:
    slug: str
    name: str
    notes: str
    currency_symbol: str
    currency_code: str
    # How the edition's market groups digits: (3,) 1,500,000; (3, 2) the Indian 15,00,000.
    # Empty: the reader's language decides (tournament/money.py).
    digit_grouping: tuple[int, ...]
    words: Mapping[str, str]
    denominations: tuple[int, ...]
    starting_cash: int
    starting_splits: tuple[Mapping[int, int], ...]
    bank_houses: int
    bank_hotels: int
    max_houses: int
    houses_per_hotel: int
    go_salary: int
    jail_fine: int
    mortgage_interest_percent: int
    railroad_rents: tuple[int, ...]
    utility_multipliers: tuple[int, ...]
    groups: Mapping[str, ColourGroup]
    spaces: tuple[Space, ...]

    @property
    def deeds(self) -> tuple[Space, ...]:
        return tuple(space for space in self.spaces if space.is_deed)

    def deed(self, position: int) -> Space | None:
        """The title deed at ``position``, or None where the space is not a deed."""
        if not 0 <= position < BOARD_SIZE:
            return None
        space = self.spaces[position]
        return space if space.is_deed else None

    def hotel_value(self, street: Space) -> int:
        """A hotel is worth its price plus the houses turned in for it (Championship Rules, SCORING
        BY ROUND).

        The hotel's price is one house's price, and the houses turned in are the edition's
        ``houses_per_hotel``: five house prices in the classic game, four in a three-house one.
        """
        return street.house_cost * (self.houses_per_hotel + 1)

    def money(self, amount: int) -> str:
        """The amount as the engine's English sentences write it: $1,500, ₹1,50,000."""
        return format_money(
            amount, symbol=self.currency_symbol, grouping=self.digit_grouping or WESTERN
        )

    def word(self, key: str, count: int = 1) -> str:
        """The edition's word for a building or card deck: 'boutique' for 'house'. For
        several, the plural the edition's file gives ("utilities" for "utility"), or else
        the word and "s"."""
        if count == 1:
            return self.words[key]
        return self.words.get(PLURAL_KEYS.get(key, key + "s"), self.words[key] + "s")


# The keys of an edition's "words" whose plural key is not the key and "s".
PLURAL_KEYS = {"utility": "utilities"}


def edition_slugs() -> tuple[str, ...]:
    return tuple(sorted(path.stem for path in EDITIONS_DIR.glob("*.json")))


@cache
def load_edition(slug: str) -> Edition:
    return _build(slug, _raw(slug, ()))


def all_editions() -> tuple[Edition, ...]:
    return tuple(load_edition(slug) for slug in edition_slugs())


def _raw(slug: str, seen: tuple[str, ...]) -> dict[str, Any]:
    """The edition's data with whatever it extends merged in underneath it."""
    if slug in seen:
        raise EditionError(f"edition {slug!r} extends itself through {' -> '.join(seen)}")
    path = EDITIONS_DIR / f"{slug}.json"
    if not path.is_file():
        raise EditionError(f"no edition {slug!r}; known editions: {', '.join(edition_slugs())}")
    data = json.loads(path.read_text(encoding="utf-8"))
    base = data.pop("extends", None)
    if base is None:
        return data
    merged = _raw(base, (*seen, slug))
    for key, value in data.items():
        if key in ("spaces", "groups"):
            merged[key] = _merge_by(merged[key], value, "position" if key == "spaces" else "key")
        elif key == "words":
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def _merge_by(base: list[dict], overrides: list[dict], key: str) -> list[dict]:
    by_key = {item[key]: dict(item) for item in base}
    for item in overrides:
        if item[key] not in by_key:
            raise EditionError(f"override for unknown {key} {item[key]!r}")
        by_key[item[key]].update(item)
    return list(by_key.values())


def _build(slug: str, data: dict[str, Any]) -> Edition:
    spaces = tuple(
        Space(
            position=item["position"],
            kind=item["kind"],
            name=item["name"],
            group=item.get("group"),
            price=item.get("price", 0),
            mortgage=item.get("mortgage", 0),
            house_cost=item.get("house_cost", 0),
            rents=tuple(item.get("rents", ())),
            tax=item.get("amount", 0),
            deck=item.get("deck"),
        )
        for item in sorted(data["spaces"], key=lambda item: item["position"])
    )
    groups = {
        item["key"]: ColourGroup(
            key=item["key"],
            name=item["name"],
            colour=item.get("colour", "#000000"),
            positions=tuple(space.position for space in spaces if space.group == item["key"]),
        )
        for item in data["groups"]
    }
    splits = tuple(
        {int(bill): count for bill, count in split.items()}
        for split in data["starting_cash"]["splits"]
    )
    edition = Edition(
        slug=slug,
        name=data["name"],
        notes=data.get("notes", ""),
        currency_symbol=data["currency"]["symbol"],
        currency_code=data["currency"]["code"],
        digit_grouping=tuple(data["currency"].get("grouping", ())),
        words=dict(data["words"]),
        denominations=tuple(sorted(data["denominations"], reverse=True)),
        starting_cash=data["starting_cash"]["total"],
        starting_splits=splits,
        bank_houses=data["bank"]["houses"],
        bank_hotels=data["bank"]["hotels"],
        max_houses=data["max_houses"],
        houses_per_hotel=data["houses_per_hotel"],
        go_salary=data["go_salary"],
        jail_fine=data["jail_fine"],
        mortgage_interest_percent=data["mortgage_interest_percent"],
        railroad_rents=tuple(data["railroad_rents"]),
        utility_multipliers=tuple(data["utility_multipliers"]),
        groups=groups,
        spaces=spaces,
    )
    _check(edition)
    return edition


def _check(edition: Edition) -> None:
    """Refuse a board the engine cannot score, so a typo in a data file fails loudly."""
    problems = []
    if [space.position for space in edition.spaces] != list(range(BOARD_SIZE)):
        problems.append(f"positions must be 0..{BOARD_SIZE - 1}, each once")
    for space in edition.spaces:
        where = f"position {space.position} ({space.name})"
        if space.kind not in SPACE_KINDS:
            problems.append(f"{where}: unknown kind {space.kind!r}")
        if not space.is_deed:
            continue
        if space.group not in edition.groups:
            problems.append(f"{where}: unknown group {space.group!r}")
        # Mortgaged deeds count at half the printed price; an odd price would need cents.
        if space.price <= 0 or space.price % 2:
            problems.append(f"{where}: price must be a positive even number")
        if space.kind == "street" and (len(space.rents) != 6 or space.house_cost <= 0):
            problems.append(f"{where}: a street needs six rents and a house cost")
    for split in edition.starting_splits:
        if sum(bill * count for bill, count in split.items()) != edition.starting_cash:
            problems.append(f"a starting split does not add up to {edition.starting_cash}")
        if not set(split) <= set(edition.denominations):
            problems.append("a starting split uses a bill the edition does not have")
    if not 1 <= edition.houses_per_hotel <= edition.max_houses:
        problems.append("houses_per_hotel must be between 1 and max_houses")
    if problems:
        raise EditionError(f"edition {edition.slug!r}: " + "; ".join(problems))
