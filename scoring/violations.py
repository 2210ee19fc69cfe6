"""The rules engine's violations as sentences for people: translated, with aliases.

The engine (``gameplay``) reports each broken rule with a stable code, an English sentence
naming players by id, and ``params``: the same facts as raw data (see gameplay/README.md).
Officials and players read them in the tournament's language, and players are known by
their aliases, never by a database id; so every page writes the sentence here, from the
code and the params, through gettext. Picking the engine's English apart with regexes
missed ids ("but 1 does not own every property") and could not be translated.

A report stored before the engine gave params, a code this module does not know yet, or
params that do not fit the edition fall back to the engine's sentence with the player ids
it can safely recognise replaced by aliases: worse, but never an error page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gameplay.edition import Edition

__all__ = ["violation_text", "violation_texts"]


class _Unfit(Exception):
    """The params do not describe something this edition has; use the engine's sentence."""


class _Words:
    """What a sentence needs besides its params: names for players, deeds, groups, money."""

    def __init__(self, *, aliases: Mapping[str, str], edition: Edition) -> None:
        self.aliases = aliases
        self.edition = edition

    def player(self, pid: Any) -> str:
        """A player's alias; an id the table does not know is shown as it was typed."""
        if pid is None:
            return _("the bank")
        return self.aliases.get(str(pid), str(pid))

    def deed(self, position: Any) -> str:
        deed = self.edition.deed(position) if isinstance(position, int) else None
        if deed is None:
            raise _Unfit(position)
        return deed.name

    def deeds(self, positions: Any) -> str:
        return ", ".join(self.deed(position) for position in positions)

    def group(self, key: Any) -> str:
        group = self.edition.groups.get(key)
        if group is None:
            raise _Unfit(key)
        return group.name

    def money(self, amount: int) -> str:
        return self.edition.money(amount)

    def buildings(self, *, houses: int, hotel: bool) -> str:
        """What stands on a lot, in the edition's words: "a hotel", "3 houses"."""
        if hotel:
            return _("a %(hotel)s") % {"hotel": self.edition.word("hotel")}
        return ngettext("%(count)s %(house)s", "%(count)s %(house)s", houses) % {
            "count": houses,
            "house": self.edition.word("house", houses),
        }

    def counted(self, params: Mapping[str, Any]) -> str:
        """What a count on the player's line is of: the cash, or the bills of one value."""
        if params["field"] == "cash":
            return _("cash")
        return _("the number of %(bill)s bills") % {"bill": self.money(params["bill"])}


def _typed(value: Any) -> str:
    """A value as the banker typed it, quoted like the engine quotes it ('two', 2.5)."""
    return repr(value)


# --- One sentence per code -----------------------------------------------------------------
# Each takes the violation's params and the words, and returns the sentence. Named
# placeholders let a translation put the player, the deed and the numbers where its
# language wants them.


def _non_integer_count(p: Mapping[str, Any], w: _Words) -> str:
    return _("%(player)s: %(what)s must be a whole number, not %(value)s.") % {
        "player": w.player(p["player"]),
        "what": w.counted(p),
        "value": _typed(p["value"]),
    }


def _negative_count(p: Mapping[str, Any], w: _Words) -> str:
    return _("%(player)s: %(what)s cannot be negative (%(value)s).") % {
        "player": w.player(p["player"]),
        "what": w.counted(p),
        "value": p["value"],
    }


def _unknown_denomination(p: Mapping[str, Any], w: _Words) -> str:
    return _("%(player)s: there is no %(bill)s bill in this edition (bills: %(bills)s).") % {
        "player": w.player(p["player"]),
        "bill": f"{w.edition.currency_symbol}{p['bill']}",
        "bills": ", ".join(str(bill) for bill in p["denominations"]),
    }


def _cash_total_mismatch(p: Mapping[str, Any], w: _Words) -> str:
    return _(
        "%(player)s: the bills add up to %(bills)s but the counted cash is %(cash)s; recount."
    ) % {
        "player": w.player(p["player"]),
        "bills": w.money(p["bills_total"]),
        "cash": w.money(p["cash"]),
    }


