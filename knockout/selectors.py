"""Reads for the club knockout: the bracket planner as the seating page shows it.

The kit (Tournament Kit, "THE DAY OF THE TOURNAMENT") plans the day from the players who
are there: "if you start with 216 people, your first round will be 36 tables of six people
each and your second round six tables of six players each". So the planner counts the
players checked in now, and the organizer confirms a plan for exactly that many before
round 1 is seated (``knockout_services``).
"""

from __future__ import annotations

from dataclasses import dataclass

from knockout.bracket import BracketOptions, BracketPlan, PlannedRound, bracket_options
from players.selectors import check_in_counts
from tournament.formats import event_minimum_players
from tournament.models import Event, Player, Round


@dataclass(frozen=True)
class KnockoutPlanner:
    """Everything the bracket planner shows and what the organizer may do next."""

    event: Event
    checked_in: int
    registered: int
    minimum: int
    # None until more than a final's worth of players is checked in.
    options: BracketOptions | None
    confirmed: BracketPlan | None
    first_round: Round | None

    @property
    def below_minimum(self) -> bool:
        """Tournament Kit: "You must have a minimum of 24 players"."""
        return self.checked_in < self.minimum

    @property
    def override(self) -> bool:
        return self.event.minimum_override_at is not None

    @property
    def confirmed_matches(self) -> bool:
        """The confirmed plan is for exactly the players checked in now."""
        return self.confirmed is not None and self.confirmed.players == self.checked_in

    @property
    def started(self) -> bool:
        return self.first_round is not None and self.first_round.has_started

    @property
    def seated(self) -> bool:
        return self.first_round is not None and self.first_round.tables.exists()

    @property
    def can_seat(self) -> bool:
        """Round 1 may be seated (again): plan confirmed for these players, enough of them."""
        return (
            self.confirmed_matches
            and not self.started
            and (not self.below_minimum or self.override)
        )

    @property
    def choices(self) -> list[BracketPlan]:
        """The plans the organizer may confirm, the kit's own (table winners) first."""
        if self.options is None:
            return []
        plans = [
            self.options.table_winners,
            self.options.highest_assets,
            self.options.winners_then_assets,
        ]
        return [plan for plan in plans if plan is not None and plan.rounds]


def _checked_in(event: Event) -> int:
    """The field the bracket is planned for: the seated players here, and the alternates
    here who will take the seats of those who are not (Championship Rules: "their place will be
    taken by the first alternate"), never more than the places."""
    counts = check_in_counts(event=event)
    absent = counts.players - counts.players_checked_in
    return counts.players_checked_in + min(counts.alternates_checked_in, absent)


def knockout_options(*, event: Event, players: int) -> BracketOptions:
    """Both of the kit's plans for ``players`` at the event's table sizes and round length."""
    return bracket_options(
        players=players,
        table_min=event.table_size_min,
        table_max=event.table_size_max,
        round_minutes=event.round_minutes,
    )


def confirmed_plan(*, event: Event) -> BracketPlan | None:
    """The bracket the organizer confirmed, or None."""
    return BracketPlan.from_dict(event.bracket) if event.bracket else None


def knockout_planner(*, event: Event) -> KnockoutPlanner:
    checked_in = _checked_in(event)
    options = None
    # Six or fewer would play the final at once: there is no bracket to plan.
    if checked_in > 6 and event.table_size_min >= 2:
        options = knockout_options(event=event, players=checked_in)
    return KnockoutPlanner(
        event=event,
        checked_in=checked_in,
        registered=Player.objects.filter(event=event, status=Player.Status.PLAYER).count(),
        minimum=event_minimum_players(event=event),
        options=options,
        confirmed=confirmed_plan(event=event),
        first_round=Round.objects.filter(
            event=event, number=1, kind=Round.Kind.PRELIMINARY
        ).first(),
    )


def knockout_round_plan(*, event: Event, number: int) -> PlannedRound | None:
    """The confirmed plan's preliminary round ``number``, or None beyond its last."""
    plan = confirmed_plan(event=event)
    if plan is None or not 1 <= number <= len(plan.rounds):
        return None
    return plan.rounds[number - 1]
