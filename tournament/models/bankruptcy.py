"""A player out of a game, recorded at the table when it happens.

Imported at the end of ``tournament/models.py`` so that Django registers it, and so that
``from tournament.models import Bankruptcy`` keeps working.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.people import Player
from tournament.models.play import Table


class Bankruptcy(models.Model):
    """A player out of a game, recorded on the banker's table page when it happens.

    Championship Rules, SPECTATORS: "When players are bankrupt, they should promptly sign their
    score sheet and leave the table." ``initials`` are that signature, typed on the tablet then;
    the score sheet (scoring) starts from these rows. ``creditor`` is the player they went
    bankrupt to, or None for the bank (Tournament Kit, BANKRUPTCY).
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="bankruptcies", verbose_name=_("table")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="bankruptcies", verbose_name=_("player")
    )
    creditor = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("bankrupt to"),
    )
    at = models.DateTimeField(_("at"))
    initials = models.CharField(_("initials"), max_length=10)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )

    class Meta:
        ordering = ["table", "at", "pk"]
        verbose_name = _("bankruptcy")
        verbose_name_plural = _("bankruptcies")
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="one_bankruptcy_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.player.alias}"
