"""What the server keeps of a banker's tablet: the writes it applied, and when it was heard.

``TabletWrite`` is one banker write (last turn, game over, a bankruptcy, the sheet, a
signature) under the idempotency key the tablet gave it, with the answer that was sent
back. A tablet that lost the answer, or replays its offline queue, sends the same key and
gets the same answer; the write is not applied again (``tournament.idempotency``). The key
is bound to its table and its action (the view): the same key sent to another action is
another write. Answers older than a day are pruned.

``TabletHeartbeat`` is the last word from one tablet (a browser, by the id it keeps) at a
table: when, and how many actions it still had waiting. The judges' results page reads it.

``JudgeCall`` is a table's "Judge, please" from the tablet, taken and closed by a judge.

Imported at the end of ``tournament/models.py`` so that Django registers them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class KeptAnswer(models.Model):
    """A write applied once under its idempotency key, and the answer it got, to send
    again when the same key comes back (``tournament.idempotency``)."""

    key = models.UUIDField(_("idempotency key"))
    status_code = models.PositiveSmallIntegerField(_("answer status"), default=0)
    content_type = models.CharField(_("answer type"), max_length=120, blank=True)
    body = models.BinaryField(_("answer"), blank=True, default=b"")
    location = models.CharField(_("answer location"), max_length=500, blank=True)
    # The messages the answer left for the next page ([level, text, tags]): a redirect's
    # repeat shows them again, since the first answer's page may never have been seen.
    said = models.JSONField(_("answer messages"), default=list, blank=True)
    at = models.DateTimeField(_("applied at"), auto_now_add=True, db_index=True)

    # Each kind of write names the action its key is bound to, at its own length.
    action: str

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.action} {self.key}"


class TabletWrite(KeptAnswer):
    """A banker write applied once, and the answer it got."""

    table = models.ForeignKey(
        "tournament.Table",
        on_delete=models.CASCADE,
        related_name="tablet_writes",
        verbose_name=_("table"),
    )
    action = models.CharField(_("action"), max_length=80)

    class Meta:
        ordering = ["table", "pk"]
        verbose_name = _("tablet write")
        verbose_name_plural = _("tablet writes")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "key", "action"], name="tablet_write_once_per_action"
            )
        ]


class TabletHeartbeat(models.Model):
    """The last heartbeat of one tablet at one table."""

    table = models.ForeignKey(
        "tournament.Table",
        on_delete=models.CASCADE,
        related_name="tablet_heartbeats",
        verbose_name=_("table"),
    )
    device = models.CharField(_("tablet"), max_length=64)
    queued = models.PositiveIntegerField(_("actions waiting"), default=0)
    offline_since = models.DateTimeField(_("offline since"), null=True, blank=True)
    last_heard = models.DateTimeField(_("last heard"))

    class Meta:
        ordering = ["table", "-last_heard"]
        verbose_name = _("tablet heartbeat")
        verbose_name_plural = _("tablet heartbeats")
        constraints = [
            models.UniqueConstraint(fields=["table", "device"], name="tablet_heartbeat_per_device")
        ]

    def __str__(self) -> str:
        return f"{self.device} @ {self.table_id}"


class JudgeCall(models.Model):
    """A table asking for a judge, from the banker's tablet, until a judge closes it.

    Championship Rules, JUDGING: "If a judge is required the contestant must flag this to the Banker
    who will raise their arm". The call waits on the judges' desk and the head judge's clock
    page; a judge takes it ("on my way") and closes it, with the ruling if there was one.
    Calls are kept: they are the table's record of what was asked and decided.
    """

    table = models.ForeignKey(
        "tournament.Table",
        on_delete=models.CASCADE,
        related_name="judge_calls",
        verbose_name=_("table"),
    )
    called_at = models.DateTimeField(_("called at"))
    taken_at = models.DateTimeField(_("taken at"), null=True, blank=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("taken by"),
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("closed by"),
    )
    ruling = models.TextField(_("ruling"), blank=True)

    class Meta:
        ordering = ["called_at", "pk"]
        verbose_name = _("judge call")
        verbose_name_plural = _("judge calls")
        constraints = [
            # One open call per table: a second tap joins the call already waiting.
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(closed_at__isnull=True),
                name="one_open_judge_call_per_table",
            )
        ]

    def __str__(self) -> str:
        return f"{self.table_id} @ {self.called_at:%H:%M}"
