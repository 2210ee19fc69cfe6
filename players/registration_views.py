"""Registration pages: the public form, the organizer's door entry, CSV import and export.

Views stay thin: they pick the form, call ``player_register`` or the CSV services, and put
any ``ValidationError`` back on the form so nothing the person typed is lost.
"""

from __future__ import annotations

import datetime
from dataclasses import replace

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from accounts.throttle import client_ip, registration_post_throttled
from jobs.models import Job
from jobs.services import job_retry, jobs_recover
from mail.services import mail_unavailable
from players.csv_columns import IMPORT_COLUMNS, required_columns
from players.csv_io import (
    MAX_ERRORS_SHOWN,
    ImportResult,
    import_registrations,
    write_registrations_csv,
)
from players.csv_template import write_import_template
from players.registration_forms import ImportForm, OnTheDayForm, RegistrationForm
from players.services import player_register, registration_is_open, registration_place
from players.tasks import IMPORT_JOB_LINES, IMPORT_KIND, event_job_scope, import_job_submit
from tournament.access import organizer_required
from tournament.lookups import event_or_404
from tournament.models import Event, Player
from tournament.requests import HtmxHttpRequest

# Session key: {event pk: player pk}, so the confirmation page needs nothing in the URL.
SESSION_KEY = "registered_players"


def _submit(
    form: RegistrationForm, *, event: Event, source: str, language: str = ""
) -> Player | None:
    """Register what a valid form holds; on refusal put the reasons on the form.

    ``language``: the page's, for the player's own emails (self-registration only: at the
    door the page speaks the organizer's language, not the player's)."""
    registration = replace(form.registration(), language=language)
    try:
        return player_register(event=event, registration=registration, source=source)
    except ValidationError as error:
        form.add_validation_error(error)
        return None


def _player_list_url(event: Event) -> str:
    # The player list is a colleague's page; until its route exists, use its agreed path.
    try:
        return reverse("players:player_list", kwargs={"pk": event.pk})
    except NoReverseMatch:
        return f"/organizer/events/{event.pk}/players/"


def register(request: HttpRequest, pk: int) -> HttpResponse:
    """The public Participant Registration Form, while the event's window is open."""
    event = event_or_404(pk)
    if not registration_is_open(event=event):
        not_yet = bool(event.registration_opens and timezone.now() < event.registration_opens)
        return render(
            request,
            "players/registration/closed.html",
            {"event": event, "not_yet_open": not_yet},
        )
    status = 200
    throttled = False
    if request.method == "POST":
        if registration_post_throttled(event_id=event.pk, ip=client_ip(request)):
            # Show what they typed, unvalidated, so nothing is lost while they wait.
            form = RegistrationForm(event=event, initial=request.POST.dict())
            throttled, status = True, 429
        else:
            form = RegistrationForm(request.POST, event=event)
            if form.is_valid():
                player = _submit(
                    form,
                    event=event,
                    source=Player.Source.SELF,
                    language=translation.get_language() or "",
                )
                if player is not None:
                    done = request.session.get(SESSION_KEY, {})
                    done[str(event.pk)] = player.pk
                    request.session[SESSION_KEY] = done
                    return redirect("players:register_done", pk=event.pk)
    else:
        form = RegistrationForm(event=event)
    return render(
        request,
        "players/registration/register.html",
        {
            "event": event,
            "form": form,
            "throttled": throttled,
            "place": registration_place(event=event),
        },
        status=status,
    )


