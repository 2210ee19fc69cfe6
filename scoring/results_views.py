"""Results pages: the judges' round desk, a table's sheet, corrections, ties, posting,
the organizer's and the public standings, the move to the final and the CSV exports.

Thin views over ``scoring.services`` (writes) and ``scoring.selectors`` (reads), in the
style of ``tournament.organizer_views``: every change is a POST answered with a redirect,
and a service's ``ValidationError`` becomes a message or a form error, never a server
error. The one page that keeps what was typed on a refusal is the correction form, which
comes back with the engine's violations next to the judge's numbers.
"""

from __future__ import annotations

import csv
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from gameplay import Edition, EditionError
from tournament.access import head_judge_required, judge_required, organizer_required
from tournament.formats import RANKING_POINTS, event_edition, event_ranking
from tournament.lookups import event_or_404, round_or_404
from tournament.models import Event, Player, Round, Seat, Table
from tournament.roles import MANAGE
from tournament.selectors import round_seating

from . import selectors
from .diff import deed_name, describe_changes
from .models import ResultLine, RoundPosting, SheetRevision, TableSheet, TieDecision
from .results_forms import OrderForm, SheetCorrectionForm, TieBreakerOrderForm
from .selectors import TableProgress
from .services import advancement, posting, sheets, ties
from .tie_breakers import (
    TIE_BREAKERS,
    default_tie_breakers_for,
    format_points,
    tie_breakers_for,
)
from .tie_breakers import columns as tie_breaker_columns
from .violations import violation_text

STATUS_LABELS = {
    TableProgress.NOT_STARTED: gettext_lazy("not started"),
    TableProgress.PLAYING: gettext_lazy("playing"),
    TableProgress.LAST_TURN: gettext_lazy("last turn"),
    TableProgress.ENTERING: gettext_lazy("entering scores"),
    TableProgress.SIGNED: gettext_lazy("signed"),
    TableProgress.APPROVED: gettext_lazy("approved"),
}


# --- Lookups -------------------------------------------------------------------------------


def _table(round_: Round, number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__event", "wave"), round=round_, number=number
    )


def _seated(table: Table) -> dict[str, Player]:
    seats = Seat.objects.filter(table=table).select_related("player").order_by("position")
    return {str(seat.player_id): seat.player for seat in seats}


def _error_message(request: HttpRequest, error: ValidationError) -> None:
    messages.error(request, " ".join(error.messages))


def _round_page(round_: Round) -> HttpResponseRedirect:
    return redirect("scoring:results_round", pk=round_.event_id, round_number=round_.number)


def _table_page(table: Table) -> HttpResponseRedirect:
    return redirect(
        "scoring:results_table",
        pk=table.round.event_id,
        round_number=table.round.number,
        table_number=table.number,
    )


def _standings_home(request: HttpRequest, event: Event) -> HttpResponseRedirect:
    """Organizers go back to the standings; a head judge, who cannot open it, to the desk."""
    if request.user.has_perm(MANAGE):
        return redirect("scoring:standings", pk=event.pk)
    return redirect("tournament:judge_dashboard")


def _points_format(event: Event) -> bool:
    return event_ranking(event=event) == RANKING_POINTS


# --- The judges' round desk -------------------------------------------------------------


