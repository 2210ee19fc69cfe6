"""Standings pages for the officials: every result so far with real names, the head
judge's decisions on ties the tie-breakers leave, the tie-breaker order, the move to the
final and the standings CSV.

Thin views over ``scoring.services`` (writes) and ``scoring.selectors`` (reads), as in
``scoring.results_views``: every change is a POST answered with a redirect, and a service's
``ValidationError`` becomes a message, never a server error.
"""

from __future__ import annotations

import dataclasses

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
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
from tournament.models import Event, Player, Round
from tournament.money import edition_of
from tournament.pages import error_message
from tournament.public_site import FINAL, say_public
from tournament.requests import AuthenticatedHttpRequest

# --- Standings ---------------------------------------------------------------------------

# Standings rows on one page: at 2,000 players the whole table is a megabyte of HTML. The
# top of it is what the cut and the winner are decided on; the search finds anyone else.
# As many as the results page's tables, so a club event fits on one page.
STANDINGS_PAGE_SIZE = 50


def _tied_groups(rows: list[selectors.StandingRow]) -> list[list[selectors.StandingRow]]:
    groups: dict[int, list[selectors.StandingRow]] = {}
    for row in rows:
        if row.tied:
            groups.setdefault(row.rank, []).append(row)
    return [groups[rank] for rank in sorted(groups)]


def _final(event: Event, kind: str = Round.Kind.FINAL):
    final = Round.objects.filter(event=event, kind=kind).order_by("number").first()
    return round_seating(round_=final) if final else None


def _found(rows: list[selectors.StandingRow], *, event: Event, typed: str) -> int | None:
    """The index of the first row whose alias or registered name is what was typed,
    regardless of case; failing that, the first that contains it; None if none does."""
    wanted = typed.strip().casefold()
    if not wanted:
        return None
    names = {
        pk: f"{first} {last}".casefold()
        for pk, first, last in Player.objects.filter(event=event).values_list(
            "pk", "first_name", "last_name"
        )
    }
    for matches in (lambda name: name == wanted, lambda name: wanted in name):
        for index, row in enumerate(rows):
            if matches(row.alias.casefold()) or matches(names.get(row.player_id, "")):
                return index
    return None


def _with_players(
    rows: list[selectors.StandingRow], *, event: Event, wanted: set[int]
) -> list[selectors.StandingRow]:
    """``rows`` with the registered person read for the players in ``wanted``: the page's
    rows and their ties, not the whole field's."""
    people = Player.objects.filter(event=event).in_bulk(list(wanted))
    return [
        dataclasses.replace(row, player=people.get(row.player_id))
        if row.player_id in wanted
        else row
        for row in rows
    ]


def _tie_forms(groups: list[list[selectors.StandingRow]]) -> list[dict]:
    return [
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
        for group in groups
    ]


@head_judge_required
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Every result so far, unposted ones marked, with real names; the officials' view,
    fifty places a page, ``?q=`` going to the page and row of an alias or name.

    The head judge opens it too: the ties the tie-breakers leave (the top place, the cut
    for the final) are theirs to decide, here; a tie's players are next to each other, so
    the page shows the decisions for its own rows and links the pages holding the others.
    The organizer's controls on it (the order of the tie-breakers, seating the next stage,
    the CSV files) are shown to whoever may use them.
    """
    event = event_or_404(pk)
    # The ranking needs every player's numbers, not their registration: only the rows shown
    # read the person.
    rows = selectors.standings(event=event, only_posted=False, with_players=False)
    page_url = reverse("scoring:standings", kwargs={"pk": event.pk})
    typed = request.GET.get("q", "").strip()[:60]
    found = _found(rows, event=event, typed=typed) if typed else None
    if found is not None:
        number = found // STANDINGS_PAGE_SIZE + 1
        query = f"?page={number}" if number > 1 else ""
        return redirect(f"{page_url}{query}#standing-{rows[found].player_id}")
    page = Paginator(rows, STANDINGS_PAGE_SIZE).get_page(request.GET.get("page"))
    shown = {row.player_id for row in page.object_list}
    # Tied players stand next to each other: a group touching this page is decided here.
    touching = {
        row.player_id
        for group in _tied_groups(rows)
        if any(row.player_id in shown for row in group)
        for row in group
    }
    rows = _with_players(rows, event=event, wanted=shown | touching)
    groups = _tied_groups(rows)
    here = [group for group in groups if group[0].player_id in touching]
    elsewhere = [
        {"ranks": group[0].rank, "page": rows.index(group[0]) // STANDINGS_PAGE_SIZE + 1}
        for group in groups
        if group[0].player_id not in touching
    ]
    page = Paginator(rows, STANDINGS_PAGE_SIZE).get_page(page.number)
    return render(
        request,
        "scoring/results/standings.html",
        {
            "event": event,
            **_standings_rows(event, page.object_list),
            "page": page,
            "page_url": page_url,
            "not_found": bool(typed),
            "unposted": selectors.players_with_unposted_results(event=event, among=shown),
            "rounds": list(
                Round.objects.filter(event=event).select_related("posting").order_by("number")
            ),
            "tie_forms": _tie_forms(here),
            "ties_elsewhere": elsewhere,
            "tie_breaker_form": _tie_breaker_form(event),
            "custom_tie_breakers": tie_breakers_for(event=event)
            != default_tie_breakers_for(event=event),
            "final": _final(event),
            "semifinal": _final(event, Round.Kind.SEMIFINAL),
            "knockout": selectors.knockout_progress(event=event),
            "has_final": event_has_final(event=event),
            "winner": selectors.event_winner(event=event),
            "top_tied": bool(rows) and rows[0].tied,
            "seating_stamp": seating_stamp(event=event),
        },
    )


def _standings_rows(event: Event, rows) -> dict:
    """The page's rows with their tie-breaker cells, and the tie-breakers' names."""
    columns = tie_breaker_columns(event=event)
    edition = edition_of(event)
    return {
        "columns": columns,
        "rows": [
            {
                "row": r,
                "cells": [c.text(r.key(c.key), edition=edition) for c in columns],
                "broken_by": tie_broken_text(r.broken_by) if r.broken_by else "",
            }
            for r in rows
        ],
        "tie_breakers": [TIE_BREAKERS[key].label for key in tie_breakers_for(event=event).keys],
    }


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
    # Back to the page of the standings the decision was taken on.
    page = request.POST.get("page", "")
    query = f"?page={page}" if page.isascii() and page.isdigit() and len(page) <= 6 else ""
    return redirect(reverse("scoring:standings", kwargs={"pk": event.pk}) + query)


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
