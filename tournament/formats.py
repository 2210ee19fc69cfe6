"""Tournament formats as data, and what an event's format and edition decide.

A format is a set of defaults taken from the rule documents; creating an event copies them
onto the event, where the organizer may change any of them. Code asks the event, never the
format, so a club that plays three rounds instead of two needs no special case.

What the event does not hold as a number (how its players rank, which points table scores
its games, the edition its board and money come from) is asked here, through
``event_ranking``, ``event_points_table`` and ``event_edition``; ``FORMATS`` itself is read
only for a new event's defaults and the list of choices; the same goes for whether the event
is a knockout (``event_is_knockout``), how its rounds end (``event_has_last_turn``) and its
minimum field (``event_minimum_players``). A new format is added in this one module.
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
    # A knockout (000, THE DAY OF THE TOURNAMENT): rounds are seated one at a time from a
    # confirmed bracket (tournament/bracket.py), and only table winners go on, or the six
    # highest asset totals of one round. Otherwise every preliminary round is pre-seated.
    knockout: bool = False
    # How a round ends when time is called: True for 002's last turn (play on until everyone
    # has had as many turns), False for 000's "the game must stop. Any player who has thrown
    # the dice completes that move and any transaction that may result."
    last_turn: bool = True


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
            "A knockout for at least 24 players: 90-minute rounds at tables of 3 to 6, only "
            "table winners go on (or the six highest asset totals of one round), to a "
            "six-player final."
        ),
        preliminary_rounds=2,
        advancing=6,
        alternates=3,
        round_minutes=90,
        international_round_minutes=120,
        # 000: "a minimum of three and a maximum of five players", yet its own example seats
        # "36 tables of six": 3 to 6 by default, and the organizer may lower it to 5.
        table_size_min=3,
        table_size_max=6,
        minimum_players=24,
        minimum_age=8,
        maximum_age=None,
        guardian_consent_under=16,
        travel_flag_under=18,
        citizenship_declaration=False,
        ranking=RANKING_ASSETS,
        knockout=True,
        last_turn=False,
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


def event_is_knockout(*, event: Event) -> bool:
    """Whether the event is the kit's knockout: seated round by round from its bracket."""
    fmt = FORMATS.get(event.format)
    return fmt is not None and fmt.knockout


def event_has_last_turn(*, event: Event) -> bool:
    """Whether time called starts a last turn (002) or stops the game at once (000)."""
    fmt = FORMATS.get(event.format)
    return fmt.last_turn if fmt is not None else True


def event_minimum_players(*, event: Event) -> int:
    """The fewest players the event's rules allow (000: "a minimum of 24 players")."""
    fmt = FORMATS.get(event.format)
    return fmt.minimum_players if fmt is not None else 1


def event_edition(*, event: Event) -> Edition:
    """The edition the event plays: its board, money, bank supply and words.

    Raises ``gameplay.EditionError`` if the edition no longer loads (its file was removed
    after the event was created); a page that can do without it catches that.
    """
    return load_edition(event.edition)
