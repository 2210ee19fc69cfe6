"""The banker's tablet: one table's score sheet, from typing to the banker's signature.

Thin views over ``scoring.services``. The sheet opens for a logged-in banker (permission
``tournament.bank_event``) or for a tablet that opened the table's private link
(``banker.access``); ``banker.sheet_report`` lays out what the engine said about it.

Nothing typed is lost: a refused submission re-renders the bound form; ``static/js/sheet.js``
keeps the draft in localStorage, saves it to the server, and retries a submission with the
same key until the server answers (the service applies a key once). Requests from sheet.js
ask for JSON (``Accept: application/json``); without JavaScript the same URLs answer with
pages and redirects.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.throttle import BANKER_LINK_MISSES_PER_IP, client_ip, throttle_hit
from banker import links as banker_links
from banker.access import link_grant, link_grant_drop, sheet_access
from banker.desk import BankerTable, banker_desk
from banker.sheet_report import (
    ReportView,
    bound_report,
    deed_rows,
    recorded_columns,
    report_view,
    sheet_start,
    verdict_texts,
)
from clock.pages import STATUS_LABELS
from clock.selectors import wave_clock
from clock.timing import format_remaining
from gameplay.edition import Edition
from scoring.bankruptcy_selectors import table_bankruptcies
from scoring.diff import conflict_screen
from scoring.models import TableSheet
from scoring.selectors import (
    banker_link_active,
    banker_link_table,
    banker_sheet_get,
    banker_table_players,
)
from scoring.services import sheets, signatures
from scoring.sheet_forms import (
    HOTEL,
    SheetForm,
    SignForm,
    bankrupt_field,
    cash_field,
    out_order_field,
)
from scoring.sheet_readiness import game_is_over
from scoring.violations import violation_texts
from tournament.access import (
    acting_user,
    organizer_required,
)
from tournament.formats import event_edition
from tournament.idempotency import idempotent
from tournament.lookups import table_or_404
from tournament.models import Player, Table
from tournament.money import money_spec
from tournament.qr import qr_svg
from tournament.requests import AuthenticatedHttpRequest
from tournament.selectors import table_seating

# --- The table card's link and the banker's tables -------------------------------------------


@never_cache
@require_GET
def banker_link_open(request: HttpRequest, key: str) -> HttpResponse:
    """The QR code on the table card: grant this one table to the tablet, open its page.

    The grant replaces any earlier one, so a tablet moved to another table holds only the
    table whose card it scanned last. A right key always opens, however many wrong ones
    came from the same address (a venue's tablets share one); wrong keys are counted per
    address and, past the limit, answered 429 instead of 403 (accounts/throttle.py).
    """
    table = banker_link_table(key=key)
    if table is None:
        link_grant_drop(request)
        if throttle_hit(limit=BANKER_LINK_MISSES_PER_IP, subject=client_ip(request)):
            context = {"throttled": True}
            return render(request, "scoring/banker/link_refused.html", context, status=429)
        return render(request, "scoring/banker/link_refused.html", status=403)
    link_grant(request, table=table, key=key)
    if table.status in (Table.Status.FINISHED, Table.Status.SCORED):
        return redirect("banker:banker_sheet", table_pk=table.pk)
    # While the game is on, the banker needs the table's clock and its last-turn button.
    return redirect("banker:banker_table", table_pk=table.pk)


@login_required
@require_GET
def banker_tables(request: HttpRequest) -> HttpResponse:
    """Where a banker lands after logging in: the tables assigned to them, or why none are.

    Carries no permission: anyone logged in sees their own (possibly empty) list. The
    current table comes first and large, with its clock; then the other games to play,
    the sheets still to finish, and the finished tables folded (``banker_desk``).
    """
    desk = banker_desk(user=request.user)
    context: dict[str, Any] = {"desk": desk}
    if desk.current is not None:
        table = desk.current.table
        clock = wave_clock(wave=table.wave, now=timezone.now())
        context.update(
            clock=clock,
            clock_status=STATUS_LABELS[clock.state.status],
            remaining=format_remaining(clock.state.remaining_s),
            seating=table_seating(table=table),
            clock_labels={
                "chimeOn": _("Chime on"),
                "chimeOff": _("Chime off"),
                "next": _("Next: %s"),
            },
        )
    return render(request, "scoring/banker/tables.html", context)


# --- The sheet page ----------------------------------------------------------------------------


def _setting(table: Table) -> tuple[list[Player], Edition]:
    return banker_table_players(table=table), event_edition(event=table.round.event)


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


def _page(
    request: HttpRequest,
    table: Table,
    *,
    form: SheetForm | None = None,
    view: ReportView | None = None,
    conflict: dict[str, Any] | None = None,
    refused: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    players, edition = _setting(table)
    sheet = banker_sheet_get(table=table)
    stage = _stage(sheet, request) if form is None else "edit"
    recorded = table_bankruptcies(table=table)
    data = sheet_start(sheet=sheet, players=players, edition=edition, bankruptcies=recorded)
    if form is None:
        initial = SheetForm.initial_from(data, version=sheet.version if sheet else 0)
        initial["submission_key"] = uuid.uuid4()
        form = SheetForm(initial=initial, players=players, edition=edition)
    game_over = game_is_over(table_status=table.status)
    if view is None:
        if form.is_bound:
            view = bound_report(table, form, players, edition)
        else:
            report = (
                sheet.report
                if sheet is not None and sheet.report and data == sheet.data
                else sheets.sheet_check(table=table, data=data)
            )
            view = report_view(
                report=report, data=data, players=players, edition=edition, game_over=game_over
            )
    sheet_signatures = list(sheet.signatures.all()) if sheet else []
    signed = {s.player_id: s for s in sheet_signatures if s.player_id}
    for column in view.columns:
        column.signed = signed.get(column.player.pk)
    recorded_columns(view.columns, recorded)
    for column in view.columns:
        pk = column.player.pk
        column.inputs = {
            "cash": form[cash_field(pk)],
            "bankrupt": form[bankrupt_field(pk)],
            "out_order": form[out_order_field(pk)],
            "initials": f"initials_{pk}",
        }
    banker_signature = next((s for s in sheet_signatures if s.role == "banker"), None)
    remaining = [c for c in view.columns if not c.bankrupt]
    context = {
        "next_table": _next_table(request, table) if stage == "locked" else None,
        "table": table,
        "event": table.round.event,
        "edition": edition,
        "players": players,
        "sheet": sheet,
        "stage": stage,
        "form": form,
        "groups": deed_rows(form, view),
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
        "sheet_rule": _sheet_rule(table, edition, game_over=game_over),
        "last_submission_key": str(sheet.last_submission_key or "") if sheet else "",
        # Changes when a bankruptcy is recorded or undone: sheet.js then offers this
        # tablet's older entries instead of laying them over the recorded ones.
        "sheet_basis": ",".join(str(b.pk) for b in recorded),
        "hotel_value": HOTEL,
        "sheet_labels": _labels(),
        "house_word": edition.word("house", 2),
        "hotel_word": edition.word("hotel"),
    }
    return render(request, "scoring/banker/sheet.html", context, status=status)


def _sheet_rule(table: Table, edition: Edition, *, game_over: bool) -> dict[str, Any]:
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


@sheet_access
@require_GET
def banker_sheet(request: HttpRequest, table: Table) -> HttpResponse:
    """The score sheet: entry while it is a draft, signatures once submitted, then the result."""
    return _page(request, table)


@sheet_access
@require_POST
def sheet_validate(request: HttpRequest, table: Table) -> HttpResponse:
    """Live validation (htmx): the engine's verdict on what is on screen, saving nothing.

    Answers the summary (net worths, the bank's buildings, the submit button) and, out of
    band, the messages beside every deed and every player, so old ones disappear too.
    """
    players, edition = _setting(table)
    form = SheetForm(request.POST, players=players, edition=edition)
    view = bound_report(table, form, players, edition)
    return render(
        request,
        "scoring/banker/_report.html",
        {"view": view, "edition": edition, "oob": True, "form": form},
    )


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _conflict_response(
    request: HttpRequest,
    table: Table,
    error: sheets.SheetConflict,
    players: list[Player],
    edition: Edition,
    *,
    as_json: bool,
) -> HttpResponse:
    """Another device saved first: what changed, and this tablet's entries kept (409)."""
    conflict = _conflict_context(error, players, edition, table)
    if as_json:
        html = render_to_string(
            "scoring/banker/_conflict.html", {"conflict": conflict}, request=request
        )
        return JsonResponse(
            {"status": "conflict", "html": html, "version": error.current_version}, status=409
        )
    bound = SheetForm(_rebound(request), players=players, edition=edition)
    return _page(request, table, form=bound, conflict=conflict, status=409)


def _conflict_context(
    error: sheets.SheetConflict, players: list[Player], edition: Edition, table: Table
) -> dict[str, Any]:
    return conflict_screen(
        error,
        aliases={str(p.pk): p.alias for p in players},
        edition=edition,
        form_id="sheet-form",
        save_url=reverse("banker:sheet_draft", kwargs={"table_pk": table.pk}),
        reload_url=reverse("banker:banker_sheet", kwargs={"table_pk": table.pk}),
    )


def _rebound(request: HttpRequest, *, version: int | None = None) -> Any:
    """The posted fields again, with the saved version and a new submission key.

    After the server answered, the tablet's next submission is a new one (a retry of the
    answered key would only get the same answer back).
    """
    data = request.POST.copy()
    if version is not None:
        data["version"] = str(version)
    data["submission_key"] = str(uuid.uuid4())
    data.pop("version_override", None)
    return data


def _expected_version(request: HttpRequest, form: SheetForm) -> int:
    """The version this tablet saw; "keep my entries" after a conflict names the new one."""
    override = request.POST.get("version_override", "")
    # ASCII digits only: int() refuses "²" and numbers longer than 4300 digits.
    if override.isascii() and override.isdigit() and len(override) <= 9:
        return int(override)
    return form.cleaned_data["version"]


@dataclass(frozen=True)
class _Saved:
    """What the tablet is told once a write went through: sheet.js reads ``json``; without
    JavaScript the page shows ``message`` at ``url``."""

    json: dict[str, Any]
    message: str
    url: str


def _sheet_write(
    request: HttpRequest, table: Table, write: Callable[[SheetForm], _Saved]
) -> HttpResponse:
    """The tablet's writes (the draft, the submission) answered one way, as JSON or a page.

    A form that cannot be read, or a sheet the engine refuses, is a 422 with its messages;
    another device's save first is the conflict (409); any other refusal a 400. Nothing
    typed is lost: without JavaScript the page comes back with the entries as typed.
    """
    players, edition = _setting(table)
    form = SheetForm(request.POST, players=players, edition=edition)
    as_json = _wants_json(request)
    if not form.is_valid():
        if as_json:
            return JsonResponse({"status": "invalid", "messages": _form_messages(form)}, status=422)
        return _page(request, table, form=form, status=422)
    try:
        saved = write(form)
    except sheets.SheetConflict as error:
        return _conflict_response(request, table, error, players, edition, as_json=as_json)
    except sheets.SheetInvalid as error:
        version = error.sheet.version if error.sheet else form.cleaned_data["version"]
        if as_json:
            texts = violation_texts(
                violations=error.violations,
                aliases={str(p.pk): p.alias for p in players},
                edition=edition,
            )
            return JsonResponse(
                {
                    "status": "invalid",
                    "messages": texts,
                    "version": version,
                    "submission_key": str(uuid.uuid4()),
                },
                status=422,
            )
        bound = SheetForm(_rebound(request, version=version), players=players, edition=edition)
        return _page(request, table, form=bound, status=422)
    except ValidationError as error:
        if as_json:
            return JsonResponse({"status": "refused", "messages": error.messages}, status=400)
        bound = SheetForm(_rebound(request), players=players, edition=edition)
        return _page(request, table, form=bound, refused=error.messages, status=400)
    if as_json:
        return JsonResponse(saved.json)
    messages.success(request, saved.message)
    return redirect(saved.url)


def _form_messages(form: SheetForm) -> list[str]:
    return [
        f"{form.fields[name].label}: {error}" if name in form.fields else str(error)
        for name, errors in form.errors.items()
        for error in errors
    ]


@sheet_access
@require_POST
@idempotent
def sheet_submit(request: HttpRequest, table: Table) -> HttpResponse:
    """Submit the sheet for signing; idempotent by the tablet's ``submission_key``."""

    def write(form: SheetForm) -> _Saved:
        key = form.cleaned_data.get("submission_key") or uuid.uuid4()
        # Refused as the page's button is disabled: signed, game not over, nothing entered
        # (``sheet_readiness``), then the rules engine.
        sheets.sheet_submit(
            table=table,
            data=form.sheet_data(),
            expected_version=_expected_version(request, form),
            submission_key=key,
            by=acting_user(request),
        )
        url = reverse("banker:banker_sheet", kwargs={"table_pk": table.pk})
        return _Saved(
            json={"status": "submitted", "redirect": url, "key": str(key)},
            message=_("Submitted. Now each player still in the game signs."),
            url=url,
        )

    return _sheet_write(request, table, write)


@sheet_access
@require_POST
def sheet_draft(request: HttpRequest, table: Table) -> HttpResponse:
    """Save what is on screen as the server's draft (sheet.js does it a moment after typing).

    Not an idempotent write: the offline queue never holds a draft (the tablet keeps its own
    copy, and a newer draft supersedes an older), no tablet sends it a key, and a draft
    saved twice is refused by its version like any stale one."""

    def write(form: SheetForm) -> _Saved:
        sheet = sheets.sheet_save_draft(
            table=table,
            data=form.sheet_data(),
            expected_version=_expected_version(request, form),
            by=acting_user(request),
        )
        url = reverse("banker:banker_sheet", kwargs={"table_pk": table.pk})
        editing = sheet.status == TableSheet.Status.SUBMITTED
        return _Saved(
            json={"status": "saved", "version": sheet.version},
            message=_("Draft saved."),
            url=url + ("?edit=1" if editing else ""),
        )

    return _sheet_write(request, table, write)


@sheet_access
@require_POST
@idempotent
def sheet_sign(request: HttpRequest, table: Table) -> HttpResponse:
    """Initials on the sheet: a player (a bankrupt one as they leave), then the banker.

    A bankrupt player signs from the entry page, so the sheet on screen is saved as the
    draft first: the signature is on the numbers the player saw.
    """
    players, edition = _setting(table)
    url = reverse("banker:banker_sheet", kwargs={"table_pk": table.pk})
    pid = request.POST.get("player", "")
    initials = request.POST.get("initials") or request.POST.get(f"initials_{pid}", "")
    form = SignForm({"player": pid or None, "initials": initials})
    if not form.is_valid():
        messages.error(request, _("Write your initials to sign."))
        return redirect(url)
    player = next((p for p in players if p.pk == form.cleaned_data["player"]), None)
    if form.cleaned_data["player"] is not None and player is None:
        raise Http404(_("This player is not seated at this table."))
    try:
        if "version" in request.POST:
            sheet_form = SheetForm(request.POST, players=players, edition=edition)
            if not sheet_form.is_valid():
                return _page(request, table, form=sheet_form, status=422)
            sheets.sheet_save_draft(
                table=table,
                data=sheet_form.sheet_data(),
                expected_version=sheet_form.cleaned_data["version"],
                by=acting_user(request),
            )
        sheet = banker_sheet_get(table=table)
        if sheet is None:
            raise ValidationError(_("Save the sheet before signing it."))
        signatures.sheet_sign(
            sheet=sheet,
            player=player,
            initials=form.cleaned_data["initials"],
            by=acting_user(request),
        )
    except sheets.SheetConflict as error:
        return _conflict_response(request, table, error, players, edition, as_json=False)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(url)
    if player is None:
        messages.success(request, _("Signed by the banker. The sheet is locked."))
    else:
        messages.success(request, _("Signed by %(alias)s.") % {"alias": player.alias})
    return redirect(url)


# --- The organizer: issue and revoke the private link --------------------------------------


@organizer_required
@require_GET
def banker_link_page(request: HttpRequest, table_pk: int) -> HttpResponse:
    """The table's private link and its QR code, for the table card."""
    table = table_or_404(table_pk)
    link = banker_link_active(table=table)
    url = qr = None
    if link is not None:
        url = request.build_absolute_uri(
            reverse("banker:banker_link_open", kwargs={"key": link.key})
        )
        qr = qr_svg(url)
    return render(
        request,
        "scoring/banker/link.html",
        {"table": table, "event": table.round.event, "link": link, "url": url, "qr": qr},
    )


@organizer_required
@require_POST
def banker_link_issue(request: AuthenticatedHttpRequest, table_pk: int) -> HttpResponse:
    table = table_or_404(table_pk)
    banker_links.banker_link_issue(table=table, by=request.user)
    messages.success(request, _("New link issued. The old table card no longer works."))
    return redirect("banker:banker_link", table_pk=table.pk)


@organizer_required
@require_POST
def banker_link_revoke(request: AuthenticatedHttpRequest, table_pk: int) -> HttpResponse:
    table = table_or_404(table_pk)
    try:
        banker_links.banker_link_revoke(table=table, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Link revoked. Tablets that opened it lose the sheet."))
    return redirect("banker:banker_link", table_pk=table.pk)
