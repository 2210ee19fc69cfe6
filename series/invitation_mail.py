"""The Finals invitations: a personal link to accept or decline, its emails and reminder.

When a regional's qualifiers are fixed (or a place passes on, or the organizer invites
someone), each entrant holding a place who has not answered gets an email with a link of
their own: the invitation's number and a random nonce, signed with a salt
(``django.core.signing``), so nobody can make or guess one, and the same link goes in the
first email, a resend and the reminder. It works once, until the series' deadline
(``Series.answers_due``), and only on its own series' address (``invitations.py`` answers
it). A junior's guardian gets a copy; the email is in the player's language.

The reminder goes ``reminder_days`` before the deadline to whoever has not answered. It is
a deferred task (django-tasks-db's ``run_after``) queued for that moment whenever invitations
go out or the deadline changes; it sends only what is due then, so a stale one (the deadline
moved) sends nothing. ``manage.py send_reminders`` runs the same check, for a queue that
cannot wait (or from cron).
"""

from __future__ import annotations

import datetime
import secrets

from django.core import signing
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from jobs.tasks import task
from mail.services import absolute_url, mail_queue, mail_unavailable
from players.registration_mail import event_reply_to, player_addresses, player_language
from series import selectors
from series.models import DIVISIONS, Entrant, Invitation, Series

SALT = "series.invitation"
KIND = "series:invitation"


# --- The link ---------------------------------------------------------------------------------


def invitation_token(invitation: Invitation) -> str:
    return signing.Signer(salt=SALT).sign_object([invitation.pk, invitation.nonce])


def invitation_from_token(token: str) -> Invitation | None:
    """The invitation a link names, or None for a link nobody made (or one replaced)."""
    try:
        pk, nonce = signing.Signer(salt=SALT).unsign_object(token)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    return (
        Invitation.objects.select_related("entrant__series", "entrant__source__event")
        .filter(pk=pk, nonce=nonce)
        .first()
    )


def invitation_url(invitation: Invitation) -> str:
    path = reverse(
        "series:answer",
        kwargs={"series_pk": invitation.entrant.series_id, "token": invitation_token(invitation)},
    )
    return absolute_url(path)


# --- Whom, in which language -----------------------------------------------------------------


def entrant_addresses(entrant: Entrant) -> list[str]:
    """The qualifying registration's address (and a junior's guardian's), or the one the
    organizer typed for an invited entrant."""
    if entrant.player is not None:
        return player_addresses(entrant.player)
    email = entrant.email or (entrant.person.email if entrant.person else "")
    return [email] if email else []


def entrant_language(entrant: Entrant) -> str:
    if entrant.player is not None:
        return player_language(entrant.player)
    finals = selectors.series_finals(series=entrant.series, division=entrant.division)
    return finals.language if finals else ""


def invitations_unavailable(*, series: Series) -> str | None:
    """Why invitations are not emailed now, in the organizer's words; None when they are."""
    reason = mail_unavailable()
    if reason:
        return reason
    if series.answers_due is None:
        return _("Set the date by which qualifiers answer: the invitations go out then.")
    if series.answers_due <= timezone.now():
        return _("The date to answer has passed: no invitation or reminder goes out.")
    return None


# --- Sending ---------------------------------------------------------------------------------


def _waiting(*, series: Series, division: str | None = None) -> QuerySet[Entrant]:
    """Entrants holding a place who have not answered, in a final not yet confirmed."""
    confirmed = [key for key, _l in DIVISIONS if selectors.confirmed(series=series, division=key)]
    rows = Entrant.objects.filter(
        series=series, status__in=selectors.HOLDING, response=Entrant.Response.PENDING
    ).exclude(division__in=confirmed)
    if division is not None:
        rows = rows.filter(division=division)
    return rows.select_related("player__event", "person", "series", "source__event")


