"""The kit's staffing on the seating page: a player who banks their own table.

000, BANKERS: "Ideally, a non-player should serve as Banker at each table ... If neither is
possible, a player from each table must act as that table's Banker."
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import table_services
from .access import organizer_required
from .lookups import event_or_404, round_or_404
from .models import Player
from .seating_views import _error_message, _seating_page


@organizer_required
@require_POST
def seating_player_banker(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """Where no volunteer banks, the table's highest roller banks this round (000)."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    table = get_object_or_404(round_.tables, number=table_number)
    chosen = request.POST.get("player", "")
    is_pk = chosen.isascii() and chosen.isdigit() and len(chosen) <= 18
    player = Player.objects.filter(event=event, pk=chosen).first() if is_pk else None
    if chosen and player is None:
        messages.error(request, _("Choose one of the table's players."))
    else:
        try:
            table_services.table_assign_player_banker(table=table, player=player)
        except ValidationError as error:
            _error_message(request, error)
        else:
            messages.success(
                request,
                _("Round %(round)s, table %(table)s: banker saved.")
                % {"round": round_.number, "table": table.number},
            )
    return _seating_page(
        event,
        anchor=f"round-{round_.number}-table-{table.number}",
        round_number=round_.number,
        table=table,
    )
