"""Answering a Finals invitation by its link, and the organizer's side of the invitations:
the deadline, the reminder's day, and sending a link again.

The link's page (``invitation_views.answer``) shows the place and two buttons; only the
POST of a button changes anything. A decline goes through ``services.entrant_respond``
like the organizer's, so the place passes to the next player of the regional at once,
and that player is invited in the same transaction (``services.qualifiers_fix``).
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from series import selectors, services
from series.invitation_mail import invitations_send, reminders_schedule
from series.models import Entrant, Invitation, Series

# Why a link cannot be used (its page says which, and changes nothing).
OTHER_SERIES = "other-series"
USED = "used"
ANSWERED = "answered"
EXPIRED = "expired"
CONFIRMED = "confirmed"
DECLINED_PLACE = "declined"


def link_problem(*, invitation: Invitation, series_pk: int) -> str | None:
    """Why this link cannot answer now, or None when it can."""
    entrant = invitation.entrant
    if entrant.series_id != series_pk:
        return OTHER_SERIES
    if invitation.used_at is not None:
        return USED
    if entrant.status == Entrant.Status.DECLINED:
        return DECLINED_PLACE
    if entrant.response != Entrant.Response.PENDING:
        return ANSWERED
    if selectors.confirmed(series=entrant.series, division=entrant.division):
        return CONFIRMED
    due = entrant.series.answers_due
    if due is None or timezone.now() >= due:
        return EXPIRED
    return None


@transaction.atomic
def invitation_answer(*, invitation: Invitation, series_pk: int, accept: bool) -> Entrant:
    """The player's answer by their link: recorded once, with its time."""
    invitation = (
        Invitation.objects.select_for_update()
        .select_related("entrant__series")
        .get(pk=invitation.pk)
    )
    if link_problem(invitation=invitation, series_pk=series_pk) is not None:
        raise ValidationError(_("This link cannot be used any more."), code="link")
    entrant = services.entrant_respond(entrant=invitation.entrant, accept=accept, by=None)
    invitation.used_at = entrant.answered_at
    invitation.save(update_fields=["used_at"])
    return entrant


@transaction.atomic
def deadline_set(
    *, series: Series, answers_due: datetime.datetime, reminder_days: int, by: User | None = None
) -> int:
    """The organizer sets when qualifiers must answer and when they are reminded; whoever
    holds a place and was not invited yet is invited now. Returns how many were."""
    if answers_due <= timezone.now():
        raise ValidationError(_("Choose a deadline in the future."), code="past")
    if reminder_days > 60:
        raise ValidationError(_("A reminder goes 0 to 60 days before the deadline."))
    series.answers_due = answers_due
    series.reminder_days = reminder_days
    series.save(update_fields=["answers_due", "reminder_days"])
    reminders_schedule(series=series)
    return invitations_send(series=series)
