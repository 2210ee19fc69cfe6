"""The standings tie-breakers: one registry for the standings, the organizer's order form,
the public pages and the CSV files.

Each key says what it is called, how a player's counted games add up to it, which way it
ranks and how its value is written. A new key is an entry in ``TIE_BREAKERS`` (and its field
on ``scoring.selectors.StandingRow``, which a test checks); which keys a format ranks by,
best first, is ``DEFAULT_ORDERS``. Players equal on every key of the event's order are
ordered by a stored head-judge decision, or shown tied.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournament.formats import RANKING_ASSETS, RANKING_POINTS, event_ranking
from tournament.models import Event

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
    label: str
    total: Callable[[Sequence[Game]], Decimal | int]
    higher_first: bool = True
    shown: Callable[[Any], str] = str


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


TIE_BREAKERS: dict[str, TieBreaker] = {
    tie_breaker.key: tie_breaker
    for tie_breaker in (
        TieBreaker("points", _("points"), _points, shown=format_points),
        TieBreaker("wins", _("games won"), _wins),
        TieBreaker("net_worth", _("total net worth"), _net_worth),
        TieBreaker("best_game", _("best game"), _best_game),
    )
}


@dataclass(frozen=True)
class TieBreakers:
    """An order of ``TIE_BREAKERS`` keys, best first. It is data, so an organizer's own
    order needs no code change."""

    keys: tuple[str, ...]

    def strength(self, values: Callable[[str], Decimal | int]) -> tuple:
        """A sort key, smaller first: each key's value, turned round where higher ranks first."""
        return tuple(
            -values(key) if TIE_BREAKERS[key].higher_first else values(key) for key in self.keys
        )


# 002 RANKING BY POINTS: points decide; the rest are the house tie-breakers of issue 6.
POINTS_TIE_BREAKERS = TieBreakers(keys=("points", "wins", "net_worth", "best_game"))
# Club and junior events rank by assets (000; 002 JUNIOR: "the most assets (net worth)"), so
# total net worth comes first; points are not awarded in those formats.
ASSETS_TIE_BREAKERS = TieBreakers(keys=("net_worth", "wins", "best_game"))
DEFAULT_ORDERS = {RANKING_POINTS: POINTS_TIE_BREAKERS, RANKING_ASSETS: ASSETS_TIE_BREAKERS}


def default_tie_breakers_for(*, event: Event) -> TieBreakers:
    """The format's own order: points formats by points, assets formats by net worth."""
    return DEFAULT_ORDERS[event_ranking(event=event)]


def tie_breakers_valid(*, event: Event, keys: Sequence[str]) -> bool:
    """Whether ``keys`` is an order the event may use: every key of its format, each once."""
    allowed = default_tie_breakers_for(event=event).keys
    return len(keys) == len(allowed) and set(keys) == set(allowed)


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
