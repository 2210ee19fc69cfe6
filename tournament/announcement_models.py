"""An organizer's own announcements for a round, beside the rule book's calls."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .models import Round


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
