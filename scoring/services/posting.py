"""Posting a round's scores (they become public) and withdrawing a posting."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import RoundPosting, TableSheet
from scoring.selectors import sheet_open_ties
from scoring.signals import round_posted
from tournament.locks import event_lock
from tournament.models import Round, Table


def round_is_posted(round_: Round) -> bool:
    return RoundPosting.objects.filter(round=round_).exists()


def refuse_if_posted(round_: Round) -> None:
    if round_is_posted(round_):
        raise ValidationError(
            _("This round’s scores are posted; withdraw the posting before changing them."),
            code="posted",
        )


@transaction.atomic
def round_post(*, round_: Round, by: User | None) -> RoundPosting:
    """Publish a round's point scores: only once every table of every wave is settled.

    Championship Rules, POSTING SCORES: scores are posted at the end of each round, not by wave, so
    one unsigned table anywhere holds the whole round back, as does a sheet no judge approved
    yet (unless the event turned that off: ``Event.judge_approves_sheets``) or an
    undecided tie.
    """
    # The event's lock, then the round's, in the order every official's write takes them;
    # a second tap waits for the first and finds the round posted.
    event_lock(event_id=round_.event_id)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_is_posted(round_):
        raise ValidationError(_("This round is already posted."), code="posted")
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    if not tables:
        raise ValidationError(_("This round has no tables."), code="empty")
    sheets = {s.table_id: s for s in TableSheet.objects.filter(table__round=round_)}
    # A championship's judges approve every sheet; the club kit's counter-signature will do.
    needs_approval = round_.event.judge_approves_sheets
    problems = []
    for table in tables:
        sheet = sheets.get(table.pk)
        if sheet is None or not sheet.is_locked:
            problems.append(
                ValidationError(
                    _("Table %(number)s: the score sheet is not signed yet.")
                    % {"number": table.number},
                    code="not-signed",
                )
            )
        elif needs_approval and sheet.status != TableSheet.Status.APPROVED:
            problems.append(
                ValidationError(
                    _("Table %(number)s: a judge has not approved the score sheet yet.")
                    % {"number": table.number},
                    code="not-approved",
                )
            )
        elif sheet_open_ties(sheet=sheet):
            problems.append(
                ValidationError(
                    _("Table %(number)s: a tie waits for the head judge’s decision.")
                    % {"number": table.number},
                    code="open-tie",
                )
            )
    if problems:
        raise ValidationError(problems)
    posting = RoundPosting.objects.create(round=round_, posted_at=timezone.now(), posted_by=by)
    # In the same transaction: a series fixes a regional's qualifiers from it (series/apps.py).
    round_posted.send(sender=RoundPosting, round_=round_, by=by)
    return posting


@transaction.atomic
def round_unpost(*, round_: Round) -> None:
    """Withdraw a posting (e.g. to correct a sheet); posting again is a new posting.

    Decided on the locked state, as ``round_post``: a second tap finds nothing posted."""
    event_lock(event_id=round_.event_id)
    Round.objects.select_for_update().filter(pk=round_.pk).first()
    deleted, _rows = RoundPosting.objects.filter(round=round_).delete()
    if not deleted:
        raise ValidationError(_("This round is not posted."), code="not-posted")
