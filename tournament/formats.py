"""Tournament formats as data, and what an event's format and edition decide.

A format is a set of defaults taken from the rule documents; creating an event copies them
onto the event, where the organizer may change any of them. Code asks the event, never the
format, so a club that plays three rounds instead of two needs no special case.

What the event does not hold as a number (how its players rank, which points table scores
its games, the edition its board and money come from, what the public is shown, whether a
final follows, who may enter by age, whether the event is a knockout, how its rounds end and
its minimum field) is asked here, through ``event_ranking``, ``event_points_table``,
``event_edition``, ``event_standings_order``, ``event_posts``, ``event_has_final``,
``age_refusal``, ``age_rule``, ``event_is_knockout``, ``event_has_last_turn`` and
``event_minimum_players``; ``FORMATS`` itself is read only for a new event's defaults and the
list of choices. A new format is added in this one module.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from gameplay import CHAMPIONSHIP_POINTS, Edition, PointsTable, load_edition


class EventRules(Protocol):
    """What a format's rules read of an event: ``tournament.models.Event`` has all of it.

    A protocol, not the model: the model's ``format`` field takes its choices from this
    module, so the rules name only what they read.
    """

    @property
    def format(self) -> str: ...

    @property
    def edition(self) -> str: ...

    @property
    def round_minutes(self) -> int: ...

    @property
    def minimum_age(self) -> int: ...

    @property
    def maximum_age(self) -> int | None: ...


if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


# How a format ranks its players: by the championship points table, or by net worth alone.
RANKING_POINTS = "points"
RANKING_ASSETS = "assets"

# What the public is shown of a posted game. Championship Rules, POSTING SCORES: "Point scores (not
# net worth) will be posted"; Championship Rules, JUNIOR: the most assets (net worth) decides, so it
# is posted; Tournament Kit: a club names each table's winner.
POSTS_POINTS = "points"
POSTS_NET_WORTH = "net_worth"
POSTS_TABLE_WINNERS = "table_winners"

# Championship Rules, JUNIOR REGIONAL CHAMPIONSHIP DETAILS: "Competitors must be between 8 and 16
# years old (16+ qualify for the senior tournament.)"; REGIONAL CHAMPIONSHIP DETAILS: "You must be
# over 16 years of age". Read together: whoever is 16 on the event's date plays the senior
# event, and juniors are 8 to 15. The one boundary both formats' defaults come from.
SENIOR_AGE = 16
JUNIOR_MINIMUM_AGE = 8


@dataclass(frozen=True)
class TournamentFormat:
    key: str
    name: StrOrPromise
    description: StrOrPromise
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
    # Younger players are flagged for the travel rules (Championship Rules: over-18 travel note).
    travel_flag_under: int
    citizenship_declaration: bool
    # RANKING_POINTS: the championship points table; RANKING_ASSETS: net worth alone.
    ranking: str
    # The standings' order, best first, as keys of scoring.tie_breakers.TIE_BREAKERS.
    standings_order: tuple[str, ...]
    # POSTS_*: what the public pages show of each game.
    posts: str
    # False where the preliminary standings name the winner (Championship Rules, JUNIOR: one game).
    has_final: bool
    # Said with the age rule, pointing to the other event of the age boundary.
    age_note: StrOrPromise | None
    # A knockout (Tournament Kit, THE DAY OF THE TOURNAMENT): rounds are seated one at a time from a
    # confirmed bracket (knockout/bracket.py), and only table winners go on, or the six
    # highest asset totals of one round. Otherwise every preliminary round is pre-seated.
    knockout: bool = False
    # How a round ends when time is called: True for the Championship Rules' last turn (play on
    # until everyone has had as many turns), False for the Tournament Kit's "the game must stop. Any
    # player who has thrown the dice completes that move and any transaction that may result."
    last_turn: bool = True
    # Whether a round is posted only once a judge has approved every table's sheet. Championship
    # Rules BANKERS: the banker signs "to confirm the final adjudicated scores", and JUDGES:
    # "roaming Judges to adjudicate": a judge approves each sheet. The Tournament Kit's club kit:
    # "The player signs, the Banker or the referee counter-signs", and no judge approves.
    judge_approves_sheets: bool = True


FORMATS: dict[str, TournamentFormat] = {
    # Championship Rules.
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
        minimum_age=SENIOR_AGE,
        maximum_age=None,
        guardian_consent_under=16,
        travel_flag_under=18,
        citizenship_declaration=True,
        ranking=RANKING_POINTS,
        # Championship Rules, RANKING BY POINTS: points decide; the rest are the house tie-breakers.
        standings_order=("points", "wins", "net_worth", "best_game"),
        posts=POSTS_POINTS,
        has_final=True,
        age_note=_("Players under %(senior)s play the junior championship."),
    ),
    # Tournament Kit.
    "club": TournamentFormat(
        key="club",
        name=_("Club / charity"),
        description=_(
            "A knockout for at least 24 players: 90-minute rounds at tables of 3 to 5 (of 6 "
            "where that saves a round), only table winners go on (or the six highest asset "
            "totals of one round), to a six-player final."
        ),
        preliminary_rounds=2,
        advancing=6,
        alternates=3,
        round_minutes=90,
        international_round_minutes=120,
        # Tournament Kit: "a minimum of three and a maximum of five players", yet its own example
        # seats "36 tables of six": 3 to 5 by default; the bracket planner seats six only where
        # that saves a round (knockout.bracket), or everywhere once the organizer raises
        # the largest table to 6.
        table_size_min=3,
        table_size_max=5,
        minimum_players=24,
        minimum_age=8,
        maximum_age=None,
        guardian_consent_under=16,
        travel_flag_under=18,
        citizenship_declaration=False,
        ranking=RANKING_ASSETS,
        # The Tournament Kit's format ranks by assets, so total net worth comes first; no points are
        # awarded.
        standings_order=("net_worth", "wins", "best_game"),
        posts=POSTS_TABLE_WINNERS,
        has_final=True,
        age_note=None,
        knockout=True,
        last_turn=False,
        judge_approves_sheets=False,
    ),
    # Championship Rules: junior tournament, one game, highest net worth wins.
    "junior": TournamentFormat(
        key="junior",
        name=_("Junior"),
        description=_(
            "Ages 8 to 15 (16 and over play the senior championship), one game; the highest "
            "net worth wins, with no final."
        ),
        preliminary_rounds=1,
        advancing=1,
        alternates=3,
        round_minutes=90,
        international_round_minutes=120,
        table_size_min=4,
        table_size_max=5,
        minimum_players=4,
        minimum_age=JUNIOR_MINIMUM_AGE,
        maximum_age=SENIOR_AGE - 1,
        guardian_consent_under=16,
        travel_flag_under=18,
        citizenship_declaration=False,
        ranking=RANKING_ASSETS,
        # Championship Rules, JUNIOR: "the competitor who accumulates the most assets (net worth)
        # being the overall winner"; Championship Rules, TIE BREAKERS: "the player who has the
        # highest value of unmortgaged property".
        standings_order=("net_worth", "unmortgaged"),
        posts=POSTS_NET_WORTH,
        has_final=False,
        age_note=_("Players of %(senior)s or over play the senior championship."),
    ),
}


def format_choices() -> list[tuple[str, StrOrPromise]]:
    return [(fmt.key, fmt.name) for fmt in FORMATS.values()]


def event_ranking(*, event: EventRules) -> str:
    """How the event's players rank: ``RANKING_POINTS`` or ``RANKING_ASSETS``.

    Championship events score by the Championship Rules points table; club and junior events rank by
    assets (Tournament Kit; Championship Rules, JUNIOR: "the most assets (net worth)"). A format
    this version does not know ranks by points, the championship's rule.
    """
    return _format(event).ranking


def _format(event: EventRules) -> TournamentFormat:
    """The event's format; one this version does not know behaves as the championship."""
    return FORMATS.get(event.format) or FORMATS["championship"]


