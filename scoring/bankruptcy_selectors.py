"""Reads for the bankruptcies recorded at a table: who is out, who is still in the game.

Championship Rules, SPECTATORS: "When players are bankrupt, they should promptly sign their score
sheet and leave the table." The banker's table page records each one as it happens
(``bankruptcy_services``); the score sheet in scoring starts from these reads.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from clock.selectors import clock_facts
from clock.timing import Status, clock_state
from tournament.models import Bankruptcy, Player, Seat, Table

GAME_ON = (Table.Status.PLAYING, Table.Status.LAST_TURN)


def table_bankruptcies(*, table: Table) -> list[Bankruptcy]:
    """The table's bankruptcies, first out first."""
    return list(
        Bankruptcy.objects.filter(table=table)
        .select_related("player", "creditor")
        .order_by("at", "pk")
    )


def players_in_game(*, table: Table) -> list[Player]:
    """The players seated at the table who have not gone bankrupt, in seat order."""
    out = Bankruptcy.objects.filter(table=table).values_list("player_id", flat=True)
    seats = (
        Seat.objects.filter(table=table)
        .exclude(player_id__in=out)
        .select_related("player")
        .order_by("position")
    )
    return [seat.player for seat in seats]


def game_on(*, table: Table, now: datetime.datetime) -> bool:
    """Whether the table's game is being played: its clock started, the game not over."""
    if table.status not in GAME_ON:
        return False
    return clock_state(clock_facts(wave=table.wave), now=now).status != Status.NOT_STARTED


@dataclass(frozen=True)
class TableBankruptcies:
    """What the banker's table page shows: who is out, who is left, what may be done."""

    bankruptcies: list[Bankruptcy]
    in_game: list[Player]
    # The game is on: a bankruptcy may be recorded (two or more left) or undone.
    game_on: bool

    @property
    def may_record(self) -> bool:
        return self.game_on and len(self.in_game) > 1

    @property
    def last_player(self) -> Player | None:
        """The one player left while the game is on: the outright winner (Tournament Kit,
        BANKRUPTCY: "The last player left in the game wins")."""
        return self.in_game[0] if self.game_on and len(self.in_game) == 1 else None


def table_bankruptcy_view(*, table: Table, now: datetime.datetime | None = None):
    return TableBankruptcies(
        bankruptcies=table_bankruptcies(table=table),
        in_game=players_in_game(table=table),
        game_on=game_on(table=table, now=now or timezone.now()),
    )
