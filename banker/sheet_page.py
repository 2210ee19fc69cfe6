"""The banker's sheet page, and the answer to a tablet's write: the last step of its way.

A write reaches here with its ``SheetReply`` (``banker.sheet_report``): sheet.js is
answered in JSON, a page without JavaScript with a redirect or the sheet again. The page
itself opens on the saved draft (or a blank sheet) with every bankruptcy recorded since.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from banker.desk import BankerTable, banker_desk
from banker.sheet_report import (
    PlayerColumn,
    ReportView,
    SheetReply,
    report_view,
    sheet_start,
    verdict_texts,
)
from gameplay.edition import Edition
from scoring.bankruptcy_selectors import table_bankruptcies
from scoring.models import SheetSignature, TableSheet
from scoring.selectors import banker_sheet_get, banker_table_players
from scoring.services import sheets
from scoring.sheet_forms import (
    HOTEL,
    GroupRows,
    SheetEntry,
    SheetForm,
    SheetLayout,
    SignForm,
)
from scoring.sheet_readiness import game_is_over
from tournament.formats import event_edition
from tournament.models import Bankruptcy, Table
from tournament.money import money_spec


def wants_json(request: HttpRequest) -> bool:
    """sheet.js asks for JSON (``Accept: application/json``); a page without it does not."""
    return "application/json" in request.headers.get("Accept", "")


def sheet_reply(
    request: HttpRequest,
    table: Table,
    *,
    entry: SheetEntry,
    reply: SheetReply,
    as_json: bool | None = None,
) -> HttpResponse:
    """A write's answer: JSON for sheet.js (``as_json``: as the request asks, unless said);
    else a redirect once saved, or the sheet again."""
    if wants_json(request) if as_json is None else as_json:
        payload = reply.json
        if reply.conflict is not None:
            html = render_to_string(
                "banker/_conflict.html", {"conflict": reply.conflict}, request=request
            )
            payload = {**payload, "html": html}
        return JsonResponse(payload, status=reply.status)
    if reply.view is None:
        messages.success(request, reply.message)
        return redirect(reply.url)
    if reply.rebind:
        # Answered: the tablet's next submission is a new one, on the version saved now.
        version = entry.version if reply.retry_version is None else reply.retry_version
        hidden = (str(version), str(uuid.uuid4()))
    else:
        hidden = (request.POST.get("version", ""), request.POST.get("submission_key", ""))
    return _render(
        request,
        table,
        form=entry.form,
        layout=entry.layout,
        view=reply.view,
        sheet=banker_sheet_get(table=table),
        recorded=table_bankruptcies(table=table),
        stage="edit",
        hidden=hidden,
        conflict=reply.conflict,
        refused=list(reply.refused),
        status=reply.status,
    )


def sheet_page_opened(request: HttpRequest, table: Table) -> HttpResponse:
    """The sheet as it is saved: entry while a draft, signatures once submitted, then the
    result; the engine's saved report when it is of these very entries."""
    players = banker_table_players(table=table)
    edition = event_edition(event=table.round.event)
    sheet = banker_sheet_get(table=table)
    recorded = table_bankruptcies(table=table)
    data = sheet_start(sheet=sheet, players=players, edition=edition, bankruptcies=recorded)
    version = sheet.version if sheet else 0
    form = SheetForm(
        initial=SheetForm.initial_from(data, version=version), players=players, edition=edition
    )
    report = (
        sheet.report
        if sheet is not None and sheet.report and data == sheet.data
        else sheets.sheet_check(table=table, data=data)
    )
    view = report_view(
        report=report,
        data=data,
        players=players,
        edition=edition,
        game_over=game_is_over(table_status=table.status),
    )
    return _render(
        request,
        table,
        form=form,
        layout=form.layout(),
        view=view,
        sheet=sheet,
        recorded=recorded,
        stage=_stage(sheet, request),
        hidden=(str(version), str(uuid.uuid4())),
    )


def _stage(sheet: TableSheet | None, request: HttpRequest) -> str:
    if sheet is not None and sheet.is_locked:
        return "locked"
    if sheet is not None and sheet.status == TableSheet.Status.SUBMITTED:
        return "edit" if request.GET.get("edit") else "sign"
    return "edit"


def _next_table(request: HttpRequest, table: Table) -> BankerTable | None:
    """Where a signed-in banker is needed next once this sheet is locked (the table
    /bank/ would put first), so a banker with several tables goes on in one tap."""
    if not request.user.is_authenticated:
        return None
    current = banker_desk(user=request.user).current
    return current if current is not None and current.table.pk != table.pk else None


