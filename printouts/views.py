"""The organizer's printouts: PDFs of the kit's forms, filled from the event.

Every view here is organizer_required: the PDFs carry real names (the public table list
carries aliases only, but it is printed by the organizer and posted in the hall).
"""

from __future__ import annotations

import segno
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from scoring.models import BankerLink, SheetSignature, TableSheet
from tournament.access import organizer_required
from tournament.formats import event_edition
from tournament.models import Event, Player, Round, Seat, Table
from tournament.selectors import table_seating

from .pdf import page_size, pdf_response, render_pdf
from .sheets import blank_page, filled_page


def _context(event: Event, footer: str, **extra) -> dict:
    return {"event": event, "page_size": page_size(event), "footer": footer, **extra}


def blank_round_pages(event: Event, round_: Round) -> list:
    edition = event_edition(event=event)
    seats = (
        Seat.objects.filter(round=round_)
        .select_related("table", "player")
        .order_by("table__number", "position")
    )
    return [
        blank_page(edition, player=seat.player, seat=seat, table=seat.table, round=round_)
        for seat in seats
    ]


def filled_table_pages(event: Event, table: Table) -> list:
    edition = event_edition(event=event)
    sheet = TableSheet.objects.filter(table=table).first()
    data = sheet.data if sheet else {}
    signatures = list(sheet.signatures.all()) if sheet else []
    banker = next((s.initials for s in signatures if s.role == SheetSignature.Role.BANKER), "")
    by_player = {s.player_id: s.initials for s in signatures if s.player_id}
    extras = {}
    if sheet and sheet.approved_at:
        extras = {"approved": sheet.approved_at, "approved_by": sheet.approved_by or "a judge"}
    pages = []
    for seat in table.seats.select_related("player").order_by("position"):
        page = filled_page(
            edition,
            data,
            str(seat.player_id),
            player=seat.player,
            seat=seat,
            table=table,
            round=table.round,
        )
        page.signature = by_player.get(seat.player_id, "")
        page.banker_signature = banker
        page.extras = extras
        pages.append(page)
    return pages


