"""The rules engine's violations as sentences for people: translated, with aliases.

Each code's sentence is written once, in gameplay/wording.py; here it is written in the
tournament's language through gettext (the English sentence is the msgid) and names
players by alias, never by a database id. The two checks the scoring services add to the
engine's (the sheet against the table's seating) have their one sentence here.

A violation this cannot word (a code no table knows, a report stored before violations
carried params, params that do not fit the edition, no edition) is shown as it was stored:
the engine's English sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from gameplay.edition import Edition
from gameplay.wording import SENTENCES as ENGINE_SENTENCES
from gameplay.wording import Unfit, Words
from tournament.money import money

__all__ = ["seating_violation", "violation_text", "violation_texts"]


class _TournamentWords(Words):
    """The engine's sentences in the active language, players by alias."""

    def gettext(self, message: str) -> str:
        return gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return ngettext(singular, plural, count)

    def money(self, amount: int) -> str:
        return money(amount, edition=self.edition)


def _player_not_at_table(p: Mapping[str, Any], w: Words) -> str:
    return w.gettext("Player %(player)s is not seated at this table.") % {
        "player": w.player(p["player"])
    }


def _player_missing(p: Mapping[str, Any], w: Words) -> str:
    return w.gettext("Player %(player)s is seated at this table but not on the sheet.") % {
        "player": w.player(p["player"])
    }


# The scoring services check the sheet against the seating (services/sheets.py).
SEATING_SENTENCES: dict[str, Callable[[Mapping[str, Any], Words], str]] = {
    "player-not-at-table": _player_not_at_table,
    "player-missing": _player_missing,
}
SENTENCES = {**ENGINE_SENTENCES, **SEATING_SENTENCES}


def seating_violation(code: str, *, player: str) -> dict[str, Any]:
    """A seating check's violation as a stored report holds one, worded like the engine's:
    the message in English, the player by id."""
    params = {"player": player}
    message = SEATING_SENTENCES[code](params, Words(edition=None))
    return {"code": code, "message": message, "player": player, "positions": [], "params": params}


def violation_text(
    *, violation: Mapping[str, Any], aliases: Mapping[str, str], edition: Edition | None
) -> str:
    """The violation as a sentence in the active language, players named by alias.

    ``violation`` is one entry of a stored report's ``errors`` (``Violation.to_dict()``, or
    a seating violation); ``aliases`` maps player ids (``str(pk)``) to aliases; ``edition``
    gives the deed and group names and the words for house and hotel.
    """
    code = violation.get("code")
    sentence = SENTENCES.get(code) if isinstance(code, str) else None
    params = violation.get("params")
    if params is None and code in SEATING_SENTENCES:
        # Stored before seating violations carried params: the player is all they need.
        params = {"player": violation.get("player")}
    if sentence is None or not isinstance(params, Mapping):
        return _as_stored(violation)
    try:
        return sentence(params, _TournamentWords(edition=edition, aliases=aliases))
    except (Unfit, LookupError, TypeError, ValueError):
        # Params from another version of the engine or another edition.
        return _as_stored(violation)


def violation_texts(
    *, violations: Sequence[Mapping[str, Any]], aliases: Mapping[str, str], edition: Edition | None
) -> list[str]:
    """Every violation of a report as :func:`violation_text` writes it, in order."""
    return [violation_text(violation=v, aliases=aliases, edition=edition) for v in violations]


def _as_stored(violation: Mapping[str, Any]) -> str:
    return str(violation.get("message") or violation.get("code") or "")
