"""The game's rules as they show on a finished score sheet.

Each check reads a :class:`ScoreSheet` and returns every :class:`Violation` it finds. The
rules are those of the rule books in shared/seeds: buildings only on complete, unmortgaged
colour groups (HOUSES, MORTGAGES), built evenly (HOUSES, HOTELS), within the bank's supply
(BUILDING SHORTAGE), and a bankrupt player hands over everything (BANKRUPTCY).
"""

from __future__ import annotations

from typing import Any

from gameplay.edition import Edition, Space
from gameplay.sheet import Holding, ScoreSheet, Violation, violation


def building_level(holding: Holding, edition: Edition) -> int:
    """Houses on a lot, with a hotel counting one above the houses it replaced.

    Building evenly means no lot of a group is more than one level above another; a hotel
    may stand only when every other lot has ``houses_per_hotel`` houses or a hotel.
    """
    return edition.houses_per_hotel + 1 if holding.hotel else holding.houses


def has_buildings(holding: Holding) -> bool:
    return holding.hotel or holding.houses > 0


def rule_violations(sheet: ScoreSheet) -> list[Violation]:
    edition = sheet.edition
    violations: list[Violation] = []
    for holding in sheet.holdings:
        # A sheet holds deeds only (gameplay.sheet drops any other space with a violation).
        violations.extend(_deed_violations(holding, edition.spaces[holding.position], edition))
    violations.extend(_group_violations(sheet))
    violations.extend(_supply_violations(sheet))
    violations.extend(_bankrupt_violations(sheet))
    return violations


def _state(holding: Holding) -> dict[str, Any]:
    """A deed's state as ``Violation.params`` give it, for a sentence to describe."""
    return {"mortgaged": holding.mortgaged, "houses": holding.houses, "hotel": holding.hotel}


def _deed_violations(holding: Holding, deed: Space, edition: Edition) -> list[Violation]:
    found = []
    where = (holding.position,)
    if holding.owner is None:
        if holding.mortgaged or has_buildings(holding):
            found.append(
                violation(
                    "unowned-property-state",
                    edition=edition,
                    positions=where,
                    params={"position": holding.position, **_state(holding)},
                )
            )
        return found
    owner = holding.owner
    if holding.hotel and holding.houses:
        found.append(
            violation(
                "houses-out-of-range",
                edition=edition,
                player=owner,
                positions=where,
                params={
                    "case": "hotel",
                    "player": owner,
                    "position": holding.position,
                    "houses": holding.houses,
                },
            )
        )
    if not has_buildings(holding):
        return found
    if deed.kind != "street":
        found.append(
            violation(
                "building-on-railroad-or-utility",
                edition=edition,
                player=owner,
                positions=where,
                params={
                    "player": owner,
                    "position": holding.position,
                    "kind": deed.kind,
                    **_state(holding),
                },
            )
        )
    elif holding.mortgaged:
        found.append(
            violation(
                "building-on-mortgaged-property",
                edition=edition,
                player=owner,
                positions=where,
                params={"player": owner, "position": holding.position, **_state(holding)},
            )
        )
    return found


def _group_violations(sheet: ScoreSheet) -> list[Violation]:
    edition = sheet.edition
    by_position = {holding.position: holding for holding in sheet.holdings}
    found = []
    for group in edition.groups.values():
        lots = [edition.spaces[position] for position in group.positions]
        if not lots or lots[0].kind != "street":
            continue
        held = [by_position.get(position) for position in group.positions]
        built = [h for h in held if h is not None and h.owner is not None and has_buildings(h)]
        if not built:
            continue
        builders = sorted({h.owner for h in built if h.owner is not None})
        owners = {h.owner if h is not None else None for h in held}
        if len(owners) != 1:
            for builder in builders:
                positions = tuple(h.position for h in built if h.owner == builder)
                found.append(
                    violation(
                        "building-without-monopoly",
                        edition=edition,
                        player=builder,
                        positions=positions,
                        params={"player": builder, "group": group.key, "positions": positions},
                    )
                )
            continue
        # One owner, who has built: every lot of the group is held.
        lots_held = [h for h in held if h is not None]
        owner = builders[0]
        mortgaged = [h for h in lots_held if h.mortgaged]
        # A built lot that is itself mortgaged is reported on its own; this rule is about
        # unmortgaged lots carrying buildings next to a mortgaged one.
        standing = [b for b in built if not b.mortgaged]
        other_mortgaged = [h for h in mortgaged if any(b.position != h.position for b in standing)]
        if other_mortgaged:
            positions = tuple(sorted({h.position for h in standing + other_mortgaged}))
            found.append(
                violation(
                    "building-in-group-with-mortgaged-lot",
                    edition=edition,
                    player=owner,
                    positions=positions,
                    params={
                        "player": owner,
                        "group": group.key,
                        "mortgaged": tuple(h.position for h in other_mortgaged),
                    },
                )
            )
        levels = {h.position: building_level(h, edition) for h in lots_held}
        if max(levels.values()) - min(levels.values()) > 1:
            found.append(
                violation(
                    "uneven-building",
                    edition=edition,
                    player=owner,
                    positions=tuple(group.positions),
                    params={
                        "player": owner,
                        "group": group.key,
                        "lots": tuple(
                            {"position": h.position, "houses": h.houses, "hotel": h.hotel}
                            for h in lots_held
                        ),
                    },
                )
            )
    return found


def _supply_violations(sheet: ScoreSheet) -> list[Violation]:
    edition = sheet.edition
    found = []
    houses = [h for h in sheet.holdings if h.houses and not h.hotel]
    hotels = [h for h in sheet.holdings if h.hotel]
    house_count = sum(h.houses for h in houses)
    for count, stock, holdings, code in (
        (house_count, edition.bank_houses, houses, "house-supply-exceeded"),
        (len(hotels), edition.bank_hotels, hotels, "hotel-supply-exceeded"),
    ):
        if count > stock:
            found.append(
                violation(
                    code,
                    edition=edition,
                    positions=tuple(h.position for h in holdings),
                    params={"count": count, "stock": stock},
                )
            )
    return found


def _bankrupt_violations(sheet: ScoreSheet) -> list[Violation]:
    edition = sheet.edition
    found = []
    for player in sheet.players:
        if not player.bankrupt:
            continue
        positions = tuple(h.position for h in sheet.holdings if h.owner == player.id)
        if player.cash or positions:
            found.append(
                violation(
                    "bankrupt-player-has-assets",
                    edition=edition,
                    player=player.id,
                    positions=positions,
                    params={"player": player.id, "cash": player.cash, "positions": positions},
                )
            )
    return found
