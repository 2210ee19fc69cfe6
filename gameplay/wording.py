"""Each violation code's sentence, written once: the command line prints it, the pages translate it.

A rule of the engine reports a code and ``params`` (sheet.py, rules.py); the words are
here, one function per code, with named placeholders so a translation can put the player,
the deed and the numbers where its language wants them. How players are named and which
language the text is in is the ``Words`` the function is given: this module's own writes
English with players by their id on the sheet (``Violation.message``, what the command
line prints); the tournament apps hand in a subclass that translates each text through
gettext (the English here is the msgid; ``makemessages`` finds it through the
``w.gettext``/``w.ngettext`` calls) and names players by alias (scoring/violations.py).

A new rule is a code and one sentence function in ``SENTENCES``; ``VIOLATION_CODES`` is
that table's keys.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gameplay.edition import Edition


class Unfit(Exception):
    """The params do not describe something this edition has (or there is no edition)."""


class Words:
    """What a sentence needs besides its params: its language, names for players, deeds,
    groups and money. As it stands: English, players by their id on the sheet."""

    def __init__(self, *, edition: Edition | None, aliases: Mapping[str, str] | None = None):
        self.aliases = aliases or {}
        self._edition = edition

    @property
    def edition(self) -> Edition:
        if self._edition is None:
            raise Unfit("no edition")
        return self._edition

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return singular if count == 1 else plural

    def player(self, pid: Any) -> str:
        """A player's alias, or their id as the sheet gives it; None is the bank."""
        if pid is None:
            return self.gettext("the bank")
        return self.aliases.get(str(pid), str(pid))

    def deed(self, position: Any) -> str:
        deed = self.edition.deed(position) if isinstance(position, int) else None
        if deed is None:
            raise Unfit(position)
        return deed.name

    def deeds(self, positions: Any) -> str:
        return ", ".join(self.deed(position) for position in positions)

    def group(self, key: Any) -> str:
        group = self.edition.groups.get(key)
        if group is None:
            raise Unfit(key)
        return group.name

    def money(self, amount: int) -> str:
        return self.edition.money(amount)

    def buildings(self, *, houses: int, hotel: bool) -> str:
        """What stands on a lot, in the edition's words: "a hotel", "3 houses"."""
        if hotel:
            return self.gettext("a %(hotel)s") % {"hotel": self.edition.word("hotel")}
        return self.ngettext("%(count)s %(house)s", "%(count)s %(house)s", houses) % {
            "count": houses,
            "house": self.edition.word("house", houses),
        }

    def counted(self, params: Mapping[str, Any]) -> str:
        """What a count on the player's line is of: the cash, or the bills of one value."""
        if params["field"] == "cash":
            return self.gettext("cash")
        return self.gettext("the number of %(bill)s bills") % {"bill": self.money(params["bill"])}


def _typed(value: Any) -> str:
    """A value as the banker typed it, quoted like the engine quotes it ('two', 2.5)."""
    return repr(value)


# --- One sentence per code -----------------------------------------------------------------
# Each takes the violation's params and the words, and returns the sentence. Named
# placeholders let a translation put the player, the deed and the numbers where its
# language wants them.


def _non_integer_count(p: Mapping[str, Any], w: Words) -> str:
    return w.gettext("%(player)s: %(what)s must be a whole number, not %(value)s.") % {
        "player": w.player(p["player"]),
        "what": w.counted(p),
        "value": _typed(p["value"]),
    }


def _negative_count(p: Mapping[str, Any], w: Words) -> str:
    return w.gettext("%(player)s: %(what)s cannot be negative (%(value)s).") % {
        "player": w.player(p["player"]),
        "what": w.counted(p),
        "value": p["value"],
    }


def _unknown_denomination(p: Mapping[str, Any], w: Words) -> str:
    return w.gettext(
        "%(player)s: there is no %(bill)s bill in this edition (bills: %(bills)s)."
    ) % {
        "player": w.player(p["player"]),
        "bill": f"{w.edition.currency_symbol}{p['bill']}",
        "bills": ", ".join(str(bill) for bill in p["denominations"]),
    }