def _render(
    request: HttpRequest,
    table: Table,
    *,
    form: SheetForm,
    layout: SheetLayout,
    view: ReportView,
    sheet: TableSheet | None,
    recorded: list[Bankruptcy],
    stage: str,
    hidden: tuple[str, str],
    conflict: dict[str, Any] | None = None,
    refused: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    edition = form.edition
    game_over = game_is_over(table_status=table.status)
    sheet_signatures = list(sheet.signatures.all()) if sheet else []
    signed = {s.player_id: s for s in sheet_signatures if s.player_id}
    for column in view.columns:
        column.signed = signed.get(column.player.pk)
    _recorded_columns(view.columns, recorded)
    for column in view.columns:
        column.inputs = layout.inputs[column.player.pk]
    banker_signature = next((s for s in sheet_signatures if s.role == "banker"), None)
    remaining = [c for c in view.columns if not c.bankrupt]
    context = {
        "next_table": _next_table(request, table) if stage == "locked" else None,
        "table": table,
        "event": table.round.event,
        "edition": edition,
        "players": form.players,
        "sheet": sheet,
        "stage": stage,
        "form": form,
        "groups": _deed_rows(layout, view),
        # The version this page shows and the key of its next submission (hidden fields).
        "sheet_version": hidden[0],
        "submission_key": hidden[1],
        "view": view,
        "conflict": conflict,
        "refused": refused or [],
        "signatures": sheet_signatures,
        "banker_signature": banker_signature,
        "players_all_signed": all(c.signed for c in remaining),
        "sign_form": SignForm(),
        "results": sorted(view.columns, key=lambda c: (c.place is None, c.place or 0)),
        # A club knockout scores no points (its table winners go through): no column of
        # dashes where there is nothing to show.
        "results_have_points": any(c.points is not None for c in view.columns),
        "game_over": game_over,
        "sheet_rule": _sheet_rule(edition, game_over=game_over),
        "last_submission_key": str(sheet.last_submission_key or "") if sheet else "",
        # Changes when a bankruptcy is recorded or undone: sheet.js then offers this
        # tablet's older entries instead of laying them over the recorded ones.
        "sheet_basis": ",".join(str(b.pk) for b in recorded),
        "hotel_value": HOTEL,
        "sheet_labels": _labels(),
        "house_word": edition.word("house", 2),
        "hotel_word": edition.word("hotel"),
    }
    return render(request, "banker/sheet.html", context, status=status)


def _recorded_columns(columns: list[PlayerColumn], bankruptcies: list[Bankruptcy]) -> None:
    """Each column's recorded bankruptcy, and the initials typed then as the signature of a
    player bankrupt on the sheet who has not signed it otherwise (shown, not saved: the
    submission saves it, ``services.sheets``)."""
    recorded = {b.player_id: b for b in bankruptcies}
    for column in columns:
        column.bankruptcy = recorded.get(column.player.pk)
        if column.signed is None and column.bankrupt and column.bankruptcy is not None:
            column.signed = SheetSignature(
                player=column.player,
                role=SheetSignature.Role.PLAYER,
                initials=column.bankruptcy.initials,
                signed_at=column.bankruptcy.at,
            )


def _deed_rows(layout: SheetLayout, view: ReportView) -> list[GroupRows]:
    """The form's deed rows by colour group, each with the engine's messages about it."""
    groups = layout.groups
    for group in groups:
        group.messages = view.by_group.get(group.group.key, [])
        for row in group.rows:
            row.messages = view.by_position.get(row.space.position, [])
    return groups


def _sheet_rule(edition: Edition, *, game_over: bool) -> dict[str, Any]:
    """What sheet.js needs to say what the server would: the facts of the submission rule
    it cannot see in the fields (``sheet_readiness``), the verdict's sentences, and the
    edition's values, so the totals bar adds up what is in the fields at every moment
    (``gameplay.valuation``: a deed at its price, half when mortgaged; houses at their
    price; a hotel with the houses turned in for it)."""
    deeds = {}
    for space in edition.deeds:
        deeds[str(space.position)] = {
            "price": space.price,
            "house": space.house_cost or 0,
            "hotel": edition.hotel_value(space) if space.kind == "street" else 0,
        }
    return {
        "facts": {"locked": False, "game_over": game_over},
        "verdicts": verdict_texts(),
        "deeds": deeds,
        "money": money_spec(edition=edition),
        "bank": {"houses": edition.bank_houses, "hotels": edition.bank_hotels},
    }


def _labels() -> dict[str, str]:
    """The words sheet.js writes itself, in the page's language."""
    return {
        "sending": _("Sending the sheet…"),
        "retrying": _(
            "Not sent yet: no connection. The sheet is kept on this tablet and will retry "
            "by itself."
        ),
        "saved": _("Draft saved."),
        "savedLocally": _("Kept on this tablet; not saved on the server yet."),
        "invalid": _("The sheet was not submitted:"),
        "refused": _("The sheet was not submitted:"),
        "conflict": _("Another tablet changed this sheet; see below."),
    }
