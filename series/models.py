"""A championship season: regional events that qualify players into the Finals.

Championship Rules, REGIONAL CHAMPIONSHIP DETAILS: "There will be 4 Regional Championships ... From
each event the 4 players with the highest Point scores (not net worth) will progress through to
the MONOPOLY Championship Finals"; JUNIOR: "From the 4 regional Junior Championships, 1
junior competitor from each will progress to the MONOPOLY Championship Finals".

A ``Series`` names its Finals and juniors' final; each regional is a ``SeriesEvent`` with
its number of qualifying places; the same person across events is a ``SeriesPerson``
(matched by email, merged or split by the organizer) and the Finals' list is ``Entrant``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Event, Player

SENIOR = "senior"
JUNIOR = "junior"
DIVISIONS = ((SENIOR, _("Finals")), (JUNIOR, _("Junior finals")))


class Series(models.Model):
    name = models.CharField(_("name"), max_length=200)
    season = models.CharField(_("season"), max_length=40)
    finals = models.ForeignKey(
        Event,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("Finals event"),
    )
    junior_finals = models.ForeignKey(
        Event,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("junior finals event"),
    )
    # Championship Rules: "Alternates for World Tournaments must have participated in the final of
    # their National Tournament".
    alternates_played_final = models.BooleanField(
        _("alternates must have played their event's final"), default=False
    )
    # The public pages, each released by the organizer (as spectator's switches).
    public_qualifiers = models.BooleanField(_("regional qualifiers"), default=False)
    public_entrants = models.BooleanField(_("Finals entrants"), default=False)
    public_champion = models.BooleanField(_("champion"), default=False)
    # The Finals invitations (series/invitation_mail.py): each qualifier answers by a personal
    # link that works until this deadline; a reminder goes this many days before it.
    answers_due = models.DateTimeField(_("qualifiers answer by"), null=True, blank=True)
    reminder_days = models.PositiveSmallIntegerField(
        _("reminder, days before the deadline"), default=3
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-season", "name"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return f"{self.name} ({self.season})"


class SeriesEvent(models.Model):
    """A regional of the series and how many of its players qualify."""

    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="regionals", verbose_name=_("series")
    )
    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="series_membership", verbose_name=_("event")
    )
    division = models.CharField(_("qualifies for"), max_length=10, choices=DIVISIONS)
    places = models.PositiveSmallIntegerField(_("qualifying places"))
    qualified_at = models.DateTimeField(_("qualifiers fixed at"), null=True, blank=True)

    class Meta:
        ordering = ["series", "division", "event__date", "event__pk"]
        verbose_name = _("series event")
        verbose_name_plural = _("series events")

    def __str__(self) -> str:
        return str(self.event)


class SeriesPerson(models.Model):
    """One person across the series' events, matched by email (organizer may merge/split)."""

    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="people", verbose_name=_("series")
    )
    email = models.CharField(_("email"), max_length=254, blank=True)

    class Meta:
        ordering = ["series", "pk"]
        verbose_name = _("series person")
        verbose_name_plural = _("series people")

    def __str__(self) -> str:
        return self.email or f"#{self.pk}"


class PersonLink(models.Model):
    """Which person a registration of a series event is."""

    person = models.ForeignKey(
        SeriesPerson, on_delete=models.CASCADE, related_name="links", verbose_name=_("person")
    )
    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="series_link", verbose_name=_("player")
    )

    class Meta:
        verbose_name = _("person link")
        verbose_name_plural = _("person links")

    def __str__(self) -> str:
        return f"{self.player_id} → {self.person_id}"


class Entrant(models.Model):
    """A place on the Finals' (or juniors' final) list."""

    class Status(models.TextChoices):
        QUALIFIER = "qualifier", _("Qualifier")
        INVITED = "invited", _("Invited")
        ALTERNATE = "alternate", _("Alternate")
        DECLINED = "declined", _("Declined")

    class Response(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="entrants", verbose_name=_("series")
    )
    division = models.CharField(_("final"), max_length=10, choices=DIVISIONS)
    person = models.ForeignKey(
        SeriesPerson,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("person"),
    )
    # The registration they qualified with (None for an invited entrant).
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("qualifying registration"),
    )
    source = models.ForeignKey(
        SeriesEvent,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="entrants",
        verbose_name=_("qualified from"),
    )
    rank = models.PositiveIntegerField(_("qualifying rank"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    response = models.CharField(
        _("answer"), max_length=10, choices=Response.choices, default=Response.PENDING
    )
    alternate_position = models.PositiveIntegerField(_("alternate order"), null=True, blank=True)
    # An invited entrant: who, and why (the previous winner, a host's wild card).
    first_name = models.CharField(_("first name"), max_length=100, blank=True)
    last_name = models.CharField(_("last name"), max_length=100, blank=True)
    email = models.EmailField(_("email"), blank=True)
    date_of_birth = models.DateField(_("date of birth"), null=True, blank=True)
    alias = models.CharField(_("alias"), max_length=60)
    reason = models.TextField(_("reason"), blank=True)
    finals_player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("Finals registration"),
    )
    # When the answer was given (by the player's link, or recorded by the organizer).
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )

    class Meta:
        ordering = ["series", "division", "pk"]
        verbose_name = _("Finals entrant")
        verbose_name_plural = _("Finals entrants")

    def __str__(self) -> str:
        return f"{self.alias} ({self.get_status_display()})"


class Confirmation(models.Model):
    """The organizer's confirmation of a final's entrants (registered in the Finals event)."""

    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="confirmations", verbose_name=_("series")
    )
    division = models.CharField(_("final"), max_length=10, choices=DIVISIONS)
    at = models.DateTimeField(_("confirmed at"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["series", "division"], name="series_confirm_once")
        ]
        verbose_name = _("entrants confirmation")
        verbose_name_plural = _("entrants confirmations")

    def __str__(self) -> str:
        return f"{self.series} {self.division}"


class Invitation(models.Model):
    """An entrant's personal link to accept or decline their place, and its emails.

    The link is the invitation signed with a salt (``series.invitation_mail``); ``nonce``
    makes it unguessable and lets a new one replace it. It works once (``used_at``), until
    the series' deadline, and only for its own series.
    """

    entrant = models.OneToOneField(
        Entrant, on_delete=models.CASCADE, related_name="invitation", verbose_name=_("entrant")
    )
    nonce = models.CharField(_("nonce"), max_length=32)
    first_sent_at = models.DateTimeField(_("first sent at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("last sent at"), null=True, blank=True)
    reminded_at = models.DateTimeField(_("reminded at"), null=True, blank=True)
    used_at = models.DateTimeField(_("answered by its link at"), null=True, blank=True)
    # The latest email with this link (the invitation, a resend or the reminder).
    message = models.ForeignKey(
        "mail.Message",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("latest email"),
    )

    class Meta:
        verbose_name = _("Finals invitation")
        verbose_name_plural = _("Finals invitations")

    def __str__(self) -> str:
        return f"{self.entrant} ({self.sent_at or '-'})"
