"""Who banks each table, on the seating page: a banker's account, or a player of the table.

Tournament Kit, BANKERS: "Ideally, a non-player should serve as Banker at each table ... If neither
is possible, a player from each table must act as that table's Banker."
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from seating import services as seating_services
from seating import table_settings as table_services
from seating.pages import back_to_seating
from seating.selectors import banker_choices
from tournament.access import organizer_required
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404, round_or_404
from tournament.models import Player, Table
from tournament.pages import error_message

# What a table's banker is chosen from: users, or the table's own players.
_Choice = TypeVar("_Choice", bound=Model)


def _table_banker_post(
    request: HttpRequest,
    *,
    pk: int,
    round_number: int,
    table_number: int,
    field: str,
    choices: QuerySet[_Choice],
    refusal: str,
    assign: Callable[[Table, _Choice | None], object],
) -> HttpResponse:
    """Give a table the one of ``choices`` posted as ``field`` (or nobody), then back to its
    place on the seating page with what was saved or why not."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    table = get_object_or_404(round_.tables, number=table_number)
    chosen = request.POST.get(field, "")
    # ASCII digits only: int() refuses "²" and numbers longer than 4300 digits.
    is_pk = chosen.isascii() and chosen.isdigit() and len(chosen) <= 18
    picked = choices.filter(pk=chosen).first() if is_pk else None
    if chosen and picked is None:
        messages.error(request, refusal)
    else:
        try:
            assign(table, picked)
        except ValidationError as error:
            error_message(request, error)
        else:
            messages.success(
                request,
                _("Round %(round)s, table %(table)s: banker saved.")
                % {"round": round_.number, "table": table.number},
            )
    return back_to_seating(
        event,
        anchor=f"round-{round_.number}-table-{table.number}",
        round_number=round_.number,
        table=table,
    )


@organizer_required
@require_POST
@official_idempotent
def seating_banker(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """Give a table its banker (or none); only people with the banker role are offered."""
    return _table_banker_post(
        request,
        pk=pk,
        round_number=round_number,
        table_number=table_number,
        field="banker",
        choices=banker_choices(),
        refusal=_("Choose one of the bankers."),
        assign=lambda table, banker: seating_services.table_assign_banker(
            table=table, banker=banker
        ),
    )


@organizer_required
@require_POST
@official_idempotent
def seating_player_banker(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """Where no volunteer banks, the table's highest roller banks this round (Tournament Kit)."""
    return _table_banker_post(
        request,
        pk=pk,
        round_number=round_number,
        table_number=table_number,
        field="player",
        choices=Player.objects.filter(event_id=pk),
        refusal=_("Choose one of the table's players."),
        assign=lambda table, player: table_services.table_assign_player_banker(
            table=table, player=player
        ),
    )
