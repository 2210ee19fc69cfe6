"""The banker's table page: the official countdown, last turn, game over and its undo."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from banker.access import banker_required
from clock import services
from clock.pages import clock_context
from clock.selectors import game_over_undo_refusal, wave_clock
from clock.timing import Status
from cockpit import judge_call_services
from scoring.bankruptcy_selectors import table_bankruptcy_view
from seating.selectors import table_seating
from tournament.access import acting_user
from tournament.formats import event_has_last_turn
from tournament.idempotency import idempotent
from tournament.lookups import table_or_404
from tournament.models import TableStatus


@banker_required
def banker_table(request: HttpRequest, table_pk: int) -> HttpResponse:
    """The banker's tablet: the official countdown, the calls, and the end-of-game buttons."""
    table = table_or_404(table_pk)
    now = timezone.now()
    clock = wave_clock(wave=table.wave, now=now)
    view = next(v for v in clock.tables if v.table.pk == table.pk)
    status = TableStatus(table.status)
    last_turn = event_has_last_turn(event=table.round.event)
    return render(
        request,
        "banker/table.html",
        {
            "event": table.round.event,
            "table": table,
            "aliases": view.aliases,
            "seating": table_seating(table=table),
            "table_status": status,
            "table_status_label": status.label,
            # The Tournament Kit's End of Round has no last turn: time called ends the game.
            "last_turn": last_turn,
            "can_call_last_turn": last_turn and status == TableStatus.PLAYING,
            "time_called": clock.state.time_is_called,
            "can_finish": status in (TableStatus.PLAYING, TableStatus.LAST_TURN)
            and clock.state.status != Status.NOT_STARTED,
            "can_reopen": status == TableStatus.FINISHED
            and game_over_undo_refusal(table=table) is None,
            "bankruptcy": table_bankruptcy_view(table=table),
            **clock_context(clock, now=now),
        },
    )


def _table_action(request: HttpRequest, table_pk: int, act, success: str) -> HttpResponse:
    table = table_or_404(table_pk)
    try:
        act(table=table, by=acting_user(request))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, success % {"table": table})
    return redirect("banker:banker_table", table_pk=table.pk)


@banker_required
@require_POST
@idempotent
def table_last_turn(request: HttpRequest, table_pk: int) -> HttpResponse:
    return _table_action(
        request,
        table_pk,
        services.table_mark_last_turn,
        _("%(table)s: last turn. Play ends when the player before the starting player is done."),
    )


@banker_required
@require_POST
@idempotent
def table_finished(request: HttpRequest, table_pk: int) -> HttpResponse:
    return _table_action(
        request,
        table_pk,
        services.table_mark_finished,
        _("%(table)s: game over. Score entry is open for this table."),
    )


@banker_required
@require_POST
@idempotent
def table_reopen(request: HttpRequest, table_pk: int) -> HttpResponse:
    """Undo a game over tapped by mistake, while the score sheet has not been saved."""
    return _table_action(
        request,
        table_pk,
        services.table_reopen_game,
        _("%(table)s: the game is open again. Play goes on."),
    )


@banker_required
@require_POST
@idempotent
def table_judge_please(request: HttpRequest, table_pk: int) -> HttpResponse:
    """The banker raises their arm: the table waits on the judges' desk for a judge."""
    table = table_or_404(table_pk)
    judge_call_services.judge_call(table=table, by=acting_user(request))
    messages.success(
        request,
        _("%(table)s: a judge is called. Raise your arm so the judge finds the table.")
        % {"table": table},
    )
    return redirect("banker:banker_table", table_pk=table.pk)
