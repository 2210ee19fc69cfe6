"""Tournament formats as data, and what an event's format and edition decide.

A format is a set of defaults taken from the rule documents; creating an event copies them
onto the event, where the organizer may change any of them. Code asks the event, never the
format, so a club that plays three rounds instead of two needs no special case.

What the event does not hold as a number (how its players rank, which points table scores
its games, the edition its board and money come from) is asked here, through
``event_ranking``, ``event_points_table`` and ``event_edition``; ``FORMATS`` itself is read
only for a new event's defaults and the list of choices. A new format (a knockout club
night, say) is added in this one module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from gameplay import CHAMPIONSHIP_POINTS, Edition, PointsTable, load_edition

if TYPE_CHECKING:
    from .models import Event

# How a format ranks its players: by the championship points table, or by net worth alone.
RANKING_POINTS = "points"
RANKING_ASSETS = "assets"


@dataclass(frozen=True)
class TournamentFormat:
    key: str
    name: str
    description: str
    preliminary_rounds: int
    advancing: int
    alternates: int
    round_minutes: int
    international_round_minutes: int
    table_size_min: int
    table_size_max: int
    minimum_players: int
    minimum_age: int
    maximum_age: int | None
    # Younger players need a guardian's name and consent.
    guardian_consent_under: int
    # Younger players are flagged for the travel rules (002: over-18 travel note).
    travel_flag_under: int
    citizenship_declaration: bool
    # RANKING_POINTS: the championship points table; RANKING_ASSETS: net worth alone.
    ranking: str


FORMATS: dict[str, TournamentFormat] = {
    # shared/seeds/002: Regional/National Championship rules.
    "championship": TournamentFormat(
        key="championship",
        name=_("Championship"),
        description=_(
            "Three pre-seated preliminary rounds at tables of 4 (5 where needed); points by "
            "players remaining; the top players by points progress to the final."
        ),
        preliminary_rounds=3,
        advancing=4,
        alternates=3,
        round_minutes=90,
        international_round_minutes=120,
        table_size_min=4,
        table_size_max=5,
        minimum_players=8,
        minimum_age=16,
        maximum_age=None,
        guardian_consent_under=16,
        travel_flag_under=18,
        citizenship_declaration=True,
        ranking=RANKING_POINTS,
    ),
    # shared/seeds/000: the Official MONOPOLY Game Tournament kit for clubs and charities.
    "club": TournamentFormat(
        key="club",
        name=_("Club / charity"),
        description=_(
            "At least 24 players and two 90-minute rounds at tables of 3 to 5; table winners "
            "and the highest total assets advance to a six-player final."
        ),
        preliminary_rounds=2,
        advancing=6,
        alternates=3,
        round_minutes=90,
        international_round_minutes=120,
        table_size_min=3,
        table_size_max=5,
        minimum_players=24,
        minimum_age=8,
        maximum_age=None,
        guardian_consent_under=16,
        travel_flag_under=18,
        citizenship_declaration=False,
        ranking=RANKING_ASSETS,
    ),
    # shared/seeds/002: junior tournament, one game, highest net worth wins.
    "junior": TournamentFormat(
        key="junior",
        name=_("Junior"),
        description=_("Ages 8 to 16, one game; the highest net worth wins."),
        preliminary_rounds=1,
        advancing=1,
        alternates=3,
        round_minutes=90,
        international_round_minutes=120,
        table_size_min=4,
        table_size_max=5,
        minimum_players=4,
        minimum_age=8,
        maximum_age=16,
        guardian_consent_under=16,
        travel_flag_under=18,
        citizenship_declaration=False,
        ranking=RANKING_ASSETS,
    ),
}


def format_choices() -> list[tuple[str, str]]:
    return [(fmt.key, fmt.name) for fmt in FORMATS.values()]


def event_ranking(*, event: Event) -> str:
    """How the event's players rank: ``RANKING_POINTS`` or ``RANKING_ASSETS``.

    Championship events score by the 002 points table; club and junior events rank by
    assets (000; 002 JUNIOR: "the most assets (net worth)"). A format this version does not
    know ranks by points, the championship's rule.
    """
    fmt = FORMATS.get(event.format)
    return fmt.ranking if fmt is not None else RANKING_POINTS


def event_points_table(*, event: Event) -> PointsTable | None:
    """The points table the event's games score by; None where net worth alone ranks."""
    return CHAMPIONSHIP_POINTS if event_ranking(event=event) == RANKING_POINTS else None


def event_edition(*, event: Event) -> Edition:
    """The edition the event plays: its board, money, bank supply and words.

    Raises ``gameplay.EditionError`` if the edition no longer loads (its file was removed
    after the event was created); a page that can do without it catches that.
    """
    return load_edition(event.edition)