def event_standings_order(*, event: EventRules) -> tuple[str, ...]:
    """The keys the format's standings rank by, best first (the organizer may reorder them)."""
    return _format(event).standings_order


def event_posts(*, event: EventRules) -> str:
    """What the public is shown of each posted game: ``POSTS_POINTS`` (places and points,
    never net worth), ``POSTS_NET_WORTH`` or ``POSTS_TABLE_WINNERS``."""
    return _format(event).posts


def event_has_final(*, event: EventRules) -> bool:
    """Whether a final follows the preliminaries; without one the standings name the winner.

    The format says whether it has one at all; the event may leave it out (``ends_with_qualifiers``:
    a regional of a series ends with its qualifiers, Championship Rules "From each event the 4
    players with the highest Point scores ... will progress through to the ... Finals").
    """
    return _format(event).has_final and not getattr(event, "ends_with_qualifiers", False)


def age_refusal(*, event: EventRules, age: int) -> str | None:
    """Why someone ``age`` years old on the event's date cannot play it, or None.

    The event's own limits decide (the organizer may change the format's); the message
    names the other event of the senior boundary where the format has one.
    """
    if age < event.minimum_age:
        message = _(
            "Players must be at least %(minimum)s on the day of the event (%(age)s then)."
        ) % {"minimum": event.minimum_age, "age": age}
    elif event.maximum_age is not None and age > event.maximum_age:
        message = _("This event is for players up to %(maximum)s (%(age)s on the day).") % {
            "maximum": event.maximum_age,
            "age": age,
        }
    else:
        return None
    note = _format(event).age_note
    return f"{message} {note % {'senior': SENIOR_AGE}}" if note else str(message)


