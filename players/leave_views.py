"""A withdrawal or an ejection, its result and its undo (issue 15): thin views over
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
from players.no_show_views import _safe_next
from players.views import _back, _error_message, _player
from tournament.access import judge_required
from tournament.lookups import event_or_404
from tournament.models import Player
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
    player = _player(event, player_pk)
    return render(
        request,
        "tournament/organizer/leave_result.html",
        {
            "event": event,
            "player": player,
            "undo_refusal": _refusal(request, player),
            "consequence": leave_undo_consequence(player=player),
            "next": _safe_next(request),
        },
    )


@judge_required
@require_POST
def player_leave_undo(request: AuthenticatedHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    event = event_or_404(pk)
    player = _player(event, player_pk)
    refusal = _refusal(request, player)
    if refusal is not None:
        messages.error(request, refusal)
        return _back(request, event)
    try:
        player = player_undo_leave(player=player, by=request.user)
    except ValidationError as error:
        _error_message(request, error)
    else:
        messages.success(
            request,
            _("Undone: %(alias)s is %(status)s again.")
            % {"alias": player.alias, "status": player.get_status_display().lower()},
        )
    return _back(request, event)