def _cash_total_mismatch(p: Mapping[str, Any], w: Words) -> str:
    return w.gettext(
        "%(player)s: the bills add up to %(bills)s but the counted cash is %(cash)s; recount."
    ) % {
        "player": w.player(p["player"]),
        "bills": w.money(p["bills_total"]),
        "cash": w.money(p["cash"]),
    }


def _unknown_property(p: Mapping[str, Any], w: Words) -> str:
    return w.gettext("Position %(position)s is not a title deed in %(edition)s.") % {
        "position": _typed(p["position"]),
        "edition": w.edition.name,
    }


def _unknown_owner(p: Mapping[str, Any], w: Words) -> str:
    owner = p["owner"]
    known = isinstance(owner, str) and owner in w.aliases
    return w.gettext("%(deed)s is listed for %(owner)s, who is not a player at this table.") % {
        "deed": w.deed(p["position"]),
        "owner": w.player(owner) if known else _typed(owner),
    }


def _property_owned_twice(p: Mapping[str, Any], w: Words) -> str:
    first, second = p["owners"]
    return w.gettext(
        "%(deed)s is listed for both %(first)s and %(second)s; there is only one title deed."
    ) % {"deed": w.deed(p["position"]), "first": w.player(first), "second": w.player(second)}


def _property_listed_twice(p: Mapping[str, Any], w: Words) -> str:
    return w.gettext("%(deed)s is listed twice for %(owner)s; list each title deed once.") % {
        "deed": w.deed(p["position"]),
        "owner": w.player(p["owner"]),
    }


def _houses_out_of_range(p: Mapping[str, Any], w: Words) -> str:
    if p["case"] == "count":
        return w.gettext(
            "%(deed)s: the number of %(houses)s must be a whole number from 0 to %(max)s, "
            "not %(value)s."
        ) % {
            "deed": w.deed(p["position"]),
            "houses": w.edition.word("house", 2),
            "max": p["max_houses"],
            "value": _typed(p["value"]),
        }
    if p["case"] != "hotel":
        raise Unfit(p["case"])
    houses = p["houses"]
    return w.ngettext(
        "%(player)s: %(deed)s has a %(hotel)s and %(count)s %(house)s; the %(houses)s are "
        "turned in when the %(hotel)s is built, so enter the %(hotel)s alone.",
        "%(player)s: %(deed)s has a %(hotel)s and %(count)s %(house)s; the %(houses)s are "
        "turned in when the %(hotel)s is built, so enter the %(hotel)s alone.",
        houses,
    ) % {
        "player": w.player(p["player"]),
        "deed": w.deed(p["position"]),
        "hotel": w.edition.word("hotel"),
        "count": houses,
        "house": w.edition.word("house", houses),
        "houses": w.edition.word("house", 2),
    }


def _unowned_property_state(p: Mapping[str, Any], w: Words) -> str:
    return w.gettext("%(deed)s belongs to the bank, so it cannot be mortgaged or built on.") % {
        "deed": w.deed(p["position"])
    }


def _building_on_railroad_or_utility(p: Mapping[str, Any], w: Words) -> str:
    return w.gettext("%(player)s: %(deed)s is a %(kind)s; nothing can be built on it.") % {
        "player": w.player(p["player"]),
        "deed": w.deed(p["position"]),
        "kind": w.edition.word(p["kind"]),
    }


def _building_on_mortgaged_property(p: Mapping[str, Any], w: Words) -> str:
    return w.gettext(
        "%(player)s: %(deed)s is mortgaged and has %(buildings)s; buildings must be sold "
        "before a property is mortgaged."
    ) % {
        "player": w.player(p["player"]),
        "deed": w.deed(p["position"]),
        "buildings": w.buildings(houses=p["houses"], hotel=p["hotel"]),
    }


