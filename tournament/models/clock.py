"""A wave's official clock, every action on it, and a round's announcements."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.play import Round, Wave


class Clock(models.Model):
    """The official clock of one wave, as facts: it exists once the head judge starts it.

    The time left is never stored; ``clock.clock_state`` computes it from these facts and
    the actions below, so every server and every reload agrees.
    """

    wave = models.OneToOneField(
        Wave, on_delete=models.CASCADE, related_name="clock", verbose_name=_("wave")
    )
    # Copied from the event at the start, so later edits to the event change nothing.
    duration_seconds = models.PositiveIntegerField(_("duration (seconds)"))
    started_at = models.DateTimeField(_("started at"))
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    # One more with every change (start, pause, resume, a correction, the end), in the same
    # transaction. A page carries the version it shows and ignores an answer with an older
    # one: a poll sent before a change must not paint the old state over the new.
    version = models.PositiveIntegerField(_("version"), default=0)

    class Meta:
        verbose_name = _("clock")
        verbose_name_plural = _("clocks")

    def __str__(self) -> str:
        return f"{self.wave.round} · {self.wave}"


class ClockAction(models.Model):
    """One thing the head judge did to a clock: the log of who did what, and when."""

    class Kind(models.TextChoices):
        START = "start", _("Start")
        PAUSE = "pause", _("Pause")
        RESUME = "resume", _("Resume")
        ADJUST = "adjust", _("Time added or removed")
        END = "end", _("End")

    clock = models.ForeignKey(
        Clock, on_delete=models.CASCADE, related_name="actions", verbose_name=_("clock")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    at = models.DateTimeField(_("at"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    # Time added (positive) or removed (negative); zero for the other kinds.
    seconds = models.IntegerField(_("seconds"), default=0)
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        ordering = ["clock", "at", "pk"]
        verbose_name = _("clock action")
        verbose_name_plural = _("clock actions")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.at:%H:%M:%S}"


# Models kept in modules of their own, imported here so Django finds them: a round's
# announcements, a player's
# bankruptcy at a table, an official's settings, an official's form post under its
# idempotency key, the banker tablets' writes, heartbeats and calls for a judge.


class Announcement(models.Model):
    """An organizer's own announcement for every wave of a round, at a time remaining."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="announcements", verbose_name=_("round")
    )
    at_remaining_seconds = models.PositiveIntegerField(_("at time remaining (seconds)"))
    text = models.CharField(_("text"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["round", "-at_remaining_seconds", "pk"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")

    def __str__(self) -> str:
        return self.text

    @property
    def minutes(self) -> int:
        return self.at_remaining_seconds // 60
