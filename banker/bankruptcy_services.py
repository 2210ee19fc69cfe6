"""Writes for a bankruptcy at a table, recorded by the banker as it happens.

Tournament Kit, BANKRUPTCY: "A bankrupt player must immediately retire from the game. The last
player left in the game wins." Championship Rules, SPECTATORS: "When players are bankrupt, they
should promptly sign their score sheet and leave the table." So the banker records who went out,
when and to whom (another player or the bank), the player types their initials on the tablet there
and then, and leaves; the score sheet at the end of the game starts from the record
(scoring reads it). A record can be undone while the game is still on, never after.
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.bankruptcy_selectors import GAME_ON, game_on, players_in_game
from tournament.models import Bankruptcy, Player, Table


def _game_on(*, table_pk: int, now: datetime.datetime) -> Table:
    """The table locked for this transaction, refused unless its game is being played.

    The lock makes two tablets recording at once take turns, so the last player in the
    game can never be recorded out by both.
    """
    table = Table.objects.select_for_update().select_related("wave__round__event").get(pk=table_pk)
    if table.status not in GAME_ON:
        raise ValidationError(
            _("The game at this table is over; bankruptcies go on the score sheet now."),
            code="game-over",
        )
    if not game_on(table=table, now=now):
        raise ValidationError(_("This table’s game has not started yet."), code="not-started")
    return table


@transaction.atomic
def bankruptcy_record(
    *,
    table: Table,
    player: Player,
    creditor: Player | None,
    initials: str,
    by: User | None = None,
    now: datetime.datetime | None = None,
) -> Bankruptcy:
    """``player`` is out, bankrupt to ``creditor`` (None: the bank), signed ``initials``.

    The player must still be in the game, and so must the creditor; at least one other
    player stays in, since the last one left wins (Tournament Kit, BANKRUPTCY).
    """
    now = now or timezone.now()
    initials = initials.strip()
    if not initials:
        raise ValidationError(
            _("The player writes their initials: that is their signature on the score sheet."),
            code="initials",
        )
    table = _game_on(table_pk=table.pk, now=now)
    in_game = {p.pk: p for p in players_in_game(table=table)}
    if player.pk not in in_game:
        raise ValidationError(
            _("%(alias)s is not in the game at this table.") % {"alias": player.alias},
            code="not-in-game",
        )
    if creditor is not None and creditor.pk == player.pk:
        raise ValidationError(
            _("A player cannot go bankrupt to themselves; choose the creditor or the Bank."),
            code="self",
        )
    if creditor is not None and creditor.pk not in in_game:
        raise ValidationError(
            _("%(alias)s is not in the game at this table, so nothing can be owed to them.")
            % {"alias": creditor.alias},
            code="creditor-out",
        )
    if len(in_game) < 2:
        raise ValidationError(
            _("%(alias)s is the last player left and wins; mark the game over.")
            % {"alias": player.alias},
            code="last-player",
        )
    return Bankruptcy.objects.create(
        table=table, player=player, creditor=creditor, at=now, initials=initials, recorded_by=by
    )


@transaction.atomic
def bankruptcy_undo(*, bankruptcy: Bankruptcy, now: datetime.datetime | None = None) -> None:
    """Take back a bankruptcy recorded by mistake: the player is in the game again.

    Only while the game is on; once it is over, the score sheet is where it is corrected.
    """
    _game_on(table_pk=bankruptcy.table_id, now=now or timezone.now())
    Bankruptcy.objects.filter(pk=bankruptcy.pk).delete()
