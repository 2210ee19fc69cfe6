"""Writes for the club knockout: confirming its bracket, the minimum's override, seating a round.

The kit (Tournament Kit, "THE DAY OF THE TOURNAMENT"): "the first preliminary round ...
will result in some outright winners, and others will win by virtue of having the highest
total assets at their table. The same method is used for the next round of play, but there
must be six tables to give you the required six players for the final." So the organizer
confirms a bracket (``knockout.bracket``) for the players checked in, round 1 is seated
from them at exactly the plan's tables, and each later round from the table winners of the
one before, once it is posted. Who won is scoring's to say: ``scoring.services.advancement``
picks the players and calls ``knockout_seat_round`` here.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from knockout.bracket import METHODS, balanced_tables
from knockout.selectors import confirmed_plan, knockout_planner, knockout_round_plan
from seating.round_tables import seating_refuse_if_changed
from seating.services import round_seat_exact, seating_roster
from tournament.formats import event_is_knockout
from tournament.locks import event_lock
from tournament.models import Event, Player, Round, Seat, Table, Wave

# Tournament Kit: "tables can be set up for a minimum of three".
KIT_SMALLEST_TABLE = 3


def _refuse_unless_knockout(event: Event) -> None:
    if not event_is_knockout(event=event):
        raise ValidationError(_("This event is not a knockout."), code="not-knockout")


def _refuse_once_started(event: Event) -> None:
    if Round.objects.filter(event=event, number=1, started_at__isnull=False).exists():
        raise ValidationError(
            _("Round 1 has started; the bracket can no longer change."), code="started"
        )


@transaction.atomic
def bracket_confirm(
    *,
    event: Event,
    method: str,
    by: User | None,
    now: datetime.datetime | None = None,
) -> Event:
    """The organizer confirms the plan for the players checked in now, with its method.

    The event then holds the plan, who confirmed it and when, and the numbers the rest of
    the app reads: its preliminary rounds and the players of its final. Confirming again
    (more people checked in) replaces it, until round 1 starts; a round 1 seated at the
    earlier plan's tables, if they differ, is cleared, to be seated again.
    """
    _refuse_unless_knockout(event)
    # Two organizers confirming at once, or a confirmation and "seat round 1", take turns;
    # the caller's instance is the one updated, read again once locked.
    event_lock(event_id=event.pk)
    event.refresh_from_db()
    _refuse_once_started(event)
    if method not in METHODS:
        raise ValidationError(_("Choose one of the kit's two plans."), code="method")
    planner = knockout_planner(event=event)
    plan = planner.options.plan(method) if planner.options else None
    if plan is None or not plan.rounds:
        raise ValidationError(
            ngettext(
                "%(count)s player checked in cannot be planned that way.",
                "%(count)s players checked in cannot be planned that way.",
                planner.checked_in,
            )
            % {"count": planner.checked_in},
            code="no-plan",
        )
    earlier = confirmed_plan(event=event)
    if earlier is None or earlier.rounds[0].tables != plan.rounds[0].tables:
        # Round 1 seated for another plan's tables no longer fits: it is seated again.
        _unseat_first_round(event)
    event.knockout_method = method
    event.bracket = plan.to_dict()
    event.bracket_confirmed_at = now or timezone.now()
    event.bracket_confirmed_by = by
    event.preliminary_rounds = len(plan.rounds)
    event.advancing = plan.final_players
    event.save(
        update_fields=[
            "knockout_method",
            "bracket",
            "bracket_confirmed_at",
            "bracket_confirmed_by",
            "preliminary_rounds",
            "advancing",
        ]
    )
    return event


def _unseat_first_round(event: Event) -> None:
    round_ = Round.objects.filter(event=event, number=1, started_at__isnull=True).first()
    if round_ is None:
        return
    # Seats protect their players and tables their waves: those go first.
    Seat.objects.filter(round=round_).delete()
    Table.objects.filter(round=round_).delete()
    Wave.objects.filter(round=round_).delete()
    round_.delete()


def minimum_override_record(
    *,
    event: Event,
    reason: str,
    by: User | None,
    now: datetime.datetime | None = None,
) -> Event:
    """Tournament Kit: "You must have a minimum of 24 players". Playing with fewer is the
    organizer's decision, recorded with who took it, when and why."""
    _refuse_unless_knockout(event)
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Give the reason to play with fewer players."), code="reason")
    event.minimum_override_reason = reason
    event.minimum_override_at = now or timezone.now()
    event.minimum_override_by = by
    event.save(
        update_fields=["minimum_override_reason", "minimum_override_at", "minimum_override_by"]
    )
    return event