@judge_required
def results_round(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Every table of a round by wave: playing, entering scores, signed or approved."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    waves: dict[int, list[dict[str, Any]]] = {}
    rows = selectors.round_table_statuses(round_=round_)
    for row in rows:
        waves.setdefault(row.wave, []).append(
            {"row": row, "label": STATUS_LABELS.get(row.status, row.status)}
        )
    settled = sum(1 for r in rows if r.status in (TableProgress.SIGNED, TableProgress.APPROVED))
    return render(
        request,
        "scoring/results/round.html",
        {
            "event": event,
            "round": round_,
            "rounds": Round.objects.filter(event=event).order_by("number"),
            "waves": sorted(waves.items()),
            "table_count": len(rows),
            "settled": settled,
            "open_ties": sum(r.open_ties for r in rows),
            "posting": RoundPosting.objects.filter(round=round_).first(),
        },
    )


# --- One table's sheet ----------------------------------------------------------------------


def _edition(event: Event):
    try:
        return event_edition(event=event)
    except EditionError:
        return None


def _sheet_players(sheet: TableSheet, seated: dict[str, Player], edition) -> list[dict[str, Any]]:
    """The sheet by player: deeds, buildings, cash, net worth, place and points.

    Places and points are the stored results (tie decisions applied) once the sheet is
    signed; before that, what the engine said about the draft.
    """
    report = {str(p["id"]): p for p in (sheet.report or {}).get("players") or []}
    results = {str(r.player_id): r for r in ResultLine.objects.filter(table_id=sheet.table_id)}
    deeds: dict[str, list[dict[str, Any]]] = {}
    for held in (sheet.data or {}).get("properties") or []:
        if not isinstance(held, dict):
            continue
        deeds.setdefault(str(held.get("owner")), []).append(
            {
                "name": deed_name(edition, held.get("position")),
                "mortgaged": bool(held.get("mortgaged")),
                "houses": held.get("houses") or 0,
                "hotel": bool(held.get("hotel")),
            }
        )
    rows = []
    for entry in (sheet.data or {}).get("players") or []:
        if not isinstance(entry, dict):
            continue
        pid = str(entry.get("id"))
        valued = report.get(pid, {})
        result = results.get(pid)
        owned = deeds.get(pid, [])
        rows.append(
            {
                "player": seated.get(pid),
                "id": pid,
                "bankrupt": bool(entry.get("bankrupt")),
                "deeds": owned,
                "houses": sum(d["houses"] for d in owned if not d["hotel"]),
                "hotels": sum(1 for d in owned if d["hotel"]),
                "cash": valued.get("cash", entry.get("cash")),
                "building_value": valued.get("building_value"),
                "net_worth": valued.get("net_worth"),
                "place": result.place if result else valued.get("place"),
                "points": format_points(
                    result.points
                    if result
                    else (None if valued.get("points") is None else Decimal(valued["points"]))
                ),
            }
        )
    rows.sort(key=lambda r: (r["place"] is None, r["place"] or 0, -(r["net_worth"] or 0)))
    return rows


def _violation_lines(
    *, violations: list[dict[str, Any]], names: dict[str, str], edition: Edition | None
) -> list[dict[str, Any]]:
    """The engine's violations with their sentence for judges: translated, aliases not ids."""
    return [
        {**v, "text": violation_text(violation=v, aliases=names, edition=edition)}
        for v in violations
    ]


def _tie_forms(
    sheet: TableSheet, seated: dict[str, Player], event: Event, data: Any = None
) -> list[dict[str, Any]]:
    """One decision form per tie the engine left open on the signed sheet (decided or not)."""
    if not sheet.is_locked:
        return []
    open_ties = set(selectors.sheet_open_ties(sheet=sheet))
    forms = []
    for tie in (sheet.report or {}).get("unresolved_ties", []):
        tie = tuple(sorted(str(pid) for pid in tie))
        players = [(pid, seated[pid].alias if pid in seated else pid) for pid in tie]
        forms.append(
            {
                "players": tie,
                "aliases": [label for _pid, label in players],
                "open": tie in open_ties,
                "decision": selectors.tie_decision_for(table=sheet.table, tie=tie),
                "form": OrderForm(data, players=players, allow_share=_points_format(event)),
            }
        )
    return forms


@judge_required
def results_table(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """A table's sheet by player, its signatures and its full revision history."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    table = _table(round_, table_number)
    seated = _seated(table)
    sheet = (
        TableSheet.objects.filter(table=table)
        .prefetch_related(
            "signatures__player",
            "signatures__by",
            Prefetch("revisions", queryset=SheetRevision.objects.select_related("by")),
        )
        .first()
    )
    edition = _edition(event)
    names = {pid: p.alias for pid, p in seated.items()}
    context: dict[str, Any] = {
        "event": event,
        "round": round_,
        "table": table,
        "sheet": sheet,
        "seated": list(seated.values()),
        "posted": RoundPosting.objects.filter(round=round_).exists(),
    }
    if sheet is not None:
        context.update(
            {
                "players": _sheet_players(sheet, seated, edition),
                "signatures": list(sheet.signatures.all()),
                "revisions": [
                    {
                        "revision": r,
                        "lines": describe_changes(r.changes or [], aliases=names, edition=edition),
                    }
                    for r in sheet.revisions.all()
                ],
                "violations": _violation_lines(
                    violations=(sheet.report or {}).get("errors", []),
                    names=names,
                    edition=edition,
                ),
                "ties": _tie_forms(sheet, seated, event),
                "tie_decisions": TieDecision.objects.filter(table=table).select_related("by"),
                "names": names,
            }
        )
    return render(request, "scoring/results/table.html", context)


@judge_required
@require_POST
def results_approve(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """A judge confirms a signed sheet."""
    event = event_or_404(pk)
    table = _table(round_or_404(event, round_number), table_number)
    sheet = TableSheet.objects.filter(table=table).first()
    if sheet is None:
        messages.error(request, _("This table has no score sheet yet."))
        return _table_page(table)
    try:
        sheets.sheet_approve(sheet=sheet, by=request.user)
    except ValidationError as error:
        _error_message(request, error)
    else:
        messages.success(request, _("Table %(number)s: sheet approved.") % {"number": table.number})
    return _table_page(table)


@judge_required
def results_correct(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """A judge corrects a signed sheet, with a reason; a refusal keeps what was typed."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    table = _table(round_, table_number)
    sheet = TableSheet.objects.filter(table=table).first()
    edition = _edition(event)
    context: dict[str, Any] = {"event": event, "round": round_, "table": table, "sheet": sheet}
    if sheet is None or not sheet.is_locked or edition is None:
        context["form"] = None
        return render(request, "scoring/results/correct.html", context)
    seated = _seated(table)
    form = SheetCorrectionForm(
        request.POST or None,
        sheet_data=sheet.data,
        report=sheet.report,
        players=seated,
        edition=edition,
    )
    violations: list[dict[str, Any]] = []
    if request.method == "POST" and form.is_valid():
        try:
            sheets.sheet_correct(
                sheet=sheet,
                data=form.corrected_data(),
                reason=form.cleaned_data["reason"],
                by=request.user,
            )
        except sheets.SheetInvalid as error:
            violations = error.violations
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                _("Table %(number)s: correction saved; the sheet is approved.")
                % {"number": table.number},
            )
            return _table_page(table)
    names = {pid: p.alias for pid, p in seated.items()}
    context.update(
        {
            "form": form,
            "violations": _violation_lines(violations=violations, names=names, edition=edition),
            "posted": RoundPosting.objects.filter(round=round_).exists(),
        }
    )
    return render(request, "scoring/results/correct.html", context)


@head_judge_required
@require_POST
def results_tie(
    request: HttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """The head judge settles a tie at a table: an order, or shared points."""
    event = event_or_404(pk)
    table = _table(round_or_404(event, round_number), table_number)
    seated = _seated(table)
    tie = tuple(sorted(p for p in request.POST.get("players", "").split(",") if p))
    players = [(pid, seated[pid].alias if pid in seated else pid) for pid in tie]
    form = OrderForm(request.POST, players=players, allow_share=_points_format(event))
    if not tie:
        messages.error(request, _("Name the tied players."))
    elif not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    else:
        try:
            ties.tie_decide(
                table=table,
                order=form.cleaned_data["order"],
                share_points=form.cleaned_data["order"] is None,
                players=list(tie),
                by=request.user,
                reason=form.cleaned_data["reason"],
            )
        except ValidationError as error:
            _error_message(request, error)
        else:
            messages.success(
                request, _("Table %(number)s: tie decided.") % {"number": table.number}
            )
    return _table_page(table)


# --- Posting -----------------------------------------------------------------------------


@head_judge_required
@require_POST
def results_post(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Publish a round's scores; the service refuses while any table is unsettled."""
    round_ = round_or_404(event_or_404(pk), round_number)
    try:
        posting.round_post(round_=round_, by=request.user)
    except ValidationError as error:
        _error_message(request, error)
    else:
        messages.success(
            request,
            _("Round %(number)s is posted: its scores are public.") % {"number": round_.number},
        )
    return _round_page(round_)


@head_judge_required
@require_POST
def results_unpost(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Withdraw a posting, e.g. so a judge can correct a sheet."""
    round_ = round_or_404(event_or_404(pk), round_number)
    try:
        posting.round_unpost(round_=round_)
    except ValidationError as error:
        _error_message(request, error)
    else:
        messages.success(
            request,
            _("Round %(number)s is no longer posted; correct, then post again.")
            % {"number": round_.number},
        )
    return _round_page(round_)


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


@organizer_required
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Every result so far, unposted ones marked, with real names; the officials' view."""
    event = event_or_404(pk)
    rows = selectors.standings(event=event, only_posted=False)
    tie_breakers = tie_breakers_for(event=event)
    columns = tie_breaker_columns(event=event)
    rounds = list(Round.objects.filter(event=event).select_related("posting").order_by("number"))
    tie_forms = [
        {
            "rows": group,
            "form": OrderForm(
                players=[(str(r.player.pk), f"{r.alias} · {r.player.full_name}") for r in group],
                allow_share=False,
            ),
            "players": ",".join(str(r.player.pk) for r in group),
        }
        for group in _tied_groups(rows)
    ]
    return render(
        request,
        "scoring/results/standings.html",
        {
            "event": event,
            "columns": columns,
            "rows": [{"row": r, "cells": [c.shown(r.key(c.key)) for c in columns]} for r in rows],
            "unposted": selectors.players_with_unposted_results(event=event),
            "tie_breakers": [TIE_BREAKERS[key].label for key in tie_breakers.keys],
            "rounds": rounds,
            "tie_forms": tie_forms,
            "tie_breaker_form": _tie_breaker_form(event),
            "custom_tie_breakers": tie_breakers != default_tie_breakers_for(event=event),
            "final": _final(event),
            "semifinal": _final(event, Round.Kind.SEMIFINAL),
            "knockout": selectors.knockout_progress(event=event),
        },
    )


def _tie_breaker_form(event: Event, data=None) -> TieBreakerOrderForm:
    keys = tie_breakers_for(event=event).keys
    return TieBreakerOrderForm(data, keys=[(key, TIE_BREAKERS[key].label) for key in keys])


@organizer_required
@require_POST
def standings_tie_breakers(request: HttpRequest, pk: int) -> HttpResponse:
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
            _error_message(request, error)
        else:
            messages.success(request, _("Tie-breaker order saved."))
    return redirect(reverse("scoring:standings", kwargs={"pk": event.pk}) + "#tie-breakers")


@head_judge_required
@require_POST
def standings_tie(request: HttpRequest, pk: int) -> HttpResponse:
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
            _error_message(request, error)
        else:
            messages.success(request, _("Standings tie decided."))
    return _standings_home(request, event)


@organizer_required
@require_POST
def final_seat(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat the final (a knockout's next round) from what is posted; else say why not yet."""
    event = event_or_404(pk)
    try:
        stage = advancement.advance_to_final(event=event, by=request.user)
    except ValidationError as error:
        _error_message(request, error)
    else:
        if stage.kind == Round.Kind.SEMIFINAL:
            text = _("The semifinal is seated as round %(number)s.")
        elif stage.kind == Round.Kind.PRELIMINARY:
            text = _(
                "Round %(number)s is seated from the table winners: publish it on the seating page."
            )
        else:
            text = _("The final is seated as round %(number)s.")
        messages.success(request, text % {"number": stage.number})
    return redirect(reverse("scoring:standings", kwargs={"pk": event.pk}) + "#final")


# --- CSV -------------------------------------------------------------------------------


def _csv(rows: list[list[str]], filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    csv.writer(response).writerows(rows)
    return response


@organizer_required
def results_csv(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """A round's results, one row per player and table, by alias."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    return _csv(
        selectors.results_csv_rows(round_=round_),
        f"event-{event.pk}-round-{round_.number}-results.csv",
    )


@organizer_required
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings by alias; ``?posted=1`` gives the public version (posted rounds only)."""
    event = event_or_404(pk)
    only_posted = request.GET.get("posted") == "1"
    suffix = "posted" if only_posted else "all"
    return _csv(
        selectors.standings_csv_rows(event=event, only_posted=only_posted),
        f"event-{event.pk}-standings-{suffix}.csv",
    )