def invitations_send(*, series: Series, division: str | None = None) -> int:
    """Invite every entrant holding a place who has not been invited yet; returns how many
    emails were queued (sent once the transaction commits)."""
    if invitations_unavailable(series=series):
        return 0
    sent = 0
    for entrant in _waiting(series=series, division=division).filter(invitation__isnull=True):
        invitation = Invitation.objects.create(entrant=entrant, nonce=secrets.token_hex(16))
        sent += _send(invitation, reminder=False)
    if sent:
        reminders_schedule(series=series)
    return sent


def invitation_resend(*, entrant: Entrant) -> bool:
    """The organizer sends the entrant's link again (the same link: an older email still
    works); invites them if they never were. Returns whether an email was queued."""
    if (
        invitations_unavailable(series=entrant.series)
        or not _waiting(series=entrant.series).filter(pk=entrant.pk).exists()
    ):
        return False
    invitation, _created = Invitation.objects.get_or_create(
        entrant=entrant, defaults={"nonce": secrets.token_hex(16)}
    )
    return _send(invitation, reminder=False)


def _send(invitation: Invitation, *, reminder: bool) -> bool:
    entrant = invitation.entrant
    message = mail_queue(
        to=entrant_addresses(entrant),
        template="series/mail/invitation",
        context=invitation_context(invitation, reminder=reminder),
        language=entrant_language(entrant),
        kind=KIND,
        key=f"entrant-{entrant.pk}",
        reply_to=_reply_to(entrant),
    )
    if message is None:
        return False
    now = timezone.now()
    invitation.message = message
    invitation.sent_at = now
    invitation.first_sent_at = invitation.first_sent_at or now
    if reminder:
        invitation.reminded_at = now
    invitation.save(update_fields=["message", "sent_at", "first_sent_at", "reminded_at"])
    return True


def _reply_to(entrant: Entrant) -> list[str]:
    finals = selectors.series_finals(series=entrant.series, division=entrant.division)
    return event_reply_to(finals) if finals else []


def invitation_context(invitation: Invitation, *, reminder: bool) -> dict:
    entrant = invitation.entrant
    series = entrant.series
    finals = selectors.series_finals(series=series, division=entrant.division)
    player = entrant.player
    return {
        "series": series,
        "entrant": entrant,
        "first_name": player.first_name if player else entrant.first_name,
        "final_label": dict(DIVISIONS)[entrant.division],
        "finals": finals,
        "answer_url": invitation_url(invitation),
        "answers_due": series.answers_due,
        "reminder": reminder,
        "guardian_copy": len(entrant_addresses(entrant)) > 1,
        "guardian_name": player.guardian_name if player else "",
    }


# --- The reminder ----------------------------------------------------------------------------


def remind_at(series: Series) -> datetime.datetime | None:
    if series.answers_due is None or not series.reminder_days:
        return None
    return series.answers_due - datetime.timedelta(days=series.reminder_days)


def reminders_send(*, series: Series | None = None) -> int:
    """Remind everyone invited before the reminder time who has not answered, once, while
    their link still works; returns how many emails were queued."""
    now = timezone.now()
    queued = 0
    for one in [series] if series is not None else Series.objects.exclude(answers_due=None):
        at = remind_at(one)
        if at is None or now < at or invitations_unavailable(series=one):
            continue
        due = Invitation.objects.filter(
            entrant__in=_waiting(series=one),
            used_at__isnull=True,
            reminded_at__isnull=True,
            first_sent_at__lt=at,
        ).select_related("entrant__player__event", "entrant__series", "entrant__person")
        for invitation in due:
            # Claimed first: two workers running the check at once remind once.
            claimed = Invitation.objects.filter(pk=invitation.pk, reminded_at__isnull=True)
            if claimed.update(reminded_at=now):
                queued += _send(invitation, reminder=True)
    return queued


def reminders_schedule(*, series: Series) -> None:
    """Queue the reminder check for its moment, where the queue can wait that long."""
    at = remind_at(series)
    if at is None or at <= timezone.now() or not reminders_task.get_backend().supports_defer:
        return
    reminders_task.using(run_after=at).enqueue(series_pk=series.pk)


@task()
def reminders_task(*, series_pk: int) -> None:
    series = Series.objects.filter(pk=series_pk).first()
    if series is not None:
        reminders_send(series=series)
