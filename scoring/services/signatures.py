"""Initials on a submitted sheet: bankrupt players as they leave, the rest, the banker last.

The banker's signature locks the sheet, writes its results and marks the table scored.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clock.services import table_mark_scored
from scoring.models import SheetSignature, TableSheet
from scoring.services.results import write_results
from scoring.services.sheets import bankrupt_ids, locked
from tournament.models import Player, Seat, Table


@transaction.atomic
def sheet_sign(
    *, sheet: TableSheet, player: Player | None = None, initials: str, by: User | None
) -> SheetSignature:
    """A player's initials (``player``), or the banker's (``player=None``).

    Players still in the game sign the submitted sheet; a bankrupt player may sign at any
    time, as they leave the table (Championship Rules, SPECTATORS). The banker signs last, once
    every remaining player has; that locks the sheet, writes the results and marks the table
    scored.
    """
    sheet = locked(sheet)
    initials = initials.strip()
    if not initials:
        raise ValidationError(_("Write your initials to sign."), code="initials")
    if sheet.is_locked:
        raise ValidationError(_("The banker has already signed this sheet."), code="locked")
    now = timezone.now()
    if player is not None:
        return _player_signs(sheet=sheet, player=player, initials=initials, by=by, now=now)
    if sheet.status != TableSheet.Status.SUBMITTED:
        raise ValidationError(
            _("The banker signs once the sheet has been submitted."), code="not-submitted"
        )
    signed = {str(pk) for pk in sheet.signatures.values_list("player_id", flat=True) if pk}
    remaining = {str(p["id"]) for p in sheet.data["players"] if not p.get("bankrupt")}
    missing = sorted(remaining - signed)
    if missing:
        aliases = Player.objects.filter(pk__in=[int(pk) for pk in missing]).order_by("alias")
        raise ValidationError(
            _("Every player still in the game signs before the banker: %(names)s.")
            % {"names": ", ".join(p.alias for p in aliases)},
            code="players-first",
        )
    signature = SheetSignature.objects.create(
        sheet=sheet, role=SheetSignature.Role.BANKER, initials=initials, signed_at=now, by=by
    )
    sheet.status = TableSheet.Status.SIGNED
    sheet.signed_at = now
    sheet.updated_by = by
    sheet.save(update_fields=["status", "signed_at", "updated_by", "updated_at"])
    write_results(sheet=sheet)
    _mark_table_scored(table=sheet.table, by=by)
    return signature


def _player_signs(
    *, sheet: TableSheet, player: Player, initials: str, by: User | None, now: Any
) -> SheetSignature:
    if not Seat.objects.filter(table=sheet.table, player=player).exists():
        raise ValidationError(_("This player is not seated at this table."), code="not-seated")
    bankrupt = str(player.pk) in bankrupt_ids(sheet.data)
    if not bankrupt and sheet.status != TableSheet.Status.SUBMITTED:
        raise ValidationError(
            _("Players still in the game sign once the banker has submitted the sheet."),
            code="not-submitted",
        )
    if sheet.signatures.filter(player=player).exists():
        raise ValidationError(_("%(alias)s has already signed.") % {"alias": player.alias})
    return SheetSignature.objects.create(
        sheet=sheet,
        player=player,
        role=SheetSignature.Role.PLAYER,
        initials=initials,
        signed_at=now,
        by=by,
    )


def _mark_table_scored(*, table: Table, by: User | None) -> None:
    """Move a finished table to "scored" when the clock rules allow it.

    A table that is not "finished" (already scored, or never marked) keeps its status; so
    does one whose wave clock was never started (``table_mark_scored`` refuses it).
    """
    table.refresh_from_db(fields=["status"])
    if table.status != Table.Status.FINISHED:
        return
    try:
        table_mark_scored(table=table, by=by)
    except ValidationError:
        pass
