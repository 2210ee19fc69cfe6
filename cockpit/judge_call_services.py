"""Writes for "Judge, please": a table calls, a judge takes the call, then closes it.

Championship Rules, JUDGING: "If a judge is required the contestant must flag this to the Banker who
will raise their arm". The banker's tablet sends the call (queued offline like every banker write);
it waits on the judges' desk and the head judge's clock page until a judge takes it ("on my
way") and closes it, with the ruling if one was given. Two judges taking the same call, or a
call closed twice, get a clear message, never a second write.
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import JudgeCall, Table

# A ruling is a few sentences at the table, not an essay.
RULING_MAX = 2000


def judge_call(*, table: Table, by: User | None, now: datetime.datetime | None = None) -> JudgeCall:
    """The table asks for a judge; a call already waiting is the one answered (a second tap
    never queues a second judge)."""
    del by  # the tablet acts for its table; the call is the table's
    waiting = JudgeCall.objects.filter(table=table, closed_at__isnull=True).first()
    if waiting is not None:
        return waiting
    try:
        with transaction.atomic():
            return JudgeCall.objects.create(table=table, called_at=now or timezone.now())
    except IntegrityError:
        # Two tablets of one table at once: the other's call is this one.
        return JudgeCall.objects.get(table=table, closed_at__isnull=True)


def _locked(call: JudgeCall) -> JudgeCall:
    # Only the call's row: PostgreSQL cannot lock the nullable side of the judge's join.
    return (
        JudgeCall.objects.select_for_update(of=("self",)).select_related("taken_by").get(pk=call.pk)
    )


@transaction.atomic
def judge_call_take(
    *, call: JudgeCall, by: User, now: datetime.datetime | None = None
) -> JudgeCall:
    """A judge is on the way. Refused once closed, or when another judge took it first."""
    call = _locked(call)
    if call.closed_at is not None:
        raise ValidationError(_("This call is already closed."), code="closed")
    if call.taken_by_id is not None and call.taken_by_id != by.pk:
        raise ValidationError(
            _("%(judge)s is already on the way to this table.")
            % {"judge": call.taken_by.get_username() if call.taken_by else ""},
            code="taken",
        )
    if call.taken_at is None:
        call.taken_at = now or timezone.now()
        call.taken_by = by
        call.save(update_fields=["taken_at", "taken_by"])
    return call


@transaction.atomic
def judge_call_close(
    *,
    call: JudgeCall,
    by: User,
    ruling: str = "",
    now: datetime.datetime | None = None,
) -> JudgeCall:
    """The judge is done at the table; the ruling, if any, stays on the table's record."""
    call = _locked(call)
    if call.closed_at is not None:
        raise ValidationError(_("This call is already closed."), code="closed")
    ruling = ruling.strip()
    if len(ruling) > RULING_MAX:
        raise ValidationError(
            _("Keep the ruling under %(count)s characters.") % {"count": RULING_MAX},
            code="long",
        )
    now = now or timezone.now()
    if call.taken_at is None:
        call.taken_at, call.taken_by = now, by
    call.closed_at, call.closed_by, call.ruling = now, by, ruling
    call.save(update_fields=["taken_at", "taken_by", "closed_at", "closed_by", "ruling"])
    return call
