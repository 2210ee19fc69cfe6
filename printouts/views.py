"""The organizer's printouts: PDFs of the kit's forms, filled from the event.

Every view here is organizer_required: the PDFs carry real names (the public table list
carries aliases only, but it is printed by the organizer and posted in the hall). The PDFs
themselves are built by printouts.render; those that can take a while (a round's sheets and
table cards, assignments, the participant forms, the winner pack) through a background job:
the link serves the file built from the same data if there is one, and otherwise shows the
job's progress until the file can be downloaded.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from jobs.models import Job
from jobs.selectors import jobs_latest
from jobs.services import job_retry, jobs_recover
from jobs.storage import job_storage
from printouts.catalog import FORMS, PrintRequest, renderers
from printouts.selectors import forms_return_to
from printouts.services import KIND_PREFIX, printout_job, printouts_scope
from scoring.selectors import event_winner
from tournament.access import organizer_required
from tournament.models import Event, Player, Round, Table
from tournament.requests import HtmxHttpRequest


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    """A PDF shown in the browser's viewer, saved under ``filename``. (Here, not beside the
    renderer: the views module is imported with the URLs, WeasyPrint only when printing.)"""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


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
        **_jobs_context(event),
    }
    return render(request, "printouts/index.html", context)


def _jobs_context(event: Event) -> dict:
    scope = printouts_scope(event)
    jobs_recover(scope=scope)
    jobs = [job for job in jobs_latest(scope=scope) if job.kind.startswith(KIND_PREFIX)]
    return {"jobs": jobs, "jobs_busy": any(not job.is_finished for job in jobs)}


@organizer_required
def jobs_panel(request: HttpRequest, pk: int) -> HttpResponse:
    """The index page's list of printouts being built and ready, polled while one is busy."""
    event = get_object_or_404(Event, pk=pk)
    return render(request, "printouts/_jobs.html", {"event": event, **_jobs_context(event)})


def _printout(request: HttpRequest, event: Event, form_name: str, **print_args) -> HttpResponse:
    """The file if it is built from the data as it is now, else the job's progress page."""
    form = FORMS[form_name]
    if form.needs_base_url:
        print_args["base_url"] = settings.BOARDWALK_SITE_URL or request.build_absolute_uri("/")
    job = printout_job(
        form=form, request=PrintRequest(event=event, **print_args), user=request.user
    )
    if job.status == Job.Status.DONE:
        return _download(job)
    return redirect("printouts:job", pk=event.pk, job_pk=job.pk)


def _download(job: Job) -> HttpResponse:
    # Read whole, as the PDFs built in the request are: a round of 2,000 sheets is ~1 MB.
    with job_storage().open(job.file_name) as stored:
        return pdf_response(stored.read(), job.download_name)


def _event_job(event: Event, job_pk: int) -> Job:
    return get_object_or_404(
        Job, pk=job_pk, scope=printouts_scope(event), kind__startswith=KIND_PREFIX
    )


@organizer_required
def job_page(request: HtmxHttpRequest, pk: int, job_pk: int) -> HttpResponse:
    """A printout being built: its progress (htmx polls this page), then the download."""
    event = get_object_or_404(Event, pk=pk)
    jobs_recover(scope=printouts_scope(event))
    job = _event_job(event, job_pk)
    template = "printouts/_job.html" if request.htmx else "printouts/job.html"
    return render(request, template, {"event": event, "job": job})


@organizer_required
def job_download(request: HttpRequest, pk: int, job_pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    job = _event_job(event, job_pk)
    if job.status != Job.Status.DONE or not job_storage().exists(job.file_name):
        return redirect("printouts:job", pk=event.pk, job_pk=job.pk)
    return _download(job)


@organizer_required
@require_POST
def job_try_again(request: HttpRequest, pk: int, job_pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    job_retry(job=_event_job(event, job_pk))
    return redirect("printouts:job", pk=event.pk, job_pk=job_pk)


@organizer_required
def blank_score_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    pdf = renderers().blank_score_sheet_pdf(event=event)
    return pdf_response(pdf, f"event-{event.pk}-score-sheet.pdf")


@organizer_required
def round_score_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    round_ = get_object_or_404(Round, event=event, number=number)
    return _printout(request, event, "score-sheets", round=round_)


@organizer_required
def table_score_sheets(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    table = get_object_or_404(
        Table.objects.select_related("round"), pk=table_pk, round__event=event
    )
    pdf = renderers().table_score_sheets_pdf(event=event, table=table)
    filename = f"round-{table.round.number}-table-{table.number}-score-sheets.pdf"
    return pdf_response(pdf, filename)


def _assignments(request: HttpRequest, pk: int, number: int, *, public: bool) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    round_ = get_object_or_404(Round, event=event, number=number)
    wave = request.GET.get("wave")
    # ASCII digits only: int() refuses "²" and numbers longer than 4300 digits.
    is_number = wave and wave.isascii() and wave.isdigit()
    wave_number = int(wave) if wave and is_number and len(wave) <= 9 else None
    return _printout(request, event, "assignments", round=round_, public=public, wave=wave_number)


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
    return _at_once(request, pk, "event-registration")


@organizer_required
def participant_registration_form(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    return _printout(request, event, "participant-registration")


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
    return _printout(request, event, "winner", player=player)


@organizer_required
def table_cards(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    round_ = get_object_or_404(Round, event=event, number=number)
    return _printout(request, event, "table-cards", round=round_)


@organizer_required
def poster(request: HttpRequest, pk: int) -> HttpResponse:
    return _at_once(request, pk, "poster")


def _at_once(request: HttpRequest, pk: int, form_name: str) -> HttpResponse:
    """A one-page form, built in the request (no worker needed) by the jobs' own builder."""
    event = get_object_or_404(Event, pk=pk)
    form = FORMS[form_name]
    base_url = settings.BOARDWALK_SITE_URL or request.build_absolute_uri("/")
    print_request = PrintRequest(event=event, base_url=base_url if form.needs_base_url else "")
    return pdf_response(form.build(print_request, None), form.filename(print_request))
