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

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.throttle import BANKER_LINK_MISSES_PER_IP, client_ip, throttle_hit
from banker import links as banker_links
from banker.access import link_grant, link_grant_drop, sheet_access
from banker.desk import banker_desk
from banker.sheet_page import sheet_page_opened, sheet_reply
from banker.sheet_report import draft_reply, entry_report, refusal_reply, submission_reply
from clock.pages import STATUS_LABELS
from clock.selectors import wave_clock
from clock.timing import format_remaining
from gameplay.edition import Edition
from scoring.selectors import (
    banker_link_active,
    banker_link_table,
    banker_sheet_get,
    banker_table_players,
)
from scoring.services import signatures
from scoring.services.sheets import sheet_check, sheet_save_draft_answer, sheet_submit_answer
from scoring.sheet_forms import SignForm, sheet_entry
from scoring.sheet_readiness import game_is_over
from seating.selectors import table_seating
from tournament.access import (
    acting_user,
    organizer_required,
)
from tournament.formats import event_edition
from tournament.idempotency import idempotent
from tournament.lookups import table_or_404
from tournament.models import Player, Table
from tournament.qr import qr_svg
from tournament.requests import AuthenticatedHttpRequest

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
            return render(request, "banker/link_refused.html", context, status=429)
        return render(request, "banker/link_refused.html", status=403)
    link_grant(request, table=table, key=key)
    if table.status in (Table.Status.FINISHED, Table.Status.SCORED):
        return redirect("banker:banker_sheet", table_pk=table.pk)
    # While the game is on, the banker needs the table's clock and its last-turn button.
    return redirect("banker:banker_table", table_pk=table.pk)


@login_required
@require_GET
# The current table's aliases and clock, on a tablet the next banker may pick up after
# signing out: kept by no cache, as the table's own pages.
@cache_control(private=True, no_store=True)
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
    return render(request, "banker/tables.html", context)


# --- The sheet page ----------------------------------------------------------------------------
#
# A write goes one way: the form reads the post (``sheet_entry``), the service writes or
# says why not (``sheets``' answer), the report says what the tablet is told
# (``sheet_report``), and the page answers (``sheet_page``). No step calls back up.


def _setting(table: Table) -> tuple[list[Player], Edition]:
    return banker_table_players(table=table), event_edition(event=table.round.event)


@sheet_access
@require_GET
def banker_sheet(request: HttpRequest, table: Table) -> HttpResponse:
    """The score sheet: entry while it is a draft, signatures once submitted, then the result."""
    return sheet_page_opened(request, table)


@sheet_access
@require_POST
def sheet_validate(request: HttpRequest, table: Table) -> HttpResponse:
    """Live validation (htmx): the engine's verdict on what is on screen, saving nothing.

    Answers the summary (net worths, the bank's buildings, the submit button) and, out of
    band, the messages beside every deed and every player, so old ones disappear too.
    """
    players, edition = _setting(table)
    entry = sheet_entry(post=request.POST, players=players, edition=edition)
    report = sheet_check(table=table, data=entry.data) if entry.data is not None else None
    view = entry_report(
        entry=entry,
        report=report,
        players=players,
        edition=edition,
        game_over=game_is_over(table_status=table.status),
    )
    return render(
        request,
        "banker/_report.html",
        {"view": view, "edition": edition, "oob": True, "form": entry.form},
    )


@sheet_access
@require_POST
@idempotent
def sheet_submit(request: HttpRequest, table: Table) -> HttpResponse:
    """Submit the sheet for signing; idempotent by the tablet's ``submission_key``."""
    players, edition = _setting(table)
    entry = sheet_entry(post=request.POST, players=players, edition=edition)
    answer = None
    if entry.data is not None:
        # Refused as the page's button is disabled: signed, game not over, nothing entered
        # (``sheet_readiness``), then the rules engine.
        answer = sheet_submit_answer(
            table=table,
            data=entry.data,
            expected_version=entry.expected_version,
            submission_key=entry.submission_key,
            by=acting_user(request),
        )
    reply = submission_reply(
        table=table, entry=entry, answer=answer, players=players, edition=edition
    )
    return sheet_reply(request, table, entry=entry, reply=reply)


@sheet_access
@require_POST
def sheet_draft(request: HttpRequest, table: Table) -> HttpResponse:
    """Save what is on screen as the server's draft (sheet.js does it a moment after typing).

    Not an idempotent write: the offline queue never holds a draft (the tablet keeps its own
    copy, and a newer draft supersedes an older), no tablet sends it a key, and a draft
    saved twice is refused by its version like any stale one."""
    players, edition = _setting(table)
    entry = sheet_entry(post=request.POST, players=players, edition=edition)
    answer = None
    if entry.data is not None:
        answer = sheet_save_draft_answer(
            table=table,
            data=entry.data,
            expected_version=entry.expected_version,
            by=acting_user(request),
        )
    reply = draft_reply(table=table, entry=entry, answer=answer, players=players, edition=edition)
    return sheet_reply(request, table, entry=entry, reply=reply)


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
    if "version" in request.POST:
        entry = sheet_entry(post=request.POST, players=players, edition=edition)
        answer = None
        if entry.data is not None:
            answer = sheet_save_draft_answer(
                table=table,
                data=entry.data,
                expected_version=entry.version,
                by=acting_user(request),
            )
        # The page without JavaScript, as it always was here: a refusal's answer is a page.
        if answer is None or answer.conflict is not None:
            reply = refusal_reply(
                table=table, entry=entry, answer=answer, players=players, edition=edition
            )
            return sheet_reply(request, table, entry=entry, reply=reply, as_json=False)
        if answer.refused:
            messages.error(request, " ".join(answer.refused))
            return redirect(url)
    try:
        sheet = banker_sheet_get(table=table)
        if sheet is None:
            raise ValidationError(_("Save the sheet before signing it."))
        signatures.sheet_sign(
            sheet=sheet,
            player=player,
            initials=form.cleaned_data["initials"],
            by=acting_user(request),
        )
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
        "banker/link.html",
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
