"""An event: its format, edition, date, timings, registration and the switches of its day."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from gameplay import all_editions
from tournament.formats import format_choices


def age_on(*, born: datetime.date, day: datetime.date) -> int:
    """Age in whole years on ``day``: eligibility is judged on the event's date."""
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def edition_choices() -> list[tuple[str, str]]:
    """The rules engine's editions; a new edition file needs no migration."""
    return [(edition.slug, edition.name) for edition in all_editions()]


class Event(models.Model):
    """One tournament, with the format's defaults copied in for the organizer to adjust."""

    name = models.CharField(_("name"), max_length=200)
    organization = models.CharField(_("organization"), max_length=200)
    venue = models.CharField(_("venue"), max_length=200)
    address = models.CharField(_("address"), max_length=300, blank=True)
    # The kit's Event Registration Form asks for the city and the state on their own lines.
    city = models.CharField(_("city"), max_length=100, blank=True)
    state = models.CharField(_("state / region"), max_length=100, blank=True)
    postal_code = models.CharField(_("postal code"), max_length=20, blank=True)
    date = models.DateField(_("date"))
    start_time = models.TimeField(_("start time"))
    contact_name = models.CharField(_("contact name"), max_length=200, blank=True)
    contact_email = models.EmailField(_("contact email"), blank=True)
    # The kit's Event Registration Form asks for the director's title and a fax number.
    contact_title = models.CharField(
        _("contact title"), max_length=100, blank=True, default="Tournament Director"
    )
    contact_phone = models.CharField(_("contact telephone"), max_length=40, blank=True)
    contact_fax = models.CharField(_("contact fax"), max_length=40, blank=True)
    # Who receives the signed forms (Tournament Kit: "Please return to"): the organizer's own body,
    # a sponsor or a national federation, with the address and fax the forms print.
    forms_return_name = models.CharField(_("return forms to"), max_length=200, blank=True)
    forms_return_address = models.TextField(_("return address"), blank=True)
    forms_return_fax = models.CharField(_("return fax"), max_length=40, blank=True)
    charity = models.CharField(_("charity"), max_length=200, blank=True)
    money_raised = models.DecimalField(
        _("money raised"), max_digits=12, decimal_places=2, null=True, blank=True
    )
    edition = models.CharField(
        _("edition"), max_length=40, choices=edition_choices, default="classic-us"
    )
    format = models.CharField(
        _("format"), max_length=20, choices=format_choices, default="championship"
    )
    # The printouts and the hall display speak it; pages follow each reader's own choice.
    language = models.CharField(
        _("language of printouts and hall display"),
        max_length=10,
        choices=settings.LANGUAGES,
        default="en",
    )
    # Championship Rules: "same-language games": players of one game language sit at tables of their
    # own.
    same_language_tables = models.BooleanField(_("seat players by game language"), default=False)
    international = models.BooleanField(_("international play"), default=False)
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes per round"), default=90, validators=[MinValueValidator(1)]
    )
    preliminary_rounds = models.PositiveSmallIntegerField(
        _("preliminary rounds"), default=3, validators=[MinValueValidator(1)]
    )
    advancing = models.PositiveSmallIntegerField(
        _("players advancing to the final"), default=4, validators=[MinValueValidator(1)]
    )
    alternates = models.PositiveSmallIntegerField(_("number of alternates"), default=3)
    expected_players = models.PositiveIntegerField(
        _("places (expected players)"), default=32, validators=[MinValueValidator(1)]
    )
    table_size_min = models.PositiveSmallIntegerField(_("smallest table"), default=4)
    table_size_max = models.PositiveSmallIntegerField(_("largest table"), default=5)
    minimum_age = models.PositiveSmallIntegerField(_("minimum age"), default=16)
    maximum_age = models.PositiveSmallIntegerField(_("maximum age"), null=True, blank=True)
    guardian_consent_under = models.PositiveSmallIntegerField(
        _("guardian consent needed under age"), default=16
    )
    travel_flag_under = models.PositiveSmallIntegerField(
        _("travel rules apply under age"), default=18
    )
    citizenship_declaration = models.BooleanField(
        _("citizenship declaration required"), default=False
    )
    registration_opens = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes = models.DateTimeField(
        _("pre-registration closes"),
        null=True,
        blank=True,
        help_text=_("Three days before the event unless you choose otherwise."),
    )
    on_the_day_registration = models.BooleanField(_("on-the-day registration open"), default=True)
    # Told in each registration's confirmation email (players/registration_mail.py).
    # Tournament Kit: "We suggest that players be told to arrive 45 minutes before your scheduled
    # start time", to sign the registration sheet and be shown to their table.
    arrival_minutes = models.PositiveSmallIntegerField(
        _("players arrive this many minutes before the start"),
        default=45,
        help_text=_("Said in each player's confirmation email, to sign in before play."),
    )
    players_note = models.TextField(
        _("what players should bring and know"),
        blank=True,
        help_text=_(
            "Said in each player's confirmation email: what to bring, parking, food. Empty: "
            "a pencil to add up their score sheet."
        ),
    )
    tables_per_wave = models.PositiveSmallIntegerField(
        _("tables per wave"),
        default=0,
        help_text=_("0 plays every table at once; otherwise rounds are split into waves."),
    )
    # Standings tie-breaker keys best first (scoring.selectors.TieBreakers); empty means
    # the format's default order. Set on the standings page, not the event form.
    tie_breakers = models.JSONField(_("tie-breaker order"), default=list, blank=True)
    # The club kit's knockout (Tournament Kit, THE DAY OF THE TOURNAMENT): how players reach the
    # final (knockout/bracket.py METHODS). Empty for the formats that are not knockouts.
    knockout_method = models.CharField(
        _("how players reach the final"),
        max_length=16,
        choices=[
            ("table_winners", _("Table winners go through, round after round")),
            ("highest_assets", _("The six highest asset totals of the preliminary round")),
            ("winners_assets", _("Table winners, then the six highest asset totals")),
        ],
        blank=True,
        default="",
    )
    # The bracket the organizer confirmed before round 1 (bracket.BracketPlan.to_dict()).
    bracket = models.JSONField(_("confirmed bracket"), default=dict, blank=True)
    bracket_confirmed_at = models.DateTimeField(_("bracket confirmed at"), null=True, blank=True)
    bracket_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("bracket confirmed by"),
    )
    # Tournament Kit: "You must have a minimum of 24 players". Seating fewer is the organizer's
    # decision, recorded with its reason.
    minimum_override_reason = models.TextField(_("reason to play with fewer players"), blank=True)
    minimum_override_at = models.DateTimeField(_("fewer players allowed at"), null=True, blank=True)
    minimum_override_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("fewer players allowed by"),
    )
    # A championship has a same-day final (the Championship Rules' stand-alone events); a regional
    # of a series ends with its qualifiers instead (series.services sets this when it joins). Off by
    # default, so a form that leaves the box out keeps the final.
    ends_with_qualifiers = models.BooleanField(
        _("ends with its qualifiers (no same-day final)"),
        default=False,
        help_text=_("For a regional that sends its best players to a series' Finals."),
    )
    # Posting waits for a judge's approval of every sheet (formats.judge_approves_sheets).
    judge_approves_sheets = models.BooleanField(
        _("a judge approves every score sheet before posting"),
        default=True,
        help_text=_("Off: the banker or the referee counter-signs, as in the club kit."),
    )
    paper_size = models.CharField(
        _("paper size"),
        max_length=10,
        choices=[("A4", "A4"), ("letter", "Letter")],
        default="A4",
        help_text=_("The paper the printouts (score sheets, forms) are laid out for."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-date"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        permissions = [
            ("manage_event", _("Can run events as organizer (tournament director)")),
            ("judge_event", _("Can act as a judge at events")),
            ("head_judge_event", _("Can act as head judge at events")),
            ("bank_event", _("Can act as a table banker")),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("spectator:event_home", kwargs={"pk": self.pk})

    @property
    def starts_at(self) -> datetime.datetime:
        return timezone.make_aware(datetime.datetime.combine(self.date, self.start_time))