def _unknown_property(p: Mapping[str, Any], w: _Words) -> str:
    return _("Position %(position)s is not a title deed in %(edition)s.") % {
        "position": _typed(p["position"]),
        "edition": w.edition.name,
    }


def _unknown_owner(p: Mapping[str, Any], w: _Words) -> str:
    owner = p["owner"]
    known = isinstance(owner, str) and owner in w.aliases
    return _("%(deed)s is listed for %(owner)s, who is not a player at this table.") % {
        "deed": w.deed(p["position"]),
        "owner": w.player(owner) if known else _typed(owner),
    }


def _property_owned_twice(p: Mapping[str, Any], w: _Words) -> str:
    first, second = p["owners"]
    return _(
        "%(deed)s is listed for both %(first)s and %(second)s; there is only one title deed."
    ) % {"deed": w.deed(p["position"]), "first": w.player(first), "second": w.player(second)}


def _property_listed_twice(p: Mapping[str, Any], w: _Words) -> str:
    return _("%(deed)s is listed twice for %(owner)s; list each title deed once.") % {
        "deed": w.deed(p["position"]),
        "owner": w.player(p["owner"]),
    }


def _houses_out_of_range(p: Mapping[str, Any], w: _Words) -> str:
    if p["case"] == "count":
        return _(
            "%(deed)s: the number of %(houses)s must be a whole number from 0 to %(max)s, "
            "not %(value)s."
        ) % {
            "deed": w.deed(p["position"]),
            "houses": w.edition.word("house", 2),
            "max": p["max_houses"],
            "value": _typed(p["value"]),
        }
    if p["case"] != "hotel":
        raise _Unfit(p["case"])
    houses = p["houses"]
    return ngettext(
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


def _unowned_property_state(p: Mapping[str, Any], w: _Words) -> str:
    return _("%(deed)s belongs to the bank, so it cannot be mortgaged or built on.") % {
        "deed": w.deed(p["position"])
    }


def _building_on_railroad_or_utility(p: Mapping[str, Any], w: _Words) -> str:
    return _("%(player)s: %(deed)s is a %(kind)s; nothing can be built on it.") % {
        "player": w.player(p["player"]),
        "deed": w.deed(p["position"]),
        "kind": w.edition.word(p["kind"]),
    }


def _building_on_mortgaged_property(p: Mapping[str, Any], w: _Words) -> str:
    return _(
        "%(player)s: %(deed)s is mortgaged and has %(buildings)s; buildings must be sold "
        "before a property is mortgaged."
    ) % {
        "player": w.player(p["player"]),
        "deed": w.deed(p["position"]),
        "buildings": w.buildings(houses=p["houses"], hotel=p["hotel"]),
    }


def _building_without_monopoly(p: Mapping[str, Any], w: _Words) -> str:
    positions = p["positions"]
    return ngettext(
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


def _building_in_group_with_mortgaged_lot(p: Mapping[str, Any], w: _Words) -> str:
    mortgaged = p["mortgaged"]
    return ngettext(
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


def _uneven_building(p: Mapping[str, Any], w: _Words) -> str:
    lots = ", ".join(
        _("%(deed)s %(buildings)s")
        % {
            "deed": w.deed(lot["position"]),
            "buildings": w.buildings(houses=lot["houses"], hotel=lot["hotel"]),
        }
        for lot in p["lots"]
    )
    return _(
        "%(player)s: the %(group)s group is not built evenly (%(lots)s); lots of one group "
        "may differ by at most one building."
    ) % {"player": w.player(p["player"]), "group": w.group(p["group"]), "lots": lots}


def _supply_exceeded(word: str) -> Callable[[Mapping[str, Any], _Words], str]:
    def sentence(p: Mapping[str, Any], w: _Words) -> str:
        count = p["count"]
        return ngettext(
            "The table shows %(count)s %(buildings)s, but the bank has only %(stock)s; "
            "recount the buildings.",
            "The table shows %(count)s %(buildings)s, but the bank has only %(stock)s; "
            "recount the buildings.",
            count,
        ) % {"count": count, "buildings": w.edition.word(word, count), "stock": p["stock"]}

    return sentence


def _bankrupt_player_has_assets(p: Mapping[str, Any], w: _Words) -> str:
    held = [w.money(p["cash"])] if p["cash"] else []
    held.extend(w.deed(position) for position in p["positions"])
    return _(
        "%(player)s is bankrupt but still has %(assets)s; a bankrupt player hands everything "
        "to the creditor or the bank."
    ) % {"player": w.player(p["player"]), "assets": ", ".join(held)}


# The scoring services add these two (the sheet against the seating); they name the player
# in the violation's ``player`` and need nothing else.


def _player_not_at_table(p: Mapping[str, Any], w: _Words) -> str:
    return _("Player %(player)s is not seated at this table.") % {"player": w.player(p["player"])}


def _player_missing(p: Mapping[str, Any], w: _Words) -> str:
    return _("Player %(player)s is seated at this table but not on the sheet.") % {
        "player": w.player(p["player"])
    }


SENTENCES: dict[str, Callable[[Mapping[str, Any], _Words], str]] = {
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
    "house-supply-exceeded": _supply_exceeded("house"),
    "hotel-supply-exceeded": _supply_exceeded("hotel"),
    "bankrupt-player-has-assets": _bankrupt_player_has_assets,
    "player-not-at-table": _player_not_at_table,
    "player-missing": _player_missing,
}

# Codes whose sentence needs only the violation's own ``player``, not engine params.
_PLAYER_ONLY = frozenset({"player-not-at-table", "player-missing"})


def violation_text(
    *, violation: Mapping[str, Any], aliases: Mapping[str, str], edition: Edition | None
) -> str:
    """The violation as a sentence in the active language, players named by alias.

    ``violation`` is one entry of a stored report's ``errors`` (``Violation.to_dict()``, or
    a services violation); ``aliases`` maps player ids (``str(pk)``) to aliases; ``edition``
    gives the deed and group names and the words for house and hotel (None when the event's
    edition cannot be loaded, which leaves only the fallback).
    """
    code = violation.get("code")
    sentence = SENTENCES.get(code) if isinstance(code, str) else None
    params = violation.get("params")
    if code in _PLAYER_ONLY and violation.get("player") is not None:
        params = {"player": violation["player"], **(params or {})}
    if sentence is None or edition is None or not isinstance(params, Mapping):
        return _fallback(violation, aliases)
    try:
        return sentence(params, _Words(aliases=aliases, edition=edition))
    except (_Unfit, LookupError, TypeError, ValueError):
        # Params from another version of the engine or another edition: the engine's own
        # sentence still says what is wrong.
        return _fallback(violation, aliases)


def violation_texts(
    *, violations: list[Mapping[str, Any]], aliases: Mapping[str, str], edition: Edition | None
) -> list[str]:
    """Every violation of a report as :func:`violation_text` writes it, in order."""
    return [violation_text(violation=v, aliases=aliases, edition=edition) for v in violations]


def _fallback(violation: Mapping[str, Any], aliases: Mapping[str, str]) -> str:
    """The engine's sentence, with player ids replaced where the engine puts them.

    Only the places the engine writes a player id are touched (the start of the sentence,
    after "Player", "but", "for", "both ... and", or quoted), so an amount or a count that
    happens to equal an id is left alone.
    """
    message = str(violation.get("message") or violation.get("code") or "")
    for pid, alias in aliases.items():
        escaped = re.escape(pid)
        for pattern in (
            rf"^{escaped}(?=[: ])",
            rf"(?<=\bPlayer ){escaped}\b",
            rf"(?<=\bbut ){escaped}(?= does not own)",
            rf"(?<=\bfor ){escaped}(?=;)",
            rf"(?<=\bfor both ){escaped}(?= and )",
            rf"(?<= and ){escaped}(?=;)",
            rf"'{escaped}'",
        ):
            message = re.sub(pattern, lambda _match, alias=alias: alias, message)
    return message
