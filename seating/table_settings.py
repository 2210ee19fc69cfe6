"""One table's own settings: its banker and the language its game is played in."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournament.models import Player, Round, Table
from tournament.roles import BANK


def _seated_finalist(*, table: Table, banker: User) -> Player | None:
    """The finalist at ``table`` whose email is the banker account's, if any: the only link
    between an official's account and a registration."""
    email = (getattr(banker, "email", "") or "").strip()
    if not email or table.round.kind != Round.Kind.FINAL:
        return None
    return Player.objects.filter(seats__table=table, email__iexact=email).first()


def table_assign_banker(*, table: Table, banker: User | None) -> Table:
    """The official who keeps the bank and the score sheets at this table (Championship Rules,
    BANKER).

    Tournament Kit, BANKERS: "The Banker for the final round should not be one of the players": a
    banker account that is a finalist's (by email) is refused at the final table.
    """
    if banker is not None and not banker.has_perm(BANK):
        raise ValidationError(_("%(name)s is not a banker.") % {"name": banker.get_username()})
    if banker is not None and _seated_finalist(table=table, banker=banker) is not None:
        raise ValidationError(
            _(
                "%(name)s plays in this final. The kit: “The Banker for the final round should "
                "not be one of the players.” Choose another banker."
            )
            % {"name": banker.get_username()},
            code="finalist-banker",
        )
    table.banker = banker
    table.save(update_fields=["banker"])
    return table


def table_assign_player_banker(*, table: Table, player: Player | None) -> Table:
    """Where no volunteer banks, the table's player who rolled highest banks this round.

    Tournament Kit, BANKERS: "a player from each table must act as that table's Banker. To determine
    the Banker, each player rolls the dice. The player with the highest roll is Banker for
    that round but only for that round." So the player must be seated at this table, and
    never at a final: "The Banker for the final round should not be one of the players".
    ``None`` clears it.
    """
    if player is not None:
        if table.round.kind == Round.Kind.FINAL:
            raise ValidationError(
                _(
                    "The kit: “The Banker for the final round should not be one of the "
                    "players.” Give the final a banker who is not playing."
                ),
                code="final-player-banker",
            )
        if not table.seats.filter(player=player).exists():
            raise ValidationError(
                _("%(alias)s is not seated at this table: the banker is one of its players.")
                % {"alias": player.alias},
                code="not-seated",
            )
    table.banker_player = player
    table.save(update_fields=["banker_player"])
    return table


def table_set_language(*, table: Table, language: str) -> Table:
    """Mark the language this table's game is played in (Championship Rules: "same-language games");
    empty: the event's own."""
    if language and language not in dict(settings.LANGUAGES):
        raise ValidationError(_("Choose one of the languages."))
    table.language = language
    table.save(update_fields=["language"])
    return table
