"""The people at an event: registered players, alternates, the waiting list, who left."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.event import Event, age_on


class Player(models.Model):
    """A registrant: a player with a seat, an alternate waiting for one, or out of play.

    Real names stay on organizer and judge screens; everything public shows the alias.
    """

    class Status(models.TextChoices):
        PLAYER = "player", _("Player")
        ALTERNATE = "alternate", _("Alternate")
        # Beyond the places and the event's alternates (Championship Rules: "three alternate
        # positions will be secured"): registered, told so, and promoted only by the organizer.
        WAITING = "waiting", _("Waiting list")
        NO_SHOW = "no_show", _("No-show")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        EJECTED = "ejected", _("Ejected")

    class Source(models.TextChoices):
        SELF = "self", _("Self-registration")
        ON_THE_DAY = "on_the_day", _("On the day")
        IMPORT = "import", _("CSV import")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="players", verbose_name=_("event")
    )
    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100)
    address = models.CharField(_("address"), max_length=300, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    region = models.CharField(_("state / region"), max_length=100, blank=True)
    postal_code = models.CharField(_("postal code"), max_length=20, blank=True)
    telephone = models.CharField(_("telephone"), max_length=40, blank=True)
    email = models.EmailField(_("email"), blank=True)
    date_of_birth = models.DateField(_("date of birth"))
    # As typed: "who are you related to or living with at this event".
    family = models.CharField(_("family / household"), max_length=200, blank=True)
    # The family text folded for comparison: equal keys are never seated together.
    household = models.CharField(_("household key"), max_length=200, blank=True, db_index=True)
    eligibility_declared = models.BooleanField(_("eligibility declared"), default=False)
    citizenship_declared = models.BooleanField(_("citizenship declared"), default=False)
    publicity_consent = models.BooleanField(_("consent to publicity"), default=False)
    guardian_name = models.CharField(_("guardian's name"), max_length=200, blank=True)
    guardian_consent = models.BooleanField(_("guardian's consent"), default=False)
    # A junior's guardian receives a copy of every email to the player.
    guardian_email = models.EmailField(_("guardian's email"), blank=True)
    signature = models.CharField(_("signature (typed name)"), max_length=200)
    signed_at = models.DateTimeField(_("signed at"))
    alias = models.CharField(_("alias"), max_length=60)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PLAYER
    )
    # 1 is the next alternate to step in; empty for everyone else.
    alternate_position = models.PositiveIntegerField(_("alternate order"), null=True, blank=True)
    # 1 is the first on the waiting list; empty for everyone else.
    waiting_position = models.PositiveIntegerField(_("waiting list order"), null=True, blank=True)
    replaces = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name=_("took the place of"),
    )
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    status_reason = models.TextField(_("reason"), blank=True)
    status_changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("status changed by"),
    )
    status_changed_at = models.DateTimeField(_("status changed at"), null=True, blank=True)
    # What a withdrawal or an ejection changed, so it can be undone while nothing
    # has been built on it (the status before, and the place among the alternates).
    status_before = models.CharField(_("status before"), max_length=12, blank=True)
    alternate_position_before = models.PositiveIntegerField(
        _("alternate order before"), null=True, blank=True
    )
    source = models.CharField(
        _("registered by"), max_length=12, choices=Source.choices, default=Source.SELF
    )
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # The language this player plays in; empty: the event's.
    game_language = models.CharField(
        _("game language"), max_length=10, choices=settings.LANGUAGES, blank=True
    )
    # The language the player registered in, for their emails; empty: their game language,
    # else the event's (players/registration_mail.py).
    language = models.CharField(
        _("language of emails"), max_length=10, choices=settings.LANGUAGES, blank=True
    )

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["event", "alias"], name="unique_alias_per_event"),
            models.UniqueConstraint(
                fields=["event", "alternate_position"], name="unique_alternate_position"
            ),
            models.UniqueConstraint(
                fields=["event", "waiting_position"], name="unique_waiting_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name} ({self.alias})"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def age_at_event(self) -> int:
        return age_on(born=self.date_of_birth, day=self.event.date)

    @property
    def travel_flag(self) -> bool:
        return self.age_at_event < self.event.travel_flag_under
