"""What is played: rounds, their waves, the tables and the seats at them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.event import Event
from tournament.models.people import Player


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
    # The seating a re-seat of all rounds replaced, and the one it made, so the
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


class TableStatus(models.TextChoices):
    """A table's game, as its banker reports it: the one vocabulary of a table's status.

    The clock's rules of moving between them are ``clock.timing.table_transition_error``;
    every page writes a status with its ``label``, lower case because it is read inside a
    sentence ("This table is marked: last turn").
    """

    PLAYING = "playing", _("playing")
    LAST_TURN = "last_turn", _("last turn")
    FINISHED = "finished", _("finished")
    SCORED = "scored", _("scored")


class Table(models.Model):
    """One game: numbered within its round, with a banker and the order of play."""

    Status = TableStatus

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
    # Tournament Kit: "a player from each table must act as that table's Banker" (table_services).
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
    # The language this game is played in (Championship Rules: "same-language games"); empty: the
    # event's.
    language = models.CharField(
        _("game language"), max_length=10, choices=settings.LANGUAGES, blank=True
    )
    # playing -> last_turn -> finished -> scored (or playing -> finished when only one
    # player remains); the moves are checked in ``clock.table_transition_error``.
    status = models.CharField(
        _("status"), max_length=12, choices=TableStatus.choices, default=TableStatus.PLAYING
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
    # The status before the last move, so a game over tapped by mistake reopens
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
