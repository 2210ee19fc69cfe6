"""Ties: the head judge's decisions, at a table and in the standings; the tie-breakers' order."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import StandingsTieDecision, TableSheet, TieDecision
from scoring.services.posting import refuse_if_posted
from scoring.services.results import tie_outcome, write_results
from scoring.services.sheets import locked
from scoring.tie_breakers import TIE_BREAKERS, default_tie_breakers_for, tie_breakers_valid
from tournament.formats import event_points_table
from tournament.models import Event, Player, Round, Table


@transaction.atomic
def tie_decide(
    *,
    table: Table,
    order: list[int | str] | None = None,
    share_points: bool = False,
    by: User | None,
    reason: str,
    players: list[int | str] | None = None,
) -> TieDecision:
    """The head judge settles a tie the engine left open: an order, or shared points.

    ``order`` (best first) names the tied group by itself; to share points, name the group
    with ``players`` unless the table has only one tie. Deciding again replaces the
    earlier decision (which stays stored).
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Give a reason for the decision."), code="reason")
    if (order is None) == (not share_points):
        raise ValidationError(
            _("Either give the tied players’ order or share their points."), code="choice"
        )
    sheet = TableSheet.objects.filter(table=table).first()
    if sheet is None or not sheet.is_locked:
        raise ValidationError(_("Ties are decided on a signed sheet."), code="not-signed")
    sheet = locked(sheet)
    refuse_if_posted(sheet.table.round)
    ties = [tuple(sorted(tie)) for tie in sheet.report.get("unresolved_ties", [])]
    named = order if order is not None else players
    if named is None:
        if len(ties) != 1:
            raise ValidationError(_("Name the tied players."), code="which-tie")
        tie = ties[0]
    else:
        tie = tuple(sorted(str(pid) for pid in named))
        if len(set(tie)) != len(tie) or tie not in ties:
            raise ValidationError(_("These players are not tied at this table."), code="not-a-tie")
    str_order = [str(pid) for pid in order] if order is not None else None
    outcome = tie_outcome(
        tie=tie,
        order=str_order,
        share_points=share_points,
        report=sheet.report,
        points_table=event_points_table(event=sheet.table.round.event),
    )
    decision = TieDecision.objects.create(
        table=sheet.table,
        players=list(tie),
        order=str_order,
        share_points=share_points,
        outcome={
            pid: {"place": place, "points": None if points is None else str(points)}
            for pid, (place, points) in outcome.items()
        },
        by=by,
        at=timezone.now(),
        reason=reason,
    )
    write_results(sheet=sheet)
    return decision


def standings_tie_decide(
    *, event: Event, order: list[int], by: User | None, reason: str
) -> StandingsTieDecision:
    """The head judge orders players still level after every standings tie-breaker."""
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Give a reason for the decision."), code="reason")
    pks = [int(pk) for pk in order]
    if len(pks) < 2 or len(set(pks)) != len(pks):
        raise ValidationError(_("Order at least two different players."), code="order")
    if Player.objects.filter(event=event, pk__in=pks).count() != len(pks):
        raise ValidationError(_("Every player must belong to this event."), code="order")
    return StandingsTieDecision.objects.create(
        event=event, order=pks, by=by, at=timezone.now(), reason=reason
    )


@transaction.atomic
def standings_tie_breakers_set(*, event: Event, keys: list[str], by: User | None) -> Event:
    """The organizer's order of the standings tie-breakers, best first.

    ``keys`` starts with the format's ranking key (points: Championship Rules "the 4 players with
    the highest Point scores (not net worth)") and then names any of its other keys, each at
    most once, or none: the head judge decides ties on the keys used. An empty list goes
    back to the format's default order. The head judge's decision always comes last and is
    not a key. Refused once the final (or
    its semifinal) is seated: it was seated from the standings as they were ordered then.
    ``by`` is accepted for the views' audit trail; the event records no author.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    keys = [str(key) for key in keys]
    if keys and not tie_breakers_valid(event=event, keys=keys):
        first, *others = default_tie_breakers_for(event=event).keys
        raise ValidationError(
            _("Start with %(first)s, then use any of %(keys)s at most once each.")
            % {
                "first": TIE_BREAKERS[first].label,
                "keys": ", ".join(str(TIE_BREAKERS[key].label) for key in others),
            },
            code="tie-breakers",
        )
    if Round.objects.filter(
        event=event, kind__in=[Round.Kind.SEMIFINAL, Round.Kind.FINAL]
    ).exists():
        raise ValidationError(
            _("The final is already seated; the tie-breakers can no longer change."),
            code="final-seated",
        )
    if tuple(keys) == default_tie_breakers_for(event=event).keys:
        keys = []  # the default itself: follow the format if it changes later
    event.tie_breakers = keys
    event.save(update_fields=["tie_breakers"])
    return event
