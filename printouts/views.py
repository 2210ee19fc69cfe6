"""The organizer's printouts: PDFs of the kit's forms, filled from the event.

Every view here is organizer_required: the PDFs carry real names (the public table list
carries aliases only, but it is printed by the organizer and posted in the hall). The PDFs
themselves are built by printouts.render.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from scoring.selectors import event_winner
from tournament.access import organizer_required
from tournament.models import Event, Player, Round, Table

from . import render as printouts
from .pdf import pdf_response
from .selectors import forms_return_to


def _sole_winner(event: Event) -> Player | None:
    """The one player the Winner Notification is for, once the event has one."""
    winner = event_winner(event=event)
    return winner.player if winner else None


@organizer_required
def printouts_index(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    rounds = event.rounds.prefetch_related("tables__seats__player", "waves").order_by("number")
    context = {
        "event": event,
        "rounds": rounds,
        "winner": _sole_winner(event),
        "return_to": forms_return_to(event),
    }
    return render(request, "printouts/index.html", context)


@organizer_required
def blank_score_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    pdf = printouts.blank_score_sheet_pdf(event=event)
    return pdf_response(pdf, f"event-{event.pk}-score-sheet.pdf")


@organizer_required
def round_score_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    round_ = get_object_or_404(Round, event=event, number=number)
    pdf = printouts.round_score_sheets_pdf(event=event, round_=round_)
    return pdf_response(pdf, f"round-{number}-score-sheets.pdf")


@organizer_required
def table_score_sheets(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    table = get_object_or_404(
        Table.objects.select_related("round"), pk=table_pk, round__event=event
    )
    pdf = printouts.table_score_sheets_pdf(event=event, table=table)
    filename = f"round-{table.round.number}-table-{table.number}-score-sheets.pdf"
    return pdf_response(pdf, filename)


def _assignments(request: HttpRequest, pk: int, number: int, *, public: bool) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    round_ = get_object_or_404(Round, event=event, number=number)
    wave_number = request.GET.get("wave")
    # ASCII digits only: int() refuses "²" and numbers longer than 4300 digits.
    is_number = wave_number and wave_number.isascii() and wave_number.isdigit()
    wave_number = int(wave_number) if is_number and len(wave_number) <= 9 else None
    pdf = printouts.assignments_pdf(
        event=event, round_=round_, public=public, wave_number=wave_number
    )
    kind = "public" if public else "organizer"
    suffix = f"-wave-{wave_number}" if wave_number else ""
    return pdf_response(pdf, f"round-{number}{suffix}-assignments-{kind}.pdf")


@organizer_required
def assignments_organizer(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Every seat of the round with the player's real name and alias (not to be posted)."""
    return _assignments(request, pk, number, public=False)


@organizer_required
def assignments_public(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The copy to post in the hall: aliases only, as the championship rules require."""
    return _assignments(request, pk, number, public=True)


@organizer_required
def event_registration_form(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    pdf = printouts.event_registration_pdf(event=event)
    return pdf_response(pdf, f"event-{event.pk}-event-registration.pdf")


@organizer_required
def participant_registration_form(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    pdf = printouts.participant_registration_pdf(event=event)
    return pdf_response(pdf, f"event-{event.pk}-participant-registration.pdf")


@organizer_required
def winner_notification_form(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """The kit's form for the event's winner; for anyone else, or before there is a
    winner, a page that says why instead of a form with empty totals."""
    event = get_object_or_404(Event, pk=pk)
    player = get_object_or_404(Player, pk=player_pk, event=event)
    winner = _sole_winner(event)
    if winner is None or winner.pk != player.pk:
        context = {"event": event, "player": player, "winner": winner}
        status = 409 if winner is None else 404
        return render(request, "printouts/no_winner_form.html", context, status=status)
    pdf = printouts.winner_notification_pdf(event=event, player=player)
    return pdf_response(pdf, f"event-{event.pk}-winner-{player.pk}.pdf")


@organizer_required
def table_cards(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    round_ = get_object_or_404(Round, event=event, number=number)
    pdf = printouts.table_cards_pdf(
        event=event, round_=round_, absolute_url=request.build_absolute_uri
    )
    return pdf_response(pdf, f"round-{number}-table-cards.pdf")


@organizer_required
def poster(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    pdf = printouts.poster_pdf(event=event, absolute_url=request.build_absolute_uri)
    return pdf_response(pdf, f"event-{event.pk}-poster.pdf")
