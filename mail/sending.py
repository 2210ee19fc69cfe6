"""Sending one queued email over SMTP: claim it, send it, and say whether to try again.

A passing failure (the server busy, the connection lost, a 4xx answer) is tried again a
little later, up to ``MAX_ATTEMPTS`` times; a refusal (5xx: no such mailbox) is final.
Either way the outcome is written on the message for the organizer's pages.
"""

from __future__ import annotations

import datetime
import logging
import smtplib

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import F, Q
from django.utils import timezone

from mail.models import Message

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
# How long each retry waits after a passing failure (the last attempt waits the longest).
RETRY_DELAYS = (
    datetime.timedelta(minutes=1),
    datetime.timedelta(minutes=5),
    datetime.timedelta(minutes=20),
    datetime.timedelta(minutes=60),
)
ERROR_LENGTH = 500


def mail_server_set() -> bool:
    """Whether a mail server is configured: without one nothing is sent (README, Email)."""
    return bool(getattr(settings, "EMAIL_HOST", ""))


def _due(now: datetime.datetime) -> Q:
    return Q(send_after__isnull=True) | Q(send_after__lte=now)


def message_send(*, message_id: int) -> datetime.datetime | None:
    """Send one queued message if it is due; returns when to try again after a passing
    failure, None when it is done with (sent, refused, given up on, or not this run's)."""
    now = timezone.now()
    claimed = (
        Message.objects.filter(pk=message_id, status=Message.Status.QUEUED)
        .filter(_due(now))
        .update(status=Message.Status.SENDING, claimed_at=now, attempts=F("attempts") + 1)
    )
    if not claimed:
        return None
    message = Message.objects.get(pk=message_id)
    if not mail_server_set():
        _finish(message, status=Message.Status.FAILED, error="No mail server is set.")
        return None
    try:
        _email(message).send(fail_silently=False)
    except (smtplib.SMTPException, OSError) as error:
        return _failed(message, error=error, now=now)
    _finish(message, status=Message.Status.SENT, sent_at=timezone.now())
    return None


def _email(message: Message) -> EmailMultiAlternatives:
    email = EmailMultiAlternatives(
        subject=message.subject,
        body=message.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=message.to,
        reply_to=message.reply_to or None,
        headers={"Content-Language": message.language},
    )
    email.attach_alternative(message.html, "text/html")
    return email


def _finish(message: Message, *, status: str, error: str = "", **fields) -> None:
    """Done with it: the text goes (an invitation's holds the player's personal link)."""
    Message.objects.filter(pk=message.pk).update(
        status=status, error=error[:ERROR_LENGTH], text="", html="", **fields
    )


def _permanent(error: Exception) -> bool:
    """A 5xx answer is the server's final word (no such mailbox, refused); anything else
    (4xx, a lost connection, a timeout) may pass."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _text in error.recipients.values()]
        return bool(codes) and all(code >= 500 for code in codes)
    code = getattr(error, "smtp_code", None)
    return isinstance(code, int) and code >= 500


def _failed(message: Message, *, error: Exception, now: datetime.datetime):
    text = f"{type(error).__name__}: {error}"
    if _permanent(error) or message.attempts >= MAX_ATTEMPTS:
        logger.warning("Email %s not delivered (try %s): %s", message.pk, message.attempts, text)
        _finish(message, status=Message.Status.FAILED, error=text)
        return None
    retry_at = now + RETRY_DELAYS[min(message.attempts, len(RETRY_DELAYS)) - 1]
    logger.info("Email %s: %s; trying again at %s", message.pk, text, retry_at)
    Message.objects.filter(pk=message.pk).update(
        status=Message.Status.QUEUED, error=text[:ERROR_LENGTH], send_after=retry_at
    )
    return retry_at
