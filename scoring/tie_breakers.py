"""The standings tie-breakers: one registry for the standings, the organizer's order form,
the public pages and the CSV files.

Each key says what it is called, how a player's counted games add up to it, which way it
ranks, how its value is written and under which of the formats' ``POSTS_*`` the public may
see it. A new key is an entry in ``TIE_BREAKERS`` (and its field on
``scoring.selectors.StandingRow``, which a test checks); which keys a format ranks by, best
first, is the format's ``standings_order`` (``tournament.formats``). Players equal on every
key of the event's order are ordered by a stored head-judge decision, or shown tied.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _

from gameplay.edition import Edition
from tournament.formats import (
    POSTS_NET_WORTH,
    POSTS_POINTS,
    POSTS_TABLE_WINNERS,
    event_posts,
    event_standings_order,
)
from tournament.models import Event
from tournament.money import money

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# A counted game as the standings read it: a ResultLine's "place", "points", "net_worth".
Game = Mapping[str, Any]


def format_points(points: Decimal | None) -> str:
    """19 rather than 19.00; 14.5 for a shared place; empty where there are no points."""
    if points is None:
        return ""
    return (
        str(points.quantize(Decimal(1)))
        if points == points.to_integral()
        else f"{points:.2f}".rstrip("0")
    )


@dataclass(frozen=True)
class TieBreaker:
    key: str
    # Lower case, to sit in a sentence ("ranked by points, then games won"); headings and
    # CSV columns capitalise its first letter.
    label: StrOrPromise
    total: Callable[[Sequence[Game]], Decimal | int]
    shown: Callable[[Any], str] = str
    # The formats' POSTS_* under which the public pages may show this key's values. Championship
    # Rules POSTING SCORES: "Point scores (not net worth) will be posted", so a championship's
    # public pages never show an asset figure, though its order may still use one.
    posted_by: frozenset[str] = frozenset()
    # An amount of the edition's money: pages write it with its currency (tournament/money.py),
    # the CSV files as a bare number.
    is_money: bool = False

    def text(self, value: Any, *, edition: Edition | None) -> str:
        """The value as a page shows it: money in the edition's currency and the reader's
        language, anything else as ``shown`` writes it."""
        if self.is_money and edition is not None and value is not None:
            return money(value, edition=edition)
        return self.shown(value)


def _points(games: Sequence[Game]) -> Decimal:
    # Points not given yet (an undecided tie) count as nothing; a posted round has none.
    return sum((game["points"] or Decimal(0) for game in games), Decimal(0))


def _wins(games: Sequence[Game]) -> int:
    """Games finished in first place, shared or not."""
    return sum(1 for game in games if game["place"] == 1)


def _net_worth(games: Sequence[Game]) -> int:
    return sum(game["net_worth"] for game in games)


def _best_game(games: Sequence[Game]) -> int:
    return max(game["net_worth"] for game in games)


def _unmortgaged(games: Sequence[Game]) -> int:
    """Championship Rules, TIE BREAKERS: "the player who has the highest value of unmortgaged
    property"."""
    return sum(game["unmortgaged_property_value"] for game in games)


_EVERY_FORMAT = frozenset({POSTS_POINTS, POSTS_NET_WORTH, POSTS_TABLE_WINNERS})
_ASSETS_POSTED = frozenset({POSTS_NET_WORTH})

TIE_BREAKERS: dict[str, TieBreaker] = {
    tie_breaker.key: tie_breaker
    for tie_breaker in (
        TieBreaker(
            "points", _("points"), _points, shown=format_points, posted_by=frozenset({POSTS_POINTS})
        ),
        TieBreaker("wins", _("games won"), _wins, posted_by=_EVERY_FORMAT),
        TieBreaker(
            "net_worth", _("total net worth"), _net_worth, posted_by=_ASSETS_POSTED, is_money=True
        ),
        TieBreaker(
            "best_game", _("best game"), _best_game, posted_by=_ASSETS_POSTED, is_money=True
        ),
        TieBreaker(
            "unmortgaged",
            _("unmortgaged property value"),
            _unmortgaged,
            posted_by=_ASSETS_POSTED,
            is_money=True,
        ),
    )
}


@dataclass(frozen=True)
class TieBreakers:
    """An order of ``TIE_BREAKERS`` keys, best first. It is data, so an organizer's own
    order needs no code change."""

    keys: tuple[str, ...]

    def strength(self, values: Callable[[str], Decimal | int]) -> tuple:
        """A sort key, smaller first: each key's value turned round, since on every tie-breaker
        of the rules (points, games won, net worth, ...) the higher ranks first."""
        return tuple(-values(key) for key in self.keys)


def default_tie_breakers_for(*, event: Event) -> TieBreakers:
    """The format's own order: points formats by points, assets formats by net worth."""
    return TieBreakers(keys=event_standings_order(event=event))


def tie_breakers_valid(*, event: Event, keys: Sequence[str]) -> bool:
    """Whether ``keys`` is an order the event may use: the format's ranking key first (points
    for a championship: Championship Rules "the 4 players with the highest Point scores (not net
    worth)"), then any of its other keys in the organizer's order, each at most once, or none of
    them: players level on every key used are the head judge's to order."""
    allowed = default_tie_breakers_for(event=event).keys
    return (
        bool(keys)
        and keys[0] == allowed[0]
        and len(set(keys)) == len(keys)
        and set(keys) <= set(allowed)
    )


# A regional of a series (Championship Rules: "From each event the 4 players with the highest Point
# scores (not net worth) will progress"): points, then games won, then the head judge at the cut.
SERIES_REGIONAL_ORDER = ("points", "wins")

# What ordered two players level on every key in force: the head judge's decision.
DECIDED_BY_HEAD_JUDGE = "head_judge"


def tie_broken_by(*, keys: Sequence[str], upper: Any, lower: Any) -> str | None:
    """What put ``upper`` above ``lower`` (standing rows, in that order) when they are level
    on the first key: the first key of ``keys`` where they differ, or
    ``DECIDED_BY_HEAD_JUDGE``; None when the first key already parts them."""
    if upper.key(keys[0]) != lower.key(keys[0]):
        return None
    return next(
        (key for key in keys[1:] if upper.key(key) != lower.key(key)), DECIDED_BY_HEAD_JUDGE
    )


def tie_broken_text(broken_by: str) -> str:
    """``tie_broken_by``'s answer in words for the standings' pages."""
    if broken_by == DECIDED_BY_HEAD_JUDGE:
        return str(_("decided by the head judge"))
    return str(TIE_BREAKERS[broken_by].label)


def tie_breakers_for(*, event: Event) -> TieBreakers:
    """The event's order if the organizer set one, otherwise the format's default.

    A stored order that no longer fits the format (the format was changed afterwards) is
    ignored rather than half-applied.
    """
    keys = event.tie_breakers or []
    if keys and tie_breakers_valid(event=event, keys=keys):
        return TieBreakers(keys=tuple(keys))
    return default_tie_breakers_for(event=event)


def columns(*, event: Event) -> list[TieBreaker]:
    """The keys the event's format ranks by, in the registry's order: the officials' columns."""
    used = default_tie_breakers_for(event=event).keys
    return [tie_breaker for key, tie_breaker in TIE_BREAKERS.items() if key in used]


def public_keys(*, event: Event) -> tuple[str, ...]:
    """The keys of the event's order whose values its public pages may show, in that order.

    Officials' pages and CSV files show every key; the order itself is the same for both.
    """
    posts = event_posts(event=event)
    return tuple(
        key for key in tie_breakers_for(event=event).keys if posts in TIE_BREAKERS[key].posted_by
    )