def _building_without_monopoly(p: Mapping[str, Any], w: Words) -> str:
    positions = p["positions"]
    return w.ngettext(
        "%(player)s: %(deeds)s has buildings, but %(player)s does not own every property of "
        "the %(group)s group.",
        "%(player)s: %(deeds)s have buildings, but %(player)s does not own every property of "
        "the %(group)s group.",
        len(positions),
    ) % {
        "player": w.player(p["player"]),
        "deeds": w.deeds(positions),
        "group": w.group(p["group"]),
    }


def _building_in_group_with_mortgaged_lot(p: Mapping[str, Any], w: Words) -> str:
    mortgaged = p["mortgaged"]
    return w.ngettext(
        "%(player)s: the %(group)s group has buildings while %(deeds)s is mortgaged; no group "
        "with a mortgaged property may carry buildings.",
        "%(player)s: the %(group)s group has buildings while %(deeds)s are mortgaged; no "
        "group with a mortgaged property may carry buildings.",
        len(mortgaged),
    ) % {
        "player": w.player(p["player"]),
        "group": w.group(p["group"]),
        "deeds": w.deeds(mortgaged),
    }


def _uneven_building(p: Mapping[str, Any], w: Words) -> str:
    lots = ", ".join(
        w.gettext("%(deed)s %(buildings)s")
        % {
            "deed": w.deed(lot["position"]),
            "buildings": w.buildings(houses=lot["houses"], hotel=lot["hotel"]),
        }
        for lot in p["lots"]
    )
    return w.gettext(
        "%(player)s: the %(group)s group is not built evenly (%(lots)s); lots of one group "
        "may differ by at most one building."
    ) % {"player": w.player(p["player"]), "group": w.group(p["group"]), "lots": lots}


def _supply_exceeded(word: str, p: Mapping[str, Any], w: Words) -> str:
    count = p["count"]
    return w.ngettext(
        "The table shows %(count)s %(buildings)s, but the bank has only %(stock)s; "
        "recount the buildings.",
        "The table shows %(count)s %(buildings)s, but the bank has only %(stock)s; "
        "recount the buildings.",
        count,
    ) % {"count": count, "buildings": w.edition.word(word, count), "stock": p["stock"]}


def _house_supply_exceeded(p: Mapping[str, Any], w: Words) -> str:
    return _supply_exceeded("house", p, w)


def _hotel_supply_exceeded(p: Mapping[str, Any], w: Words) -> str:
    return _supply_exceeded("hotel", p, w)


def _bankrupt_player_has_assets(p: Mapping[str, Any], w: Words) -> str:
    held = [w.money(p["cash"])] if p["cash"] else []
    held.extend(w.deed(position) for position in p["positions"])
    return w.gettext(
        "%(player)s is bankrupt but still has %(assets)s; a bankrupt player hands everything "
        "to the creditor or the bank."
    ) % {"player": w.player(p["player"]), "assets": ", ".join(held)}


SENTENCES: dict[str, Callable[[Mapping[str, Any], Words], str]] = {
    "non-integer-count": _non_integer_count,
    "negative-count": _negative_count,
    "unknown-denomination": _unknown_denomination,
    "cash-total-mismatch": _cash_total_mismatch,
    "unknown-property": _unknown_property,
    "unknown-owner": _unknown_owner,
    "property-owned-twice": _property_owned_twice,
    "property-listed-twice": _property_listed_twice,
    "houses-out-of-range": _houses_out_of_range,
    "unowned-property-state": _unowned_property_state,
    "building-on-railroad-or-utility": _building_on_railroad_or_utility,
    "building-on-mortgaged-property": _building_on_mortgaged_property,
    "building-without-monopoly": _building_without_monopoly,
    "building-in-group-with-mortgaged-lot": _building_in_group_with_mortgaged_lot,
    "uneven-building": _uneven_building,
    "house-supply-exceeded": _house_supply_exceeded,
    "hotel-supply-exceeded": _hotel_supply_exceeded,
    "bankrupt-player-has-assets": _bankrupt_player_has_assets,
}