def register_done(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirmation for the person who just registered in this browser: alias and status."""
    event = event_or_404(pk)
    player_pk = request.session.get(SESSION_KEY, {}).get(str(event.pk))
    player = (
        Player.objects.select_related("event").filter(event=event, pk=player_pk).first()
        if player_pk
        else None
    )
    if player is None:
        return redirect("players:register", pk=event.pk)
    return render(request, "players/registration/done.html", {"event": event, "player": player})


@organizer_required
def player_add(request: HttpRequest, pk: int) -> HttpResponse:
    """On-the-day entry by the organizer: same rules, but whatever the window says."""
    event = event_or_404(pk)
    if request.method == "POST":
        form = OnTheDayForm(request.POST, event=event)
        if form.is_valid():
            player = _submit(form, event=event, source=Player.Source.ON_THE_DAY)
            if player is not None:
                messages.success(request, _added_text(player))
                return redirect(_player_list_url(event))
    else:
        form = OnTheDayForm(event=event)
    return render(
        request,
        "players/registration/player_add.html",
        {
            "event": event,
            "form": form,
            "player_list_url": _player_list_url(event),
            "place": registration_place(event=event),
            "mail_note": mail_unavailable(),
        },
    )


def _added_text(player: Player) -> str:
    values = {
        "name": player.full_name,
        "alias": player.alias,
        "n": player.alternate_position or player.waiting_position,
    }
    if player.status == Player.Status.ALTERNATE:
        return _("%(name)s is registered as %(alias)s, alternate number %(n)s.") % values
    if player.status == Player.Status.WAITING:
        return _("%(name)s is registered as %(alias)s, number %(n)s on the waiting list.") % values
    return _("%(name)s is registered as %(alias)s.") % values


@organizer_required
def player_import(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Upload or paste a CSV; the page lists every bad line, or how many were imported.

    An import of more than IMPORT_JOB_LINES lines runs as a background job: the page (with
    ``?job=``) shows its progress, then its outcome as for a small one.
    """
    event = event_or_404(pk)
    if request.GET.get("job"):
        return _import_job_page(request, event)
    result = None
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            text = form.cleaned_data["csv_text"]
            send = form.cleaned_data["send_confirmations"]
            if len(text.splitlines()) > IMPORT_JOB_LINES:
                pasted = not form.cleaned_data.get("file")
                job = import_job_submit(
                    event=event, text=text, pasted=pasted, user=request.user, send=send
                )
                return redirect(_import_job_url(event, job))
            before = Player.objects.filter(event=event).order_by("-pk").values_list("pk")[:1]
            last_pk = before[0][0] if before else 0
            result = import_registrations(event=event, text=text, send_confirmations=send)
            if result.ok:
                form = ImportForm()
                held = imported_not_seated(event=event, after_pk=last_pk)
                return _import_page(request, event, form=form, result=result, held=held)
            upload = form.cleaned_data.get("file")
            if upload:
                # The file stays chosen: its text comes back in the box, to correct or send
                # again as it is (a browser never re-selects a file by itself).
                form = ImportForm(initial={"text": text})
                messages.info(
                    request,
                    _("The content of %(name)s is kept in the box below.") % {"name": upload.name},
                )
    else:
        form = ImportForm()
    return _import_page(request, event, form=form, result=result)


def imported_not_seated(*, event: Event, after_pk: int) -> list[Player]:
    """Those an import just registered who became alternates or joined the waiting list."""
    return list(
        Player.objects.filter(
            event=event,
            pk__gt=after_pk,
            status__in=(Player.Status.ALTERNATE, Player.Status.WAITING),
        ).order_by("status", "alternate_position", "waiting_position")
    )


@organizer_required
@require_GET
def player_import_template(request: HttpRequest, pk: int) -> HttpResponse:
    """The columns the import reads, with one example line, as a CSV to fill in."""
    event = event_or_404(pk)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-import-template.csv"'
    write_import_template(event=event, stream=response)
    return response


def _import_page(
    request: HttpRequest,
    event: Event,
    *,
    form: ImportForm,
    result: ImportResult | None,
    error_count: int = 0,
    job: Job | None = None,
    held: list[Player] | None = None,
) -> HttpResponse:
    errors = result.errors if result else []
    return render(
        request,
        "players/registration/import.html",
        {
            "event": event,
            "form": form,
            "result": result,
            "errors_shown": errors[:MAX_ERRORS_SHOWN],
            # A job keeps only the first problems, and how many there were.
            "errors_more": max(0, max(error_count, len(errors)) - MAX_ERRORS_SHOWN),
            "columns": IMPORT_COLUMNS,
            "required": required_columns(event=event),
            # The date order this organizer's language reads, named as the language writes it.
            "date_example": date_format(datetime.date(1990, 5, 25), "SHORT_DATE_FORMAT"),
            "player_list_url": _player_list_url(event),
            "job": job,
            "held": held or [],
            "mail_note": mail_unavailable(),
        },
    )


def _import_job_url(event: Event, job: Job) -> str:
    return f"{reverse('players:player_import', kwargs={'pk': event.pk})}?job={job.pk}"


def _import_job(request: HttpRequest, event: Event) -> Job:
    scope = event_job_scope(event)
    jobs_recover(scope=scope)
    job_pk = request.GET.get("job", "") or request.POST.get("job", "")
    if not (job_pk.isascii() and job_pk.isdigit()) or len(job_pk) > 18:
        raise Http404
    return get_object_or_404(Job, pk=int(job_pk), scope=scope, kind=IMPORT_KIND)


def _import_job_page(request: HtmxHttpRequest, event: Event) -> HttpResponse:
    """A big import's progress (polled by htmx), then its outcome, as a small one shows it."""
    job = _import_job(request, event)
    if request.htmx:
        if job.is_finished:
            return HttpResponseClientRefresh()  # the whole page shows the outcome
        context = {"event": event, "job": job}
        return render(request, "players/registration/_import_job.html", context)
    if job.status != Job.Status.DONE:
        return _import_page(request, event, form=ImportForm(), result=None, job=job)
    outcome = job.result or {}  # a finished import's counts
    result = ImportResult(
        created=outcome["created"],
        skipped_existing=outcome["skipped"],
        errors=[(line, message) for line, message in outcome["errors"]],
    )
    form = ImportForm()
    if not result.ok and job.params.get("pasted"):
        form = ImportForm(initial={"text": job.params["text"]})
    return _import_page(
        request, event, form=form, result=result, error_count=outcome["error_count"], job=job
    )


@organizer_required
@require_POST
def player_import_retry(request: HttpRequest, pk: int) -> HttpResponse:
    """Run a big import that failed (not one refused for its lines) again."""
    event = event_or_404(pk)
    try:
        job = job_retry(job=_import_job(request, event))
    except Http404:
        return redirect("players:player_import", pk=event.pk)  # nothing to run again
    return redirect(_import_job_url(event, job))


@organizer_required
def player_export(request: HttpRequest, pk: int) -> HttpResponse:
    """Every registration as a CSV download, in a shape the import accepts back."""
    event = event_or_404(pk)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-registrations.csv"'
    write_registrations_csv(event=event, stream=response)
    return response
