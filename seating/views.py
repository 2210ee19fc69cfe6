"""Seating pages: pre-seat the rounds, start and publish rounds, roll at the tables.

Thin views over ``seating_services`` (writes) and ``selectors`` (reads), in the style of
``organizer_views``: every change is a POST answered with a redirect, and a service's
``ValidationError`` becomes a message, never a server error. A judge's seat change, which
prices the change before making it, is in ``change_views``.
The public table list lives here too, because it is the same data shown by alias only.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from seating import reseat_services
from seating import services as seating_services
from seating.draw import DRAW_SEED_LIMIT, draw_seed_or_new
from seating.pages import back_to_seating
from seating.reseat_selectors import reseat_undo_refusal
from seating.round_tables import seating_stamp
from seating.selectors import banker_choices, final_stage_seating, seating_page
from seating.services import VacancyResult
from seating.table_settings import table_set_language
from seating.words import report_summary
from tournament import play_order
from tournament.access import allowed_url, head_judge_required, organizer_required
from tournament.formats import event_is_knockout
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404, round_or_404
from tournament.models import Round
from tournament.pages import error_message
from tournament.public_site import say_published

# Pre-seating gives the engine this long; the organizer waits on the page meanwhile.
PRESEAT_SECONDS = 10.0


def _round_home(request: HttpRequest, round_: Round) -> HttpResponseRedirect:
    """Organizers go back to the seating page; judges, who cannot open it, to the round's
    change page, which is their view of the tables."""
    if allowed_url(request, "seating:seating", pk=round_.event_id):
        return back_to_seating(
            round_.event, anchor=f"round-{round_.number}", round_number=round_.number
        )
    return redirect("seating:seating_change", pk=round_.event_id, round_number=round_.number)


# --- Forms ---------------------------------------------------------------------------
# Kept beside their only views: each is a few fields that hand choices to a service.


class PreseatForm(forms.Form):
    include_unchecked = forms.BooleanField(
        label=gettext_lazy("Include players not checked in"), required=False
    )
    seed = forms.IntegerField(
        label=gettext_lazy("Seed (optional)"),
        required=False,
        min_value=0,
        max_value=DRAW_SEED_LIMIT,
        help_text=gettext_lazy(
            "Empty: a new draw. The same seed and players give the same tables."
        ),
    )


# --- The organizer's seating page ---------------------------------------------------------


@organizer_required
def seating(request: HttpRequest, pk: int) -> HttpResponse:
    """One preliminary round's tables by wave (``?round=N``, a page of tables at a time),
    with the engine's report in words and the actions."""
    event = event_or_404(pk)
    knockout = event_is_knockout(event=event)
    view = seating_page(
        event=event, round_number=request.GET.get("round"), page=request.GET.get("page", 1)
    )
    report = view.seating.report if view.seating else {}
    return render(
        request,
        "seating/seating.html",
        {
            "event": event,
            "rounds": view.rounds,
            "view": view,
            "item": view.seating,
            "summary": report_summary(report),
            # The last re-seat of all rounds, while it can still be undone.
            "reseat_undo": not reseat_undo_refusal(event=event),
            "round_param": f"&round={view.seating.round.number}" if view.seating else "",
            "current": seating_services.seating_cost(event=event) if view.rounds else None,
            "preseat_form": PreseatForm(),
            "seating_stamp": seating_stamp(event=event),
            "bankers": list(banker_choices()),
            "languages": settings.LANGUAGES,
            # The final's tables (seated from the standings) get their banker here too.
            "final_rounds": final_stage_seating(event=event),
            # A knockout is seated round by round from its bracket, never pre-seated.
            "knockout": knockout,
        },
    )


