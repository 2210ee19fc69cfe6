"""What the organizer has released to the public, page by page (as Tabbycat does).

A page the organizer has not released answers politely that nothing is posted yet. Tables
also need the round's assignments published, and results the round posted: the switch
says "the public may see this kind of page", the round says "this round is ready".

Unless the organizer holds the public site (``held``), publishing a round's tables and
posting a round switch on the pages they appear on (``services.release_following``,
connected to tournament's and scoring's signals in apps.py), so a new organizer's public
site follows the day without a visit to this page.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Event
from tournament.public_site import PAGES

# The switches, in the order the organizer's page lists them (tournament.public_site, so the
# officials' messages below this app name the same pages).
__all__ = ["PAGES", "PublicRelease"]


class PublicRelease(models.Model):
    """One event's release switches; no row means nothing is released yet."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="public_release", verbose_name=_("event")
    )
    home = models.BooleanField(
        _("event home"),
        default=False,
        help_text=_("Schedule, current round and wave, the clock and links to released pages."),
    )
    tables = models.BooleanField(
        _("table assignments"),
        default=False,
        help_text=_("Each round's tables by alias, once its assignments are published."),
    )
    results = models.BooleanField(
        _("round results"),
        default=False,
        help_text=_("Each table's places and points, once the head judge posts the round."),
    )
    standings = models.BooleanField(
        _("standings"), default=False, help_text=_("Posted rounds only, with the tie-breakers.")
    )
    final = models.BooleanField(
        _("final table"), default=False, help_text=_("Who plays the final, and its result.")
    )
    winner = models.BooleanField(
        _("winner"), default=False, help_text=_("The winner, once the final is posted.")
    )
    held = models.BooleanField(
        _("hold the public site"),
        default=False,
        help_text=_(
            "Publishing tables and posting rounds release nothing: you release each page here."
        ),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("updated by"),
    )

    class Meta:
        verbose_name = _("public release")
        verbose_name_plural = _("public releases")

    def __str__(self) -> str:
        return str(self.event)
