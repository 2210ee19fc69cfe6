"""Results pages: the judges' round desk, a table's sheet, corrections, ties, posting and
a round's CSV. The standings, their ties and the move to the final are
``scoring.standings_views``.

Thin views over ``scoring.services`` (writes) and ``scoring.selectors`` (reads), in the
style of ``players.views``: every change is a POST answered with a redirect,
and a service's ``ValidationError`` becomes a message or a form error, never a server
error. The one page that keeps what was typed on a refusal is the correction form, which
comes back with the engine's violations next to the judge's numbers.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from gameplay import Edition, EditionError
from players.csv_io import csv_response
from scoring import selectors
from scoring.diff import conflict_screen, deed_name, describe_changes
from scoring.models import ResultLine, RoundPosting, SheetRevision, TableSheet, TieDecision
from scoring.results_board import results_board
from scoring.results_forms import OrderForm, SheetCorrectionForm
from scoring.selectors import TableProgress
from scoring.services import posting, sheets, ties
from scoring.tablet_selectors import round_tablet_worries
from scoring.tie_breakers import format_points
from scoring.violations import violation_text
from tournament.access import head_judge_required, judge_required, organizer_required
from tournament.formats import (
    RANKING_POINTS,
    event_edition,
    event_ranking,
)
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404, round_or_404
from tournament.models import Event, Player, Round, Seat, Table
from tournament.pages import error_message
from tournament.public_site import pages_on_post, say_public
from tournament.requests import AuthenticatedHttpRequest

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


def _round_page(round_: Round) -> HttpResponseRedirect:
    return redirect("scoring:results_round", pk=round_.event_id, round_number=round_.number)


def _table_page(table: Table) -> HttpResponseRedirect:
    return redirect(
        "scoring:results_table",
        pk=table.round.event_id,
        round_number=table.round.number,
        table_number=table.number,
    )


def _points_format(event: Event) -> bool:
    return event_ranking(event=event) == RANKING_POINTS


# --- The judges' round desk -------------------------------------------------------------


@judge_required
def results_round(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Every table of a round by wave, a page at a time: its places (alias, net worth,
    points), its progress and what still holds it up (``results_board``)."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    only_open = request.GET.get("show") == "open"
    board = results_board(round_=round_, page=request.GET.get("page") or 1, only_open=only_open)
    waves: dict[int, list[dict[str, Any]]] = {}
    for row in board.rows:
        waves.setdefault(row.wave, []).append(
            {"row": row, "label": STATUS_LABELS.get(row.status, row.status)}
        )
    return render(
        request,
        "scoring/results/round.html",
        {
            "event": event,
            "edition": _edition(event),
            "round": round_,
            "rounds": Round.objects.filter(event=event).order_by("number"),
            "waves": sorted(waves.items()),
            "board": board,
            "table_count": board.table_count,
            "settled": board.settled,
            "open_ties": board.open_ties,
            "posting": RoundPosting.objects.filter(round=round_).first(),
            # Tablets offline or with actions waiting.
            "tablet_worries": round_tablet_worries(round_=round_),
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


def _tied_choices(*, tie: tuple[str, ...], seated: dict[str, Player]) -> list[tuple[str, str]]:
    """The tied players as the head judge's lists offer them: by alias, not by id (a tie is
    keyed by its sorted ids, where "10" comes before "9")."""
    players = [(pid, seated[pid].alias if pid in seated else pid) for pid in tie]
    return sorted(players, key=lambda choice: (choice[1].casefold(), choice[0]))


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
        players = _tied_choices(tie=tie, seated=seated)
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
@official_idempotent
def results_approve(
    request: AuthenticatedHttpRequest, pk: int, round_number: int, table_number: int
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
        error_message(request, error)
    else:
        messages.success(request, _("Table %(number)s: sheet approved.") % {"number": table.number})
    return _table_page(table)


@judge_required
@official_idempotent
def results_correct(
    request: AuthenticatedHttpRequest, pk: int, round_number: int, table_number: int
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
    names = {pid: p.alias for pid, p in seated.items()}
    form = SheetCorrectionForm(
        request.POST or None,
        sheet_data=sheet.data,
        report=sheet.report,
        players=seated,
        edition=edition,
        version=sheet.version,
    )
    violations: list[dict[str, Any]] = []
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            sheets.sheet_correct(
                sheet=sheet,
                data=form.corrected_data(),
                reason=form.cleaned_data["reason"],
                by=request.user,
                expected_version=form.expected_version(),
            )
        except sheets.SheetConflict as error:
            # Another judge saved first: their correction and this page side by side, and
            # everything typed here stays in the form.
            status = 409
            context["conflict"] = conflict_screen(
                error,
                aliases=names,
                edition=edition,
                form_id="correction-form",
                save_url=request.path,
                reload_url=request.path,
                by_judge=True,
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
    context.update(
        {
            "form": form,
            "violations": _violation_lines(violations=violations, names=names, edition=edition),
            "posted": RoundPosting.objects.filter(round=round_).exists(),
            # For the tablet's deed rows (scoring/_deed_rows.html).
            "edition": edition,
            "house_word": edition.word("house", 2),
            "hotel_word": edition.word("hotel"),
        }
    )
    return render(request, "scoring/results/correct.html", context, status=status)


@head_judge_required
@require_POST
@official_idempotent
def results_tie(
    request: AuthenticatedHttpRequest, pk: int, round_number: int, table_number: int
) -> HttpResponse:
    """The head judge settles a tie at a table: an order, or shared points."""
    event = event_or_404(pk)
    table = _table(round_or_404(event, round_number), table_number)
    seated = _seated(table)
    tie = tuple(sorted(p for p in request.POST.get("players", "").split(",") if p))
    players = _tied_choices(tie=tie, seated=seated)
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
            error_message(request, error)
        else:
            messages.success(
                request, _("Table %(number)s: tie decided.") % {"number": table.number}
            )
    return _table_page(table)


# --- Posting -----------------------------------------------------------------------------


@head_judge_required
@require_POST
@official_idempotent
def results_post(request: AuthenticatedHttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Publish a round's scores; the service refuses while any table is unsettled."""
    round_ = round_or_404(event_or_404(pk), round_number)
    back = _round_page(round_)
    try:
        posting.round_post(round_=round_, by=request.user)
    except ValidationError as error:
        error_message(request, error)
    else:
        # Public unless the public site is held; the message says which.
        say_public(
            request,
            event=round_.event,
            pages=pages_on_post(round_=round_),
            public=_("Round %(number)s is posted: its scores are public."),
            waiting=_("Round %(number)s is posted; not public yet: %(pages)s."),
            params={"number": round_.number},
            back=back.url,
        )
    return back


@head_judge_required
@require_POST
@official_idempotent
def results_unpost(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """Withdraw a posting, e.g. so a judge can correct a sheet."""
    round_ = round_or_404(event_or_404(pk), round_number)
    try:
        posting.round_unpost(round_=round_)
    except ValidationError as error:
        error_message(request, error)
    else:
        messages.success(
            request,
            _("Round %(number)s is no longer posted; correct, then post again.")
            % {"number": round_.number},
        )
    return _round_page(round_)


# --- CSV -------------------------------------------------------------------------------


@organizer_required
def results_csv(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """A round's results, one row per player and table, by alias."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    return csv_response(
        rows=selectors.results_csv_rows(round_=round_),
        filename=f"event-{event.pk}-round-{round_.number}-results.csv",
    )
