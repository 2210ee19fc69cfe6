"""Standings pages for the officials: every result so far with real names, the head
judge's decisions on ties the tie-breakers leave, the tie-breaker order, the move to the
final and the standings CSV.

Thin views over ``scoring.services`` (writes) and ``scoring.selectors`` (reads), as in
``scoring.results_views``: every change is a POST answered with a redirect, and a service's
``ValidationError`` becomes a message, never a server error.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from players.csv_io import csv_response
from scoring import selectors
from scoring.results_forms import OrderForm, TieBreakerOrderForm
from scoring.services import advancement, ties
from scoring.tie_breakers import (
    TIE_BREAKERS,
    default_tie_breakers_for,
    tie_breakers_for,
    tie_broken_text,
)
from scoring.tie_breakers import columns as tie_breaker_columns
from seating.round_tables import seating_stamp
from seating.selectors import round_seating
from tournament.access import head_judge_required, organizer_required
from tournament.formats import (
    event_has_final,
)
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404
from tournament.models import Event, Round
from tournament.money import edition_of
from tournament.pages import error_message
from tournament.public_site import FINAL, say_public
from tournament.requests import AuthenticatedHttpRequest

# --- Standings ---------------------------------------------------------------------------


def _tied_groups(rows: list[selectors.StandingRow]) -> list[list[selectors.StandingRow]]:
    groups: dict[int, list[selectors.StandingRow]] = {}
    for row in rows:
        if row.tied:
            groups.setdefault(row.rank, []).append(row)
    return [groups[rank] for rank in sorted(groups)]


def _final(event: Event, kind: str = Round.Kind.FINAL):
    final = Round.objects.filter(event=event, kind=kind).order_by("number").first()
    return round_seating(round_=final) if final else None


@head_judge_required
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Every result so far, unposted ones marked, with real names; the officials' view.

    The head judge opens it too: the ties the tie-breakers leave (the top place, the cut
    for the final) are theirs to decide, here. The organizer's controls on it (the order of
    the tie-breakers, seating the next stage, the CSV files) are shown to whoever may use
    them.
    """
    event = event_or_404(pk)
    rows = selectors.standings(event=event, only_posted=False)
    tie_breakers = tie_breakers_for(event=event)
    columns = tie_breaker_columns(event=event)
    edition = edition_of(event)
    rounds = list(Round.objects.filter(event=event).select_related("posting").order_by("number"))
    tie_forms = [
        {
            "rows": group,
            "form": OrderForm(
                players=[
                    (str(r.registered.pk), f"{r.alias} · {r.registered.full_name}") for r in group
                ],
                allow_share=False,
            ),
            "players": ",".join(str(r.registered.pk) for r in group),
        }
        for group in _tied_groups(rows)
    ]
    return render(
        request,
        "scoring/results/standings.html",
        {
            "event": event,
            "columns": columns,
            "rows": [
                {
                    "row": r,
                    "cells": [c.text(r.key(c.key), edition=edition) for c in columns],
                    "broken_by": tie_broken_text(r.broken_by) if r.broken_by else "",
                }
                for r in rows
            ],
            "unposted": selectors.players_with_unposted_results(event=event),
            "tie_breakers": [TIE_BREAKERS[key].label for key in tie_breakers.keys],
            "rounds": rounds,
            "tie_forms": tie_forms,
            "tie_breaker_form": _tie_breaker_form(event),
            "custom_tie_breakers": tie_breakers != default_tie_breakers_for(event=event),
            "final": _final(event),
            "semifinal": _final(event, Round.Kind.SEMIFINAL),
            "knockout": selectors.knockout_progress(event=event),
            "has_final": event_has_final(event=event),
            "winner": selectors.event_winner(event=event),
            "top_tied": bool(rows) and rows[0].tied,
            "seating_stamp": seating_stamp(event=event),
        },
    )