def minimum_override_withdraw(*, event: Event) -> Event:
    """Take the decision back (before round 1 starts): seating needs the minimum again."""
    _refuse_unless_knockout(event)
    _refuse_once_started(event)
    event.minimum_override_reason = ""
    event.minimum_override_at = None
    event.minimum_override_by = None
    event.save(
        update_fields=["minimum_override_reason", "minimum_override_at", "minimum_override_by"]
    )
    return event


@transaction.atomic
def knockout_seat_first_round(
    *, event: Event, seed: int = 0, time_limit: float = 10.0, seen: str | None = None
) -> Round:
    """Round 1 from the players checked in, at exactly the confirmed plan's tables.

    Refused until a plan is confirmed for exactly the players checked in now (people
    arrive: the organizer confirms again), and below the minimum without an override.
    The plan is read holding the event's lock, as ``bracket_confirm`` writes it, so a
    confirmation at the same moment comes wholly before (round 1 is seated at its tables)
    or wholly after (it clears a round 1 seated for other tables). ``seen``: as in
    ``preseat_event``, a second tap is refused as already done.
    """
    event = event_lock(event_id=event.pk)
    seating_refuse_if_changed(event=event, seen=seen)
    _refuse_unless_knockout(event)
    planner = knockout_planner(event=event)
    if planner.confirmed is None:
        raise ValidationError(_("Confirm a bracket before seating round 1."), code="no-plan")
    if not planner.confirmed_matches:
        raise ValidationError(
            _(
                "The confirmed bracket is for %(planned)s players, but %(count)s are checked in "
                "now. Confirm the bracket again for the players who are here."
            )
            % {"planned": planner.confirmed.players, "count": planner.checked_in},
            code="plan-stale",
        )
    if planner.below_minimum and not planner.override:
        raise ValidationError(
            _(
                "The kit requires a minimum of %(minimum)s players; %(count)s are checked in. "
                "Record your reason to play with fewer first."
            )
            % {"minimum": planner.minimum, "count": planner.checked_in},
            code="below-minimum",
        )
    return round_seat_exact(
        event=event,
        number=1,
        players=seating_roster(event=event, only_checked_in=True),
        sizes=planner.confirmed.rounds[0].tables,
        seed=seed,
        time_limit=time_limit,
    )


def knockout_sizes(*, event: Event, number: int, players: int) -> tuple[int, ...]:
    """Round ``number``'s tables for ``players``: the plan's, or as near as can be.

    A winner who left is replaced by their table's next player by assets, so the field is
    the plan's; only a table with nobody left to step in leaves the round short. Then the
    plan's number of tables is kept while every table still seats three (Tournament Kit: "a minimum
    of three"), never a table of two, so the final gets as many table winners as it can.
    """
    planned = knockout_round_plan(event=event, number=number)
    if planned is None:
        raise ValidationError(
            _("The bracket has no round %(number)s.") % {"number": number}, code="no-round"
        )
    if players == planned.players:
        return planned.tables
    tables = max(1, min(planned.table_count, players // KIT_SMALLEST_TABLE))
    return balanced_tables(players, tables)


def knockout_seat_round(
    *,
    event: Event,
    number: int,
    players: Sequence[Player],
    seed: int = 0,
    time_limit: float = 10.0,
) -> Round:
    """A later round of the bracket, from the players scoring says won their tables."""
    _refuse_unless_knockout(event)
    if not players:
        raise ValidationError(_("Nobody is left to seat."), code="empty")
    return round_seat_exact(
        event=event,
        number=number,
        players=players,
        sizes=knockout_sizes(event=event, number=number, players=len(players)),
        seed=seed,
        time_limit=time_limit,
    )