@organizer_required
@require_POST
@official_idempotent
def seating_preseat(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat every round not yet started, from the checked-in players unless told otherwise."""
    event = event_or_404(pk)
    form = PreseatForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The seed must be a whole number, 0 or more."))
        return back_to_seating(event)
    try:
        result = seating_services.preseat_event(
            event=event,
            only_checked_in=not form.cleaned_data["include_unchecked"],
            seed=draw_seed_or_new(form.cleaned_data["seed"]),
            time_limit=PRESEAT_SECONDS,
            # The tables the page showed: a second tap finds them changed (already done).
            seen=request.POST.get("seen") or None,
        )
    except ValidationError as error:
        error_message(request, error)
    else:
        report = result.report
        messages.success(
            request,
            ngettext(
                "%(players)s players seated for %(rounds)s round.",
                "%(players)s players seated for %(rounds)s rounds.",
                report.rounds,
            )
            % {"players": report.players, "rounds": report.rounds},
        )
    return back_to_seating(event)


@organizer_required
@require_POST
@official_idempotent
def seating_reseat_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Put back the seating the last re-seat of all rounds replaced."""
    event = event_or_404(pk)
    try:
        rounds = reseat_services.reseat_undo(event=event)
    except ValidationError as error:
        error_message(request, error)
    else:
        messages.success(
            request,
            ngettext(
                "The re-seat is undone: round %(numbers)s has its tables from before again.",
                "The re-seat is undone: rounds %(numbers)s have their tables from before again.",
                len(rounds),
            )
            % {"numbers": ", ".join(str(r.number) for r in rounds)},
        )
    return back_to_seating(event)


@organizer_required
@require_POST
@official_idempotent
def seating_publish(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Show or hide a round's table assignments on the public page."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    published = request.POST.get("published", "1") == "1"
    back = back_to_seating(event, anchor=f"round-{round_.number}", round_number=round_.number)
    try:
        seating_services.round_publish(round_=round_, published=published)
    except ValidationError as error:
        error_message(request, error)
    else:
        if published:
            # Public unless the public site is held; the message says which.
            say_published(request, round_=round_, back=back.url)
        else:
            text = _("Round %(number)s's tables are hidden from the public.")
            messages.success(request, text % {"number": round_.number})
    return back


def _vacancy_messages(request: HttpRequest, result: VacancyResult) -> None:
    """Say who replaced whom and who moved: the judges re-direct those people to tables."""
    for left, stepped_in in result.replaced:
        messages.info(
            request,
            _("%(new_alias)s (%(new_name)s) takes the seat of %(old_alias)s (%(old_name)s).")
            % {
                "new_alias": stepped_in.alias,
                "new_name": stepped_in.full_name,
                "old_alias": left.alias,
                "old_name": left.full_name,
            },
        )
    for left in result.removed:
        messages.warning(
            request,
            _("No alternate for %(alias)s (%(name)s): the seat is removed.")
            % {"alias": left.alias, "name": left.full_name},
        )
    for player, from_table, to_table in result.moved:
        messages.info(
            request,
            _("%(alias)s (%(name)s) moves from table %(from)s to table %(to)s.")
            % {"alias": player.alias, "name": player.full_name, "from": from_table, "to": to_table},
        )


@head_judge_required
@require_POST
@official_idempotent
def seating_start(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """The head judge starts a round: seats are frozen. While a seat of someone who left is
    undecided the start is refused, and the head judge lands on the round's start page."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    try:
        result = seating_services.round_start(round_=round_)
    except ValidationError as error:
        error_message(request, error)
        if error.code == "vacancies":
            return redirect("seating:seating_vacancies", pk=event.pk, round_number=round_.number)
    else:
        messages.success(request, _("Round %(number)s has started.") % {"number": round_.number})
        _vacancy_messages(request, result)
    return _round_home(request, round_)


@organizer_required
@require_POST
@official_idempotent
def seating_fill_vacancies(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Put alternates in the seats of people who left, without starting the round; a seat
    no alternate is left for stays for the head judge's choice (``vacancy_views``)."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    try:
        result = seating_services.round_fill_vacancies(round_=round_, rest="keep")
    except ValidationError as error:
        error_message(request, error)
    else:
        if result.replaced or result.removed or result.moved:
            _vacancy_messages(request, result)
        else:
            messages.success(request, _("No seat is empty."))
    return back_to_seating(event, anchor=f"round-{round_.number}", round_number=round_.number)


@organizer_required
@require_POST
@official_idempotent
def seating_roll(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """The app rolls for a table: one die for token choice, two for the order of play."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    table = get_object_or_404(round_.tables, number=table_number)
    play_order.table_roll_play_order(table=table)
    messages.success(
        request,
        _("Round %(round)s, table %(table)s: token choice and play order rolled.")
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
def seating_record_rolls(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """The banker rolled real dice: record who chose a token first and who starts."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    table = get_object_or_404(round_.tables, number=table_number)
    players = list(table.seats.values_list("player_id", flat=True))

    def token_order() -> list[int] | None:
        places = {}
        for player_id in players:
            value = request.POST.get(f"token_{player_id}", "").strip()
            # ASCII digits only: int() refuses "²" and numbers longer than 4300 digits.
            if not (value.isascii() and value.isdigit()) or len(value) > 3:
                return None
            places[player_id] = int(value)
        if sorted(places.values()) != list(range(1, len(players) + 1)):
            return None
        return sorted(places, key=places.__getitem__)

    tokens = token_order()
    chosen = request.POST.get("starter", "")
    starter = next((p for p in players if str(p) == chosen), None)
    if tokens is None:
        messages.error(
            request,
            _("Number the players 1 to %(count)s for the token choice, each number once.")
            % {"count": len(players)},
        )
    elif starter is None:
        messages.error(request, _("Choose the player who rolled highest and starts the game."))
    else:
        play_order.table_record_play_order(table=table, token_order=tokens, starter=starter)
        messages.success(
            request,
            _("Round %(round)s, table %(table)s: the table's rolls are recorded.")
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
def seating_table_language(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """Mark the language a table's game is played in (Championship Rules: "same-language games")."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    table = get_object_or_404(round_.tables, number=table_number)
    try:
        table_set_language(table=table, language=request.POST.get("language", ""))
    except ValidationError as error:
        error_message(request, error)
    else:
        messages.success(
            request,
            _("Round %(round)s, table %(table)s: game language saved.")
            % {"round": round_.number, "table": table.number},
        )
    return back_to_seating(event, anchor=f"round-{round_.number}-table-{table.number}")
