"""One email to one person (and whoever shares it, such as a junior's guardian).

The app that writes the email renders it in the reader's language and hands it over; this
record is what the worker sends, what it retries on an SMTP error, and what the organizer's
pages show ("sent at 10:02", "not delivered: ..."). Once sent, or given up on, its text is
cleared: an invitation's text holds the player's personal link, which must not outlive its
use in the database.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Message(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting to be sent")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        FAILED = "failed", _("not delivered")

    # What the email is, for the app that wrote it: "tournament:confirmation".
    kind = models.CharField(_("kind"), max_length=60)
    # Whose it is within its kind, e.g. "player-12": this app knows nothing of players.
    key = models.CharField(_("key"), max_length=120, blank=True)
    to = models.JSONField(_("to"), default=list)
    reply_to = models.JSONField(_("reply to"), default=list, blank=True)
    subject = models.CharField(_("subject"), max_length=255)
    text = models.TextField(_("text"), blank=True)
    html = models.TextField(_("HTML"), blank=True)
    language = models.CharField(_("language"), max_length=10)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    error = models.TextField(_("last error"), blank=True)
    # Not before this time (a retry waits a little longer each time).
    send_after = models.DateTimeField(_("send after"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["kind", "key"], name="mail_message_lookup"),
            models.Index(fields=["status", "send_after"], name="mail_message_due"),
        ]
        verbose_name = _("email")
        verbose_name_plural = _("emails")

    def __str__(self) -> str:
        return f"{self.kind} {self.key} ({self.status})"