def _tie_breaker_form(event: Event, data=None) -> TieBreakerOrderForm:
    first, *others = default_tie_breakers_for(event=event).keys
    return TieBreakerOrderForm(
        data,
        first=(first, TIE_BREAKERS[first].label),
        others=[(key, TIE_BREAKERS[key].label) for key in others],
        current=tie_breakers_for(event=event).keys[1:],
    )


@organizer_required
@require_POST
@official_idempotent
def standings_tie_breakers(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The organizer orders the standings tie-breakers, or goes back to the format's order."""
    event = event_or_404(pk)
    if "default" in request.POST:
        keys: list[str] | None = []
    else:
        form = _tie_breaker_form(event, request.POST)
        keys = form.cleaned_data["keys"] if form.is_valid() else None
        if keys is None:
            messages.error(
                request, " ".join(str(e) for errors in form.errors.values() for e in errors)
            )
    if keys is not None:
        try:
            ties.standings_tie_breakers_set(event=event, keys=keys, by=request.user)
        except ValidationError as error:
            error_message(request, error)
        else:
            messages.success(request, _("Tie-breaker order saved."))
    return redirect(reverse("scoring:standings", kwargs={"pk": event.pk}) + "#tie-breakers")


@head_judge_required
@require_POST
@official_idempotent
def standings_tie(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The head judge orders players level on every standings tie-breaker."""
    event = event_or_404(pk)
    ids = [
        p
        for p in request.POST.get("players", "").split(",")
        # ASCII digits only: int() refuses "²" and numbers longer than 4300 digits.
        if p.isascii() and p.isdigit() and len(p) <= 18
    ]
    form = OrderForm(request.POST, players=[(pid, pid) for pid in ids], allow_share=False)
    if len(ids) < 2:
        messages.error(request, _("Name the tied players."))
    elif not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    else:
        try:
            ties.standings_tie_decide(
                event=event,
                order=[int(pid) for pid in form.cleaned_data["order"]],
                by=request.user,
                reason=form.cleaned_data["reason"],
            )
        except ValidationError as error:
            error_message(request, error)
        else:
            messages.success(request, _("Standings tie decided."))
    return redirect("scoring:standings", pk=event.pk)


@organizer_required
@require_POST
@official_idempotent
def final_seat(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Seat the final (a knockout's next round) from what is posted; else say why not yet."""
    event = event_or_404(pk)
    try:
        # "seen": the tables the page showed; a second tap finds them changed (already done).
        stage = advancement.advance_to_final(
            event=event, by=request.user, seen=request.POST.get("seen") or None
        )
    except ValidationError as error:
        error_message(request, error)
    else:
        _stage_message(request, event, stage)
    return redirect(reverse("scoring:standings", kwargs={"pk": event.pk}) + "#final")


def _stage_message(request: HttpRequest, event: Event, stage: Round) -> None:
    """What was seated; a semifinal or final shows at once on the public final page, if
    that page is released, so the message says whether it is."""
    number = {"number": stage.number}
    if stage.kind == Round.Kind.PRELIMINARY:
        text = _(
            "Round %(number)s is seated from the table winners: publish it on the seating page."
        )
        messages.success(request, text % number)
        return
    if stage.kind == Round.Kind.SEMIFINAL:
        public = _("The semifinal is seated as round %(number)s: the public final page shows it.")
        waiting = _("The semifinal is seated as round %(number)s; not public yet: %(pages)s.")
    else:
        public = _("The final is seated as round %(number)s: the public final page shows it.")
        waiting = _("The final is seated as round %(number)s; not public yet: %(pages)s.")
    say_public(
        request,
        event=event,
        pages=(FINAL,),
        public=public,
        waiting=waiting,
        params=number,
        back=reverse("scoring:standings", kwargs={"pk": event.pk}) + "#final",
    )


@organizer_required
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings by alias; ``?posted=1`` gives the public version (posted rounds only)."""
    event = event_or_404(pk)
    only_posted = request.GET.get("posted") == "1"
    suffix = "posted" if only_posted else "all"
    return csv_response(
        rows=selectors.standings_csv_rows(event=event, only_posted=only_posted),
        filename=f"event-{event.pk}-standings-{suffix}.csv",
    )
