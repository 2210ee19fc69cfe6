"""Score sheets, their signatures and history, table results, tie decisions and postings.

A table's game ends in one ``TableSheet``: the banker types it in (drafts), submits it to
the rules engine, the players and then the banker sign it, a judge approves it. Its
``ResultLine`` rows are what standings add up; they are rewritten from the engine's report,
never typed. Workflows live in ``services.py``; these models only hold data and the
invariants the database can enforce (one sheet per table, one line per player and table,
one signature per player and one banker signature per sheet, one posting per round).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import Event, Player, Round, Table


class TableSheet(models.Model):
    """The score sheet of one table, in the rules engine's input shape (gameplay/README.md).

    Player ids in ``data`` are ``str(Player.pk)``; the edition is always the event's.
    ``version`` grows by one with every saved change, so two tablets editing the same sheet
    notice each other instead of silently overwriting (optimistic concurrency).
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        SUBMITTED = "submitted", _("Submitted")
        SIGNED = "signed", _("Signed")
        APPROVED = "approved", _("Approved")

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="sheet", verbose_name=_("table")
    )
    data = models.JSONField(_("score sheet"), default=dict, blank=True)
    # 0 until the first save; then one more for every saved change.
    version = models.PositiveIntegerField(_("version"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    # The rules engine's last report on ``data`` (SheetReport.to_dict()), for the screens.
    report = models.JSONField(_("engine report"), default=dict, blank=True)
    # The tablet's UUID for its last submission: a retried request is applied only once.
    last_submission_key = models.UUIDField(_("last submission key"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("updated by"),
    )
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    signed_at = models.DateTimeField(_("signed at"), null=True, blank=True)
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("approved by"),
    )

    class Meta:
        ordering = ["table"]
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")

    def __str__(self) -> str:
        return f"{self.table.round} · {self.table} ({self.get_status_display()})"

    @property
    def is_locked(self) -> bool:
        """Signed or approved: only a judge's correction (with a reason) changes it now."""
        return self.status in (self.Status.SIGNED, self.Status.APPROVED)


class SheetSignature(models.Model):
    """A player's or the banker's initials on a sheet: the players first, the banker last."""

    class Role(models.TextChoices):
        PLAYER = "player", _("Player")
        BANKER = "banker", _("Banker")

    sheet = models.ForeignKey(
        TableSheet, on_delete=models.CASCADE, related_name="signatures", verbose_name=_("sheet")
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="sheet_signatures",
        verbose_name=_("player"),
    )
    role = models.CharField(_("role"), max_length=8, choices=Role.choices)
    initials = models.CharField(_("initials"), max_length=10)
    signed_at = models.DateTimeField(_("signed at"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )

    class Meta:
        ordering = ["sheet", "signed_at", "pk"]
        verbose_name = _("signature")
        verbose_name_plural = _("signatures")
        constraints = [
            models.UniqueConstraint(
                fields=["sheet", "player"],
                condition=Q(player__isnull=False),
                name="one_signature_per_player",
            ),
            models.UniqueConstraint(
                fields=["sheet"], condition=Q(role="banker"), name="one_banker_signature"
            ),
            models.CheckConstraint(
                condition=(Q(role="banker", player__isnull=True))
                | (Q(role="player", player__isnull=False)),
                name="banker_signs_without_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()}: {self.initials}"


class SheetRevision(models.Model):
    """One saved state of a sheet after submission: who, when, what changed and why.

    Written at each submission, each reopening by the banker and each judge's correction,
    so a corrected result can always be traced back to what the table signed.
    """

    class Kind(models.TextChoices):
        SUBMISSION = "submission", _("Submission")
        REOPENED = "reopened", _("Reopened by the banker")
        CORRECTION = "correction", _("Judge's correction")

    sheet = models.ForeignKey(
        TableSheet, on_delete=models.CASCADE, related_name="revisions", verbose_name=_("sheet")
    )
    version = models.PositiveIntegerField(_("version"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    data = models.JSONField(_("score sheet"))
    # scoring.diff.sheet_changes() from the previous revision (empty for the first).
    changes = models.JSONField(_("what changed"), default=list, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"))
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["sheet", "version", "pk"]
        verbose_name = _("sheet revision")
        verbose_name_plural = _("sheet revisions")

    def __str__(self) -> str:
        return f"{self.sheet} v{self.version}"


class ResultLine(models.Model):
    """One player's result at one table, written from the engine's report on a signed sheet.

    ``points`` is a Decimal because a judge may share the points of tied places (e.g. 14.50
    for two players sharing first and second of four); it is empty while a tie is undecided
    and in formats ranked by assets.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="results", verbose_name=_("table")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="results", verbose_name=_("player")
    )
    bankrupt = models.BooleanField(_("bankrupt"), default=False)
    net_worth = models.IntegerField(_("net worth"))
    unmortgaged_property_value = models.IntegerField(_("unmortgaged property value"))
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    points = models.DecimalField(_("points"), max_digits=6, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering = ["table", "place", "pk"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="one_result_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.player.alias} {self.place} ({self.points})"


class TieDecision(models.Model):
    """The head judge's decision on a tie at a table that the rules engine left open.

    ``players`` is the tied group as the engine reported it (sorted ``str`` ids). Either
    ``order`` (best first) gives them consecutive places, or ``share_points`` gives them all
    the average points of the places they tie for. A later decision on the same group
    replaces the earlier one; both stay stored.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="tie_decisions", verbose_name=_("table")
    )
    players = models.JSONField(_("tied players"))
    order = models.JSONField(_("order"), null=True, blank=True)
    share_points = models.BooleanField(_("share the points"), default=False)
    # {player id: {"place": int, "points": "14.50" | None}}: what the decision gave.
    outcome = models.JSONField(_("outcome"), default=dict, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    at = models.DateTimeField(_("decided at"))
    reason = models.TextField(_("reason"))

    class Meta:
        ordering = ["table", "at", "pk"]
        verbose_name = _("tie decision")
        verbose_name_plural = _("tie decisions")

    def __str__(self) -> str:
        return f"{self.table}: {', '.join(self.players)}"


class StandingsTieDecision(models.Model):
    """The head judge's order for players still level after every standings tie-breaker.

    ``order`` lists player pks best first; it settles any standings tie whose players it
    all contains (the latest such decision wins).
    """

    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        related_name="standings_tie_decisions",
        verbose_name=_("event"),
    )
    order = models.JSONField(_("order"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    at = models.DateTimeField(_("decided at"))
    reason = models.TextField(_("reason"))

    class Meta:
        ordering = ["event", "at", "pk"]
        verbose_name = _("standings tie decision")
        verbose_name_plural = _("standings tie decisions")

    def __str__(self) -> str:
        return f"{self.event}: {self.order}"


class RoundPosting(models.Model):
    """A round's point scores are public (Championship Rules, POSTING SCORES: by round, never by
    wave).

    Withdrawing a posting deletes the row, so posting again is simply a new row.
    """

    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, related_name="posting", verbose_name=_("round")
    )
    posted_at = models.DateTimeField(_("posted at"))
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("posted by"),
    )

    class Meta:
        verbose_name = _("round posting")
        verbose_name_plural = _("round postings")

    def __str__(self) -> str:
        return str(self.round)


class BankerLink(models.Model):
    """A private link that opens one table's score sheet without a login.

    The key is printed as a QR code on the table card, so a volunteer banker needs no
    account. A table has at most one link in force: issuing a new one revokes the old one,
    so a lost or photographed card is fixed by printing a new one. Revoked links are kept
    (who issued what, when) rather than deleted.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="banker_links", verbose_name=_("table")
    )
    key = models.CharField(_("key"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("issued by"),
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("revoked by"),
    )

    class Meta:
        ordering = ["table", "-created_at", "-pk"]
        verbose_name = _("banker link")
        verbose_name_plural = _("banker links")
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(revoked_at__isnull=True),
                name="one_active_banker_link",
            )
        ]

    def __str__(self) -> str:
        state = _("revoked") if self.revoked_at else _("active")
        return f"{self.table} ({state})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
