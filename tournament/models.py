"""Database models for events and the people at them.

Models hold data and its invariants; workflows (registering, promoting an alternate,
ejecting) live in ``services.py`` so every entry point follows the same rules.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from gameplay import all_editions

from .formats import format_choices


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
    # Who receives the signed forms (000: "Please return to"): the organizer's own body, a
    # sponsor or a national federation, with the address and fax the forms print.
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
    # 002: "same-language games": players of one game language sit at tables of their own.
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
    # Told in each registration's confirmation email (tournament/registration_mail.py).
    # 000: "We suggest that players be told to arrive 45 minutes before your scheduled start
    # time", to sign the registration sheet and be shown to their table.
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
    # The club kit's knockout (000, THE DAY OF THE TOURNAMENT): how players reach the final
    # (tournament/bracket.py METHODS). Empty for the formats that are not knockouts.
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
    # 000: "You must have a minimum of 24 players". Seating fewer is the organizer's decision,
    # recorded with its reason.
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
    # A championship has a same-day final (002 stand-alone events); a regional of a series
    # ends with its qualifiers instead (series.services sets this when it joins). Off by
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


class Player(models.Model):
    """A registrant: a player with a seat, an alternate waiting for one, or out of play.

    Real names stay on organizer and judge screens; everything public shows the alias.
    """

    class Status(models.TextChoices):
        PLAYER = "player", _("Player")
        ALTERNATE = "alternate", _("Alternate")
        # Beyond the places and the event's alternates (002: "three alternate positions will
        # be secured"): registered, told so, and promoted only by the organizer.
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
    # Issue 15: what a withdrawal or an ejection changed, so it can be undone while nothing
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
    # else the event's (tournament/registration_mail.py).
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


class Round(models.Model):
    """A round of the event: preliminaries are pre-seated together, then the final."""

    class Kind(models.TextChoices):
        PRELIMINARY = "preliminary", _("Preliminary")
        SEMIFINAL = "semifinal", _("Semifinal")
        FINAL = "final", _("Final")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("event")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    kind = models.CharField(
        _("kind"), max_length=12, choices=Kind.choices, default=Kind.PRELIMINARY
    )
    # Set when the head judge starts the first wave: from then on nobody is re-seated.
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    # The public sees table assignments only once the organizer releases them.
    assignments_published = models.BooleanField(_("assignments published"), default=False)
    seating_report = models.JSONField(_("seating report"), default=dict, blank=True)
    # Issue 15: the seating a re-seat of all rounds replaced, and the one it made, so the
    # re-seat can be undone while the round has not started and no seat was moved since.
    seating_undo = models.JSONField(_("seating before the re-seat"), default=dict, blank=True)
    # The seed of the draw before the engine seated this round (draw.py): round 1 is drawn.
    draw_seed = models.PositiveBigIntegerField(_("draw seed"), null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_round_number")
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}

    @property
    def has_started(self) -> bool:
        return self.started_at is not None


class Wave(models.Model):
    """A group of tables starting together; a hall too small for every table plays in waves."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="waves", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    scheduled_start = models.DateTimeField(_("scheduled start"), null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("wave")
        verbose_name_plural = _("waves")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_wave_number")
        ]

    def __str__(self) -> str:
        return _("Wave %(number)s") % {"number": self.number}


class TableStatusChoices(models.TextChoices):
    """A table's game, as its banker reports it (values match ``clock.TableStatus``)."""

    PLAYING = "playing", _("Playing")
    LAST_TURN = "last_turn", _("Last turn")
    FINISHED = "finished", _("Finished")
    SCORED = "scored", _("Scored")


class Table(models.Model):
    """One game: numbered within its round, with a banker and the order of play."""

    Status = TableStatusChoices

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    wave = models.ForeignKey(
        Wave, on_delete=models.PROTECT, related_name="tables", verbose_name=_("wave")
    )
    number = models.PositiveSmallIntegerField(_("table number"))
    banker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="banked_tables",
        verbose_name=_("banker"),
    )
    # 000: "a player from each table must act as that table's Banker" (table_services).
    banker_player = models.ForeignKey(
        "Player",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("player acting as banker"),
    )
    # Dice for token choice and play order, as rolled at the table or by the app:
    # {"source": "app"|"table", "token_rolls": {...}, "order_rolls": {...}, "order": [ids]}.
    play_order = models.JSONField(_("token choice and play order"), default=dict, blank=True)
    # The language this game is played in (002: "same-language games"); empty: the event's.
    language = models.CharField(
        _("game language"), max_length=10, choices=settings.LANGUAGES, blank=True
    )
    # playing -> last_turn -> finished -> scored (or playing -> finished when only one
    # player remains); the moves are checked in ``clock.table_transition_error``.
    status = models.CharField(
        _("status"), max_length=12, choices=TableStatusChoices.choices, default="playing"
    )
    status_changed_at = models.DateTimeField(_("status changed at"), null=True, blank=True)
    status_changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("status changed by"),
    )
    # Issue 15: the status before the last move, so a game over tapped by mistake reopens
    # where it was (playing, or in the last turn).
    status_before = models.CharField(_("status before"), max_length=12, blank=True)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number")
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}


class Seat(models.Model):
    """A player at a table. ``round`` repeats the table's round so that the database itself
    guarantees nobody is seated twice in one round."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(_("seat"))

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="one_seat_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="unique_seat_position"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.player.alias}"


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
from .announcement_models import Announcement  # noqa: E402, F401
from .bankruptcy_models import Bankruptcy  # noqa: E402, F401
from .language_models import OfficialProfile  # noqa: E402, F401
from .official_write_models import OfficialWrite  # noqa: E402, F401
from .tablet_models import JudgeCall, TabletHeartbeat, TabletWrite  # noqa: E402, F401
