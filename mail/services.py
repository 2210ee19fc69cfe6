"""Queueing an email: render it once in the reader's language, record it, send it after commit.

The app that knows the reader (tournament's confirmations, series' invitations) names three
templates, ``<name>_subject.txt``, ``<name>.txt`` and ``<name>.html``, and their context;
they are rendered here under ``translation.override`` so dates, words and numbers are the
reader's. The message is sent by a background task once the transaction that asked for it
commits: a registration rolled back sends nothing.

Nothing is queued without a mail server (``EMAIL_HOST``) or without the address players
reach (``BOARDWALK_SITE_URL``, for the links); ``mail_unavailable`` says which is missing,
so the pages can tell the organizer that nothing is sent.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from mail.models import Message
from mail.sending import mail_server_set, message_send
from mail.tasks import message_enqueue

# Development without BOARDWALK_SITE_URL: the address `make run` serves.
DEVELOPMENT_SITE_URL = "http://127.0.0.1:8000"
# A message claimed this long ago by a run that never finished (its worker killed) is due
# again; a sender gives up on a server far sooner (EMAIL_TIMEOUT).
CLAIM_TIMEOUT = datetime.timedelta(minutes=10)


def site_url() -> str:
    """The address the links in emails start with, or "" when it is not known."""
    return settings.BOARDWALK_SITE_URL or (DEVELOPMENT_SITE_URL if settings.DEBUG else "")


def absolute_url(path: str) -> str:
    return f"{site_url()}{path}"


def mail_unavailable() -> str | None:
    """Why no email can be sent now, in the organizer's words; None when they can."""
    if not mail_server_set():
        return _(
            "No mail server is set, so no email is sent: tell players yourself. "
            "The administrator sets one with EMAIL_HOST (README, “Email to players”)."
        )
    if not site_url():
        return _(
            "No email is sent: the links in them need the address players reach. "
            "The administrator sets it with BOARDWALK_SITE_URL (README, “Email to players”)."
        )
    return None


def _addresses(to: Iterable[str]) -> list[str]:
    """Each address once, however capitalised, blanks left out."""
    seen, kept = set(), []
    for address in to:
        address = (address or "").strip()
        if address and address.casefold() not in seen:
            seen.add(address.casefold())
            kept.append(address)
    return kept


def mail_queue(
    *,
    to: Iterable[str],
    template: str,
    context: dict[str, Any],
    language: str,
    kind: str,
    key: str = "",
    reply_to: Iterable[str] = (),
) -> Message | None:
    """Render and queue one email; None when there is nobody to send it to or no way to."""
    addresses = _addresses(to)
    if not addresses or mail_unavailable():
        return None
    language = language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    context = {**context, "site_url": site_url(), "language_code": language}
    with translation.override(language):
        subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
        text = render_to_string(f"{template}.txt", context)
        html = render_to_string(f"{template}.html", context)
    message = Message.objects.create(
        kind=kind,
        key=key,
        to=addresses,
        reply_to=_addresses(reply_to),
        subject=subject[:255],
        text=text,
        html=html,
        language=language,
    )
    transaction.on_commit(partial(message_enqueue, message_id=message.pk), robust=True)
    return message


def mail_flush() -> int:
    """Send now, in this process, every email that is due (a command line with no worker
    running, such as ``simulate_event``); the queued tasks then find them sent. Returns how
    many were sent."""
    now = timezone.now()
    Message.objects.filter(
        status=Message.Status.SENDING, claimed_at__lt=now - CLAIM_TIMEOUT
    ).update(status=Message.Status.QUEUED)
    due = Message.objects.filter(status=Message.Status.QUEUED).exclude(send_after__gt=now)
    sent = 0
    for pk in due.order_by("pk").values_list("pk", flat=True):
        message_send(message_id=pk)
        sent += Message.objects.filter(pk=pk, status=Message.Status.SENT).count()
    return sent
