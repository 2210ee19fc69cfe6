"""No-shows asked to confirm, and undone: thin views over ``no_show_selectors`` and
``no_show_services`` (the no-show itself is ``organizer_views.player_no_show``)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from players.no_show_selectors import no_show_preview, no_show_replacement, no_show_undo_refusal
from players.no_show_services import player_undo_no_show
from players.pages import back, player_or_404
from tournament.access import judge_required
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404
from tournament.pages import error_message, safe_next
from tournament.requests import AuthenticatedHttpRequest


@judge_required
@require_GET
def player_no_show_confirm(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Says what a no-show will do ("Alternate 1, Lucky Boot, takes the seat"), or why it
    cannot happen yet; once recorded, offers the undo while it is allowed."""
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    undo_refusal = no_show_undo_refusal(player=player)
    return render(
        request,
        "players/no_show_confirm.html",
        {
            "event": event,
            "player": player,
            "preview": no_show_preview(player=player),
            "replacement": no_show_replacement(player=player),
            "undo_refusal": undo_refusal,
            "next": safe_next(request, request.GET.get("next", "")),
        },
    )


@judge_required
@require_POST
@official_idempotent
def player_no_show_undo(request: AuthenticatedHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    event = event_or_404(pk)
    player = player_or_404(event, player_pk)
    try:
        replacement = player_undo_no_show(player=player, by=request.user)
    except ValidationError as error:
        error_message(request, error)
    else:
        if replacement is None:
            text = _("%(alias)s is seated again.") % {"alias": player.alias}
        else:
            text = _("%(alias)s is seated again; %(replacement)s is alternate 1 again.") % {
                "alias": player.alias,
                "replacement": replacement.alias,
            }
        messages.success(request, text)
    return back(request, event)
