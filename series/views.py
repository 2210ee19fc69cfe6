"""The organizer's series pages: thin, the services decide (series/services.py)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from series import selectors, services
from series.forms import (
    AddEventForm,
    DeadlineForm,
    FinalsForm,
    InviteForm,
    PlacesForm,
    ReasonlessConfirmForm,
    ReleaseForm,
    SeriesForm,
)
from series.invitation_mail import invitations_unavailable, remind_at
from series.models import DIVISIONS, Entrant, Series, SeriesEvent, SeriesPerson
from tournament.access import organizer_required
from tournament.models import Player
from tournament.requests import AuthenticatedHttpRequest


def _series(pk: int) -> Series:
    return get_object_or_404(Series, pk=pk)


def _division(key: str) -> str:
    if key not in dict(DIVISIONS):
        raise Http404(_("No such final."))
    return key


def _errors(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


def _home(series: Series, anchor: str = "") -> HttpResponse:
    url = reverse("series:detail", kwargs={"series_pk": series.pk})
    return redirect(f"{url}#{anchor}" if anchor else url)


@organizer_required
def series_list(request: HttpRequest) -> HttpResponse:
    """Every series, and a new one."""
    form = SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            series = services.series_create(**form.cleaned_data)
        except ValidationError as error:
            _errors(request, error)
        else:
            messages.success(request, _("The series is created. Add its regionals."))
            return _home(series)
    return render(
        request,
        "series/list.html",
        {"form": form, "series_list": Series.objects.select_related("finals", "junior_finals")},
    )


@organizer_required
def series_detail(request: HttpRequest, series_pk: int) -> HttpResponse:
    """The series overview: events, their state, qualifiers, answers, confirmations."""
    series = _series(series_pk)
    divisions = selectors.series_overview(series=series)
    return render(
        request,
        "series/detail.html",
        {
            "series": series,
            # Each final with the form that chooses its event (until it is confirmed).
            "divisions": [
                (
                    division,
                    FinalsForm(
                        series=series,
                        division=division.key,
                        initial={"event": division.finals},
                    ),
                )
                for division in divisions
            ],
            "add_form": AddEventForm(series=series),
            "deadline_form": DeadlineForm(
                initial={"answers_due": series.answers_due, "reminder_days": series.reminder_days}
            ),
            "invitations_note": invitations_unavailable(series=series),
            "remind_at": remind_at(series),
        },
    )


@organizer_required
@require_POST
def add_event(request: HttpRequest, series_pk: int) -> HttpResponse:
    series = _series(series_pk)
    form = AddEventForm(request.POST, series=series)
    if not form.is_valid():
        messages.error(request, _("Choose a championship or junior event not in a series yet."))
        return _home(series)
    try:
        member = services.series_add_event(
            series=series, event=form.cleaned_data["event"], places=form.cleaned_data["places"]
        )
    except ValidationError as error:
        _errors(request, error)
    else:
        name = member.event.name
        messages.success(request, _("%(event)s is a regional of the series.") % {"event": name})
    return _home(series)


@organizer_required
@require_POST
def places(request: HttpRequest, series_pk: int, member_pk: int) -> HttpResponse:
    series = _series(series_pk)
    member = get_object_or_404(SeriesEvent, pk=member_pk, series=series)
    form = PlacesForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("A regional sends 1 to 50 players."))
        return _home(series)
    try:
        services.series_event_set_places(member=member, places=form.cleaned_data["places"])
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(request, _("The number of places is saved."))
    return _home(series)


@organizer_required
@require_POST
def qualify(request: AuthenticatedHttpRequest, series_pk: int, division: str) -> HttpResponse:
    """Fix the qualifiers again (after the head judge ordered a tie at a cut)."""
    series, division = _series(series_pk), _division(division)
    waiting = services.qualifiers_fix(series=series, division=division, by=request.user)
    if waiting:
        messages.warning(
            request,
            _("A tie at the cut waits for the head judge: %(events)s.")
            % {"events": ", ".join(m.event.name for m in waiting)},
        )
    else:
        messages.success(request, _("The qualifiers are up to date."))
    return _home(series, division)


def _entrant(series: Series, pk: int) -> Entrant:
    return get_object_or_404(Entrant.objects.select_related("source__event"), pk=pk, series=series)


@organizer_required
@require_POST
def accept(request: AuthenticatedHttpRequest, series_pk: int, entrant_pk: int) -> HttpResponse:
    series = _series(series_pk)
    entrant = _entrant(series, entrant_pk)
    try:
        services.entrant_respond(entrant=entrant, accept=True, by=request.user)
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(request, _("%(alias)s accepted.") % {"alias": entrant.alias})
    return _home(series, entrant.division)


@organizer_required
def decline(request: AuthenticatedHttpRequest, series_pk: int, entrant_pk: int) -> HttpResponse:
    """Declining gives the place away for good: asked first, then done."""
    series = _series(series_pk)
    entrant = _entrant(series, entrant_pk)
    if request.method == "POST":
        try:
            services.entrant_respond(entrant=entrant, accept=False, by=request.user)
        except ValidationError as error:
            _errors(request, error)
        else:
            message = _("%(alias)s declined; the place passed on.")
            messages.success(request, message % {"alias": entrant.alias})
        return _home(series, entrant.division)
    return render(request, "series/decline.html", {"series": series, "entrant": entrant})


@organizer_required
def invite(request: AuthenticatedHttpRequest, series_pk: int, division: str) -> HttpResponse:
    """An invited entrant, with the reason shown beside them."""
    series, division = _series(series_pk), _division(division)
    form = InviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            entrant = services.entrant_invite(
                series=series, division=division, by=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(alias)s is invited.") % {"alias": entrant.alias})
            return _home(series, division)
    return render(
        request,
        "series/invite.html",
        {"series": series, "division": division, "label": dict(DIVISIONS)[division], "form": form},
    )


@organizer_required
def alternates(request: AuthenticatedHttpRequest, series_pk: int, division: str) -> HttpResponse:
    """The regionals' next-best players; the organizer numbers the alternates in order."""
    series, division = _series(series_pk), _division(division)
    candidates = selectors.alternate_candidates(series=series, division=division)
    if request.method == "POST":
        chosen = []
        for candidate in candidates:
            value = request.POST.get(f"position-{candidate.player.pk}", "").strip()
            if value.isascii() and value.isdigit() and len(value) <= 6 and int(value) > 0:
                chosen.append((int(value), candidate.player.pk))
        try:
            made = services.alternates_confirm(
                series=series,
                division=division,
                order=[pk for _p, pk in sorted(chosen)],
                by=request.user,
            )
        except ValidationError as error:
            _errors(request, error)
        else:
            message = ngettext(
                "%(count)s alternate in the confirmed order.",
                "%(count)s alternates in the confirmed order.",
                len(made),
            )
            messages.success(request, message % {"count": len(made)})
            return _home(series, division)
    finals = selectors.series_finals(series=series, division=division)
    wanted = finals.alternates if finals else 3
    return render(
        request,
        "series/alternates.html",
        {
            "series": series,
            "division": division,
            "label": dict(DIVISIONS)[division],
            "rows": [(c, i + 1 if i < wanted else "") for i, c in enumerate(candidates)],
        },
    )


