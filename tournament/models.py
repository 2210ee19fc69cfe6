"""Database models for tournaments.

Only ``Event`` exists so far; rounds, tables and players will hang off it later.
Models stay free of workflow logic: creation rules live in ``services.py``.
"""

from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Event(models.Model):
    """One tournament day (or weekend) run by an organization at a venue."""

    class Format(models.TextChoices):
        """How the event is run; the format later decides scoring and finals rules."""

        CHAMPIONSHIP = "championship", _("Championship")
        CLUB = "club", _("Club")
        JUNIOR = "junior", _("Junior")

    name = models.CharField(_("name"), max_length=200)
    organization = models.CharField(_("organization"), max_length=200)
    venue = models.CharField(_("venue"), max_length=200)
    date = models.DateField(_("date"))
    start_time = models.TimeField(_("start time"))
    # A slug of one of the rules engine's editions (gameplay/editions/*.json).
    # Checking it against the engine is deliberately left to later work.
    edition = models.CharField(_("edition"), max_length=40, default="classic-us")
    format = models.CharField(
        _("format"), max_length=20, choices=Format.choices, default=Format.CHAMPIONSHIP
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes per round"), default=90, validators=[MinValueValidator(1)]
    )
    preliminary_rounds = models.PositiveSmallIntegerField(
        _("preliminary rounds"), default=3, validators=[MinValueValidator(1)]
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-date"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament:event_detail", kwargs={"pk": self.pk})
