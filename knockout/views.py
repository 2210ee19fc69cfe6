"""The club knockout on the seating page: the bracket planner, its confirmation, round 1.

The kit (Tournament Kit, "THE DAY OF THE TOURNAMENT") plans the day from who is there, so
the planner shows, for the players checked in now, the rounds, their tables, how many go
through and the day's length, and refreshes itself (htmx, every 15 seconds) while people
check in. Thin views over ``knockout_services`` and ``knockout_selectors``: every change is
a POST answered with a redirect to the seating page, and a refusal is a message.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from knockout import services as knockout_services
from knockout.bracket import HIGHEST_ASSETS, TABLE_WINNERS, WINNERS_ASSETS, BracketPlan
from knockout.selectors import KnockoutPlanner, knockout_planner
from seating.draw import draw_seed_new
from seating.round_tables import seating_stamp
from tournament.access import organizer_required
from tournament.formats import round_minutes_warning
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404
from tournament.models import Event
from tournament.pages import error_message
from tournament.requests import AuthenticatedHttpRequest

# Round 1 of a knockout gives the engine this long; the organizer waits on the page.
SEAT_SECONDS = 10.0


class OverrideForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Why play with fewer players?"),
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=1000,
        help_text=gettext_lazy("Recorded with your name and the time, and shown on this page."),
    )


def _tables_text(sizes: tuple[tuple[int, int], ...]) -> str:
    """ "6 tables of 4", "10 tables of 4, 2 tables of 5": what a round seats."""
    return ", ".join(
        ngettext("%(count)s table of %(size)s", "%(count)s tables of %(size)s", count)
        % {"count": count, "size": size}
        for size, count in sorted(sizes)
    )


def _duration_text(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    return _("about %(hours)s h %(minutes)02d min") % {"hours": hours, "minutes": rest}


def _plan_view(plan: BracketPlan, *, planner: KnockoutPlanner) -> dict:
    """A plan as the page reads it: one row per round, then the final, and the day's length."""
    rows = []
    for round_ in plan.rounds:
        last = round_.number == len(plan.rounds)
        if plan.method == HIGHEST_ASSETS or (plan.method == WINNERS_ASSETS and last):
            through = _("the %(count)s highest asset totals to the final")
        elif last:
            through = ngettext(
                "%(count)s table winner to the final",
                "%(count)s table winners to the final",
                round_.advancing,
            )
        else:
            through = ngettext(
                "%(count)s table winner", "%(count)s table winners", round_.advancing
            )
        rows.append(
            {
                "name": _("Round %(number)s") % {"number": round_.number},
                "players": round_.players,
                "tables": _tables_text(round_.size_counts()),
                "through": through % {"count": round_.advancing},
            }
        )
    rows.append(
        {
            "name": _("Final"),
            "players": plan.final_players,
            "tables": _tables_text(((plan.final_players, 1),)),
            "through": _("the winner"),
        }
    )
    confirmed = planner.confirmed
    return {
        "method": plan.method,
        "rows": rows,
        "minutes": _duration_text(plan.minutes),
        "is_confirmed": confirmed is not None and confirmed.to_dict() == plan.to_dict(),
    }


def _step(planner: KnockoutPlanner) -> int:
    """Where the organizer is among the knockout's steps (``_knockout.html``)."""
    if planner.started:
        return 4
    if planner.options is None:
        return 1
    return 3 if planner.confirmed_matches else 2


def planner_context(event: Event) -> dict:
    """What ``_bracket.html`` needs: the planner and each plan the organizer may confirm."""
    planner = knockout_planner(event=event)
    return {
        "event": event,
        "planner": planner,
        "step": _step(planner),
        "plans": [_plan_view(plan, planner=planner) for plan in planner.choices],
        "confirmed_view": _plan_view(planner.confirmed, planner=planner)
        if planner.confirmed
        else None,
        "table_winners_method": TABLE_WINNERS,
        "winners_assets_method": WINNERS_ASSETS,
        "round_minutes_warning": round_minutes_warning(event=event),
        # The tables as this page shows them: "seat round 1" sends it back (a second tap).
        "seating_stamp": seating_stamp(event=event),
        "poll_seconds": settings.BOARDWALK_LIVE_POLL_SECONDS,
    }


def _seating_page(event: Event) -> HttpResponse:
    return redirect(reverse("seating:seating", kwargs={"pk": event.pk}) + "#bracket")


@organizer_required
@require_GET
def knockout_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """The planner alone, for the seating page to refresh while players check in."""
    event = event_or_404(pk)
    return render(request, "knockout/_bracket.html", planner_context(event))


@organizer_required
@require_POST
@official_idempotent
def knockout_confirm(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Store the plan for the players checked in now, with the method the button names."""
    event = event_or_404(pk)
    try:
        knockout_services.bracket_confirm(
            event=event, method=request.POST.get("method", ""), by=request.user
        )
    except ValidationError as error:
        error_message(request, error)
    else:
        messages.success(
            request,
            ngettext(
                "Bracket confirmed for %(count)s player. Next: seat round 1.",
                "Bracket confirmed for %(count)s players. Next: seat round 1.",
                event.bracket["players"],
            )
            % {"count": event.bracket["players"]},
        )
    return _seating_page(event)


@organizer_required
@require_POST
@official_idempotent
def knockout_seat_first(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat round 1 at the confirmed plan's tables (again, if it is not started)."""
    event = event_or_404(pk)
    try:
        round_ = knockout_services.knockout_seat_first_round(
            event=event,
            seed=draw_seed_new(),
            time_limit=SEAT_SECONDS,
            seen=request.POST.get("seen") or None,
        )
    except ValidationError as error:
        error_message(request, error)
    else:
        messages.success(
            request,
            ngettext(
                "Round 1 is seated at %(count)s table. Next: publish it, then start it.",
                "Round 1 is seated at %(count)s tables. Next: publish it, then start it.",
                round_.tables.count(),
            )
            % {"count": round_.tables.count()},
        )
    return _seating_page(event)


@organizer_required
@require_POST
@official_idempotent
def knockout_override(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Record the organizer's reason to seat fewer players than the kit's minimum."""
    event = event_or_404(pk)
    form = OverrideForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the reason to play with fewer players."))
        return _seating_page(event)
    try:
        knockout_services.minimum_override_record(
            event=event, reason=form.cleaned_data["reason"], by=request.user
        )
    except ValidationError as error:
        error_message(request, error)
    else:
        messages.success(request, _("Your reason is recorded: fewer players may be seated."))
    return _seating_page(event)


@organizer_required
@require_POST
@official_idempotent
def knockout_override_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_or_404(pk)
    try:
        knockout_services.minimum_override_withdraw(event=event)
    except ValidationError as error:
        error_message(request, error)
    else:
        messages.success(request, _("The reason is withdrawn; the minimum applies again."))
    return _seating_page(event)