@organizer_required
@require_POST
def finals(request: HttpRequest, series_pk: int, division: str) -> HttpResponse:
    """Choose the event a division's final is played at, on the series page."""
    series, division = _series(series_pk), _division(division)
    form = FinalsForm(request.POST, series=series, division=division)
    if not form.is_valid():
        messages.error(request, _("Choose one of the events offered."))
        return _home(series, division)
    event = form.cleaned_data["event"]
    try:
        services.series_finals_set(series=series, division=division, event=event)
    except ValidationError as error:
        _errors(request, error)
    else:
        if event is None:
            messages.success(request, _("No event is chosen for this final now."))
        else:
            messages.success(request, _("%(event)s is this final's event.") % {"event": event.name})
    return _home(series, division)


@organizer_required
def confirm(request: AuthenticatedHttpRequest, series_pk: int, division: str) -> HttpResponse:
    """Confirm the final's entrants: they are registered in its event, once and for all.
    What is missing stops it; what is short (fewer than the format needs) is asked first."""
    series, division = _series(series_pk), _division(division)
    warnings = selectors.confirm_warnings(series=series, division=division)
    form = ReasonlessConfirmForm(request.POST or None, warnings=warnings)
    finals = selectors.series_finals(series=series, division=division)
    if request.method == "POST" and form.is_valid():
        try:
            confirmed = services.entrants_confirm(series=series, division=division, by=request.user)
        except ValidationError as error:
            _errors(request, error)
        else:
            messages.success(
                request,
                ngettext(
                    "The entrants are confirmed: %(count)s registered in %(event)s.",
                    "The entrants are confirmed: %(count)s registered in %(event)s.",
                    len(confirmed.registered),
                )
                % {"count": len(confirmed.registered), "event": finals.name if finals else ""},
            )
            for _entrant, refusal in confirmed.refused:
                messages.warning(request, refusal)
            return _home(series, division)
    rows = selectors.entrants_ordered(series=series, division=division)
    refusals = selectors.confirm_refusals(series=series, division=division)
    return render(
        request,
        "series/confirm.html",
        {
            "series": series,
            "division": division,
            "label": dict(DIVISIONS)[division],
            "finals": finals,
            "places": [
                e
                for e in rows
                if e.status in selectors.HOLDING and e.response == Entrant.Response.ACCEPTED
            ],
            "alternates": [e for e in rows if e.status == Entrant.Status.ALTERNATE],
            # A row the final's event will refuse, said beside it before confirming.
            "refusals": [(e, refusals[e.pk]) for e in rows if e.pk in refusals],
            "problems": selectors.confirm_problems(series=series, division=division),
            "warnings": warnings,
            "confirmation": selectors.confirmed(series=series, division=division),
            "form": form,
        },
    )


