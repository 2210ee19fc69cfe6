"""What the players' pages share (the list, the check-in desk, no-shows, leaving): the
person asked for, and the way back to the page an action came from."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from players.selectors import player_get
from tournament.access import allowed_url
from tournament.models import Event, Player
from tournament.pages import safe_next


def player_or_404(event: Event, player_pk: int) -> Player:
    try:
        return player_get(event=event, pk=player_pk)
    except Player.DoesNotExist as exc:
        raise Http404(_("No such person at this event.")) from exc


def back(request: HttpRequest, event: Event) -> HttpResponseRedirect:
    """Return to the page the action came from (player list or check-in desk).

    Only same-site addresses are followed; otherwise organizers go to the player list and
    judges, who cannot open it, to the check-in desk.
    """
    next_url = safe_next(request, request.POST.get("next", ""))
    if next_url:
        # Not redirect(): it would take a "next" without "/" for a route name to reverse.
        return HttpResponseRedirect(next_url)
    players = allowed_url(request, "players:player_list", pk=event.pk)
    return redirect(players or reverse("players:check_in", kwargs={"pk": event.pk}))