def age_rule(*, event: EventRules) -> str:
    """Who may play by age, in one sentence for the forms; the same limits as ``age_refusal``."""
    if event.maximum_age is None:
        rule = _("Players must be %(minimum)s or over on the day of the event.") % {
            "minimum": event.minimum_age
        }
    else:
        rule = _(
            "Players must be %(minimum)s to %(maximum)s years old on the day of the event."
        ) % {
            "minimum": event.minimum_age,
            "maximum": event.maximum_age,
        }
    note = _format(event).age_note
    return f"{rule} {note % {'senior': SENIOR_AGE}}" if note else str(rule)


def event_points_table(*, event: EventRules) -> PointsTable | None:
    """The points table the event's games score by; None where net worth alone ranks."""
    return CHAMPIONSHIP_POINTS if event_ranking(event=event) == RANKING_POINTS else None


def event_is_knockout(*, event: EventRules) -> bool:
    """Whether the event is the kit's knockout: seated round by round from its bracket."""
    fmt = FORMATS.get(event.format)
    return fmt is not None and fmt.knockout


# Tournament Kit: "The tournament must have at least two rounds, each with a 90-minute time limit."
KIT_ROUND_MINUTES = 90


def round_minutes_warning(*, event: EventRules) -> str | None:
    """Why a club event's rounds are shorter than the kit allows, or None.

    A warning, not a refusal: the organizer may have their reasons (a practice evening),
    but the kit's sanctioned tournament plays 90-minute rounds.
    """
    if not event_is_knockout(event=event) or event.round_minutes >= KIT_ROUND_MINUTES:
        return None
    return gettext(
        "Rounds of %(minutes)s minutes are shorter than the kit's: “The tournament must have "
        "at least two rounds, each with a %(kit)s-minute time limit.”"
    ) % {"minutes": event.round_minutes, "kit": KIT_ROUND_MINUTES}


def event_has_last_turn(*, event: EventRules) -> bool:
    """Whether time called starts a last turn (Championship Rules) or stops the game at once
    (Tournament Kit)."""
    fmt = FORMATS.get(event.format)
    return fmt.last_turn if fmt is not None else True


def event_minimum_players(*, event: EventRules) -> int:
    """The fewest players the event's rules allow (Tournament Kit: "a minimum of 24 players")."""
    fmt = FORMATS.get(event.format)
    return fmt.minimum_players if fmt is not None else 1


def event_edition(*, event: EventRules) -> Edition:
    """The edition the event plays: its board, money, bank supply and words.

    Raises ``gameplay.EditionError`` if the edition no longer loads (its file was removed
    after the event was created); a page that can do without it catches that.
    """
    return edition_in_language(load_edition(event.edition))


# The editions' words (gameplay/editions/*.json, in English) as the pages and forms show
# them: in the reader's language, so a French sheet says "maison" and "hôtel" as the French
# edition prints them. Listed here for makemessages; the files stay as they are.
EDITION_WORDS = (
    gettext_noop("house"),
    gettext_noop("houses"),
    gettext_noop("hotel"),
    gettext_noop("hotels"),
    gettext_noop("railroad"),
    gettext_noop("railroads"),
    gettext_noop("station"),
    gettext_noop("stations"),
    gettext_noop("utility"),
    gettext_noop("utilities"),
    gettext_noop("Chance"),
    gettext_noop("Community Chest"),
    gettext_noop("boutique"),
    gettext_noop("boutiques"),
    gettext_noop("mall"),
    gettext_noop("malls"),
    gettext_noop("transportation space"),
    gettext_noop("transportation spaces"),
    gettext_noop("service provider"),
    gettext_noop("service providers"),
    gettext_noop("Instant Message"),
    gettext_noop("Text Message"),
)


def edition_in_language(edition: Edition) -> Edition:
    """The edition with its words (house, hotel...) in the active language; its rules and
    numbers unchanged."""
    return replace(edition, words={key: gettext(word) for key, word in edition.words.items()})
