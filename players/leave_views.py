"""A withdrawal or an ejection, its result and its undo: thin views over
``leave_selectors`` and ``leave_services``."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from players.leave_selectors import leave_undo_consequence, leave_undo_refusal
from players.leave_services import player_undo_leave
from players.pages import back, player_or_404
from tournament.access import judge_required
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404
from tournament.models import Player
from tournament.pages import error_message, safe_next
from tournament.requests import AuthenticatedHttpRequest
from tournament.roles import MANAGE


def _refusal(request: HttpRequest, player: Player) -> str | None:
    # Judges eject; only the organizer withdraws someone, so only they take it back.
    if player.status == Player.Status.WITHDRAWN and not request.user.has_perm(MANAGE):
        return _("Only the organizer can undo a withdrawal.")
    return leave_undo_refusal(player=player)


@judge_required
@require_GET
def player_leave_result(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Says who left and how, with the undo beside it while it is allowed (or why not)."""
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    return render(
        request,
        "players/leave_result.html",
        {
            "event": event,
            "player": player,
            "undo_refusal": _refusal(request, player),
            "consequence": leave_undo_consequence(player=player),
            "next": safe_next(request, request.GET.get("next", "")),
        },
    )


@judge_required
@require_POST
@official_idempotent
def player_leave_undo(request: AuthenticatedHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    refusal = _refusal(request, player)
    if refusal is not None:
        messages.error(request, refusal)
        return back(request, event)
    try:
        player = player_undo_leave(player=player, by=request.user)
    except ValidationError as error:
        error_message(request, error)
    else:
        messages.success(
            request,
            _("Undone: %(alias)s is %(status)s again.")
            % {"alias": player.alias, "status": player.get_status_display().lower()},
        )
    return back(request, event)