@organizer_required
def printouts_index(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    rounds = event.rounds.prefetch_related("tables__seats__player", "waves").order_by("number")
    players = event.players.order_by("last_name", "first_name")
    return render(
        request,
        "printouts/index.html",
        {"event": event, "rounds": rounds, "players": players},
    )


@organizer_required
def blank_score_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """One blank sheet with an empty header, to photocopy."""
    event = get_object_or_404(Event, pk=pk)
    sheets = [blank_page(event_edition(event=event))]
    pdf = render_pdf("printouts/score_sheets.html", _context(event, "Score Sheet", sheets=sheets))
    return pdf_response(pdf, f"event-{event.pk}-score-sheet.pdf")


@organizer_required
def round_score_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Every blank sheet of a round, one per seat, in table and seat order."""
    event = get_object_or_404(Event, pk=pk)
    round_ = get_object_or_404(Round, event=event, number=number)
    sheets = blank_round_pages(event, round_)
    context = _context(event, f"Round {round_.number} score sheets", sheets=sheets)
    return pdf_response(
        render_pdf("printouts/score_sheets.html", context), f"round-{number}-score-sheets.pdf"
    )


@organizer_required
def table_score_sheets(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    """The table's filled sheets: what the banker entered, with totals and signatures."""
    event = get_object_or_404(Event, pk=pk)
    table = get_object_or_404(
        Table.objects.select_related("round"), pk=table_pk, round__event=event
    )
    sheets = filled_table_pages(event, table)
    context = _context(event, f"Round {table.round.number} table {table.number}", sheets=sheets)
    filename = f"round-{table.round.number}-table-{table.number}-score-sheets.pdf"
    return pdf_response(render_pdf("printouts/score_sheets.html", context), filename)


def assignment_waves(round_: Round, wave_number: int | None = None) -> list:
    """The round's waves, each with its seats in table and seat order."""
    waves = list(round_.waves.order_by("number"))
    if wave_number is not None:
        waves = [wave for wave in waves if wave.number == wave_number]
    for wave in waves:
        wave.seats = list(
            Seat.objects.filter(table__wave=wave)
            .select_related("table", "player")
            .order_by("table__number", "position")
        )
    return waves


def _assignments(request: HttpRequest, pk: int, number: int, *, public: bool) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    round_ = get_object_or_404(Round, event=event, number=number)
    wave_number = request.GET.get("wave")
    # ASCII digits only: int() refuses "²" and numbers longer than 4300 digits.
    is_number = wave_number and wave_number.isascii() and wave_number.isdigit()
    wave_number = int(wave_number) if is_number and len(wave_number) <= 9 else None
    waves = assignment_waves(round_, wave_number)
    context = _context(
        event,
        f"Round {round_.number} table assignments",
        round=round_,
        waves=waves,
        wave_count=round_.waves.count(),
        public=public,
    )
    kind = "public" if public else "organizer"
    suffix = f"-wave-{wave_number}" if wave_number else ""
    filename = f"round-{number}{suffix}-assignments-{kind}.pdf"
    return pdf_response(render_pdf("printouts/assignments.html", context), filename)


@organizer_required
def assignments_organizer(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Every seat of the round with the player's real name and alias (not to be posted)."""
    return _assignments(request, pk, number, public=False)


@organizer_required
def assignments_public(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The copy to post in the hall: aliases only, as the championship rules require."""
    return _assignments(request, pk, number, public=True)


# --- the kit's forms -----------------------------------------------------------------------

PARTICIPANTS_PER_SHEET = 12  # the kit's form has twelve lines
CONSENT = (
    "I, the undersigned, wish to register for this MONOPOLY Game Tournament. I understand "
    "that the game's publisher is not responsible for any prizes promised by the "
    "organization running this tournament. I give the organization and the game's "
    "publisher the right to use, without compensation, my name and any photographs of me "
    "taken at the tournament for publicity and promotional purposes."
)


def postal_address(player) -> str:
    parts = [
        player.address,
        player.city,
        " ".join(p for p in (player.region, player.postal_code) if p),
    ]
    return ", ".join(part for part in parts if part)


def participant_pages(players: list, per_page: int = PARTICIPANTS_PER_SHEET) -> list[dict]:
    """The players in sheets of ``per_page`` lines; the last sheet is padded with blank
    lines for walk-ins, and no players at all still gives one blank sheet."""
    rows = [
        {"number": number, "name": player.full_name, "address": postal_address(player)}
        for number, player in enumerate(players, start=1)
    ]
    while not rows or len(rows) % per_page:
        rows.append({"number": len(rows) + 1, "name": "", "address": ""})
    return [
        {"number": index // per_page + 1, "rows": rows[index : index + per_page]}
        for index in range(0, len(rows), per_page)
    ]


@organizer_required
def event_registration_form(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    context = _context(event, "Event Registration Form", edition=event_edition(event=event))
    return pdf_response(
        render_pdf("printouts/event_registration.html", context),
        f"event-{event.pk}-event-registration.pdf",
    )


@organizer_required
def participant_registration_form(request: HttpRequest, pk: int) -> HttpResponse:
    """Every registered player (alternates too, not withdrawn ones) to sign on the day."""
    event = get_object_or_404(Event, pk=pk)
    players = list(registered_players(event))
    context = _context(
        event,
        "Participant Registration Form",
        pages=participant_pages(players),
        player_count=len(players),
        consent=CONSENT,
    )
    return pdf_response(
        render_pdf("printouts/participant_registration.html", context),
        f"event-{event.pk}-participant-registration.pdf",
    )


def registered_players(event: Event):
    return event.players.exclude(status=Player.Status.WITHDRAWN).order_by(
        "last_name", "first_name", "pk"
    )


@organizer_required
def winner_notification_form(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """The form filled for ``player``, with their filled score sheets of every round."""
    event = get_object_or_404(Event, pk=pk)
    player = get_object_or_404(Player, pk=player_pk, event=event)
    edition = event_edition(event=event)
    sheets = []
    seats = player.seats.select_related("table__round").order_by("round__number")
    for seat in seats:
        sheets += [
            page for page in filled_table_pages(event, seat.table) if page.player.pk == player.pk
        ]
    money_raised = ""
    if event.money_raised is not None:
        money_raised = f"{edition.currency_symbol}{event.money_raised:,.2f}"
    context = _context(
        event,
        "Winner Notification Form",
        player=player,
        address=postal_address(player),
        sheets=sheets,
        money_raised=money_raised,
    )
    return pdf_response(
        render_pdf("printouts/winner_notification.html", context),
        f"event-{event.pk}-winner-{player.pk}.pdf",
    )


@organizer_required
def winner_notification_choose(request: HttpRequest, pk: int) -> HttpResponse:
    """The index page's player picker (a GET form) sends here."""
    event = get_object_or_404(Event, pk=pk)
    player_pk = request.GET.get("player", "")
    if not (player_pk.isascii() and player_pk.isdigit()) or len(player_pk) > 18:
        return redirect("printouts:index", pk=event.pk)
    return redirect("printouts:winner_notification", pk=event.pk, player_pk=int(player_pk))


# --- table cards and the poster --------------------------------------------------------------


def qr_data_uri(url: str) -> str:
    """The URL as a QR code in an SVG data URI; WeasyPrint draws it as vectors."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2)


@organizer_required
def table_cards(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One card per table with its number and the QR code of its banker link in force.

    Printing never issues a link (a GET must not revoke a card already on a table): tables
    without a link get a card that says so.
    """
    event = get_object_or_404(Event, pk=pk)
    round_ = get_object_or_404(Round, event=event, number=number)
    cards = []
    for table in round_.tables.select_related("wave").order_by("number"):
        link = BankerLink.objects.filter(table=table, revoked_at__isnull=True).first()
        # 002 TOKEN ASSIGNMENT & GAME START: the order of play, once rolled.
        play_order = [entry.player.alias for entry in table_seating(table=table).play_order]
        card = {"table": table, "url": "", "qr": "", "play_order": play_order}
        if link:
            card["url"] = request.build_absolute_uri(
                reverse("scoring:banker_link_open", kwargs={"key": link.key})
            )
            card["qr"] = qr_data_uri(card["url"])
        cards.append(card)
    context = _context(
        event,
        f"Round {round_.number} table cards",
        round=round_,
        cards=cards,
        wave_count=round_.waves.count(),
    )
    return pdf_response(
        render_pdf("printouts/table_cards.html", context), f"round-{number}-table-cards.pdf"
    )


@organizer_required
def poster(request: HttpRequest, pk: int) -> HttpResponse:
    """A poster for the hall with a QR code to the event's public page."""
    event = get_object_or_404(Event, pk=pk)
    url = request.build_absolute_uri(event.get_absolute_url())
    context = _context(event, "", url=url, qr=qr_data_uri(url))
    return pdf_response(
        render_pdf("printouts/poster.html", context), f"event-{event.pk}-poster.pdf"
    )