@organizer_required
def people(request: HttpRequest, series_pk: int) -> HttpResponse:
    """The same person across the series' events: matched by email, merged or split here."""
    series = _series(series_pk)
    rows = selectors.people_rows(series=series)
    return render(request, "series/people.html", {"series": series, "rows": rows})


def _person(series: Series, value: str | None) -> SeriesPerson | None:
    value = value or ""
    if not (value.isascii() and value.isdigit() and len(value) <= 18):
        return None
    return SeriesPerson.objects.filter(series=series, pk=value).first()


@organizer_required
@require_POST
def merge(request: HttpRequest, series_pk: int) -> HttpResponse:
    series = _series(series_pk)
    keep = _person(series, request.POST.get("keep"))
    other = _person(series, request.POST.get("other"))
    if keep is None or other is None:
        messages.error(request, _("Choose two people of this series."))
    else:
        try:
            services.person_merge(series=series, keep=keep, other=other)
        except ValidationError as error:
            _errors(request, error)
        else:
            messages.success(request, _("The two are one person now."))
    return redirect("series:people", series_pk=series.pk)


@organizer_required
@require_POST
def split(request: HttpRequest, series_pk: int) -> HttpResponse:
    series = _series(series_pk)
    value = request.POST.get("player", "")
    is_pk = value.isascii() and value.isdigit() and len(value) <= 18
    player = Player.objects.filter(pk=value).first() if is_pk else None
    if player is None:
        messages.error(request, _("Choose a registration."))
    else:
        try:
            services.person_split(series=series, player=player)
        except ValidationError as error:
            _errors(request, error)
        else:
            messages.success(request, _("The registration is a person of its own now."))
    return redirect("series:people", series_pk=series.pk)


@organizer_required
def release(request: HttpRequest, series_pk: int) -> HttpResponse:
    """Release (or withdraw) the series' public pages."""
    series = _series(series_pk)
    initial = {page: getattr(series, f"public_{page}") for page in ReleaseForm.base_fields}
    form = ReleaseForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.release_set(series=series, pages=form.cleaned_data)
        messages.success(request, _("The public pages are updated."))
        return redirect("series:release", series_pk=series.pk)
    return render(request, "series/release.html", {"series": series, "form": form})
