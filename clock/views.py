"""The official clock's pages: the head judge's controls, the hall display, the banker's table.

Thin views over ``clock_services`` and ``clock_selectors``. Changes are POSTs answered
with a redirect and a message, or with htmx by the wave's card drawn from the database
after the change; a refused move (start twice, resume a running clock...) becomes an
error message and changes nothing. The countdown on every page is drawn by
``static/js/clock.js`` from the JSON state (never by counting down); each page also
renders the time server-side, so that it works without JavaScript, and embeds the same
state with the clock's version, which clock.js holds on to: an answer with an older
version (a poll sent before the change) is never drawn over it.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from clock import services
from clock.pages import clock_context, clock_labels, clock_payload
from clock.selectors import (
    event_clocks,
    round_list,
    wave_clock,
    wave_get,
)
from clock.timing import Status, format_remaining
from tournament.access import head_judge_required, organizer_required
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404
from tournament.models import Announcement, Event, Round, Wave
from tournament.requests import AuthenticatedHttpRequest, HtmxHttpRequest


class ReasonForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200, required=False)


class AdjustForm(ReasonForm):
    minutes = forms.IntegerField(label=gettext_lazy("Minutes"), min_value=1, max_value=240)
    direction = forms.ChoiceField(
        choices=[("add", gettext_lazy("Add")), ("remove", gettext_lazy("Remove"))]
    )


class AnnouncementForm(forms.Form):
    minutes_remaining = forms.IntegerField(
        label=gettext_lazy("At minutes remaining"), min_value=0, max_value=240
    )
    text = forms.CharField(label=gettext_lazy("Text"), max_length=200)


def _wave(event: Event, wave_pk: int) -> Wave:
    try:
        return wave_get(event=event, pk=wave_pk)
    except Wave.DoesNotExist as exc:
        raise Http404(_("No such wave at this event.")) from exc


def _error(request: HttpRequest, error: ValidationError) -> None:
    messages.error(request, " ".join(error.messages))


def _shown_version(request: HttpRequest) -> int | None:
    """The clock version the control was drawn with (its hidden ``version``), if any."""
    raw = request.POST.get("version", "")
    return int(raw) if raw.isdigit() and len(raw) < 10 else None


@never_cache
@require_GET
def wave_state(request: HttpRequest, pk: int, wave_pk: int) -> JsonResponse:
    """One wave's clock, for the banker tablets (their table's wave never changes)."""
    wave = _wave(event_or_404(pk), wave_pk)
    now = timezone.now()
    return JsonResponse(clock_payload(wave_clock(wave=wave, now=now), now=now))


# --- Head judge: the controls -------------------------------------------------------------


@never_cache
@head_judge_required
def clock_control(request: HttpRequest, pk: int) -> HttpResponse:
    """Every round and wave with its clock, controls, log and announcements.

    Never cached: a page brought back from the browser's cache would show an old state
    and old controls until its first poll.
    """
    event = event_or_404(pk)
    now = timezone.now()
    clocks = [clock_context(clock, now=now) for clock in event_clocks(event=event, now=now)]
    # The live waves first, then those to come; the ended ones are folded below.
    live = [c for c in clocks if c["clock"].state.status not in (Status.NOT_STARTED, Status.ENDED)]
    to_come = [c for c in clocks if c["clock"].state.status == Status.NOT_STARTED]
    return render(
        request,
        "clock/control.html",
        {
            "event": event,
            "clocks": clocks,
            "clocks_live": live + to_come,
            "clocks_ended": [c for c in clocks if c["clock"].state.status == Status.ENDED],
            "rounds": round_list(event=event),
            "reason_form": ReasonForm(),
            "adjust_form": AdjustForm(),
            "announcement_form": AnnouncementForm(),
            "clock_labels": clock_labels(),
        },
    )


def _control(request: HtmxHttpRequest, pk: int, wave_pk: int, act, success: str) -> HttpResponse:
    event = event_or_404(pk)
    wave = _wave(event, wave_pk)
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        act(wave=wave, reason=reason, by=request.user, shown_version=_shown_version(request))
    except services.ClockAlreadyDone as done:
        return _answer(request, event, wave, done.message, level="info")
    except ValidationError as error:
        return _answer(request, event, wave, " ".join(error.messages), level="error")
    return _answer(request, event, wave, success % {"round": wave.round, "wave": wave})


def _answer(
    request: HtmxHttpRequest, event: Event, wave: Wave, text: str, *, level: str = "success"
) -> HttpResponse:
    """An action's result: with htmx, the wave's card again (the page keeps its place),
    the result inside it; without, a message and the redirect back to the card."""
    if request.htmx:
        return _card(request, event, wave, feedback=text, level=level)
    levels = {"error": messages.ERROR, "info": messages.INFO}
    messages.add_message(request, levels.get(level, messages.SUCCESS), text)
    return _back_to_card(event, wave)


def _card(
    request: HttpRequest, event: Event, wave: Wave, *, feedback: str = "", level: str = "success"
) -> HttpResponse:
    """The inside of ``wave``'s card as the database has it now (after the action, if any):
    the wave is read again, so nothing read before the action is drawn."""
    now = timezone.now()
    clock = wave_clock(wave=wave_get(event=event, pk=wave.pk), now=now)
    context = {
        "event": event,
        "item": clock_context(clock, now=now),
        "feedback": feedback,
        "feedback_level": level,
    }
    return render(request, "clock/_clock_card_body.html", context)


@never_cache
@head_judge_required
@require_GET
def clock_card(request: HttpRequest, pk: int, wave_pk: int) -> HttpResponse:
    """One wave's card, for the clock page to fetch when its poll finds that another
    official changed the clock: the status line follows the poll, this brings the controls."""
    event = event_or_404(pk)
    return _card(request, event, _wave(event, wave_pk))


def _back_to_card(event: Event, wave: Wave) -> HttpResponse:
    """Back to the clock page at the wave's card, not at the top of the page."""
    url = reverse("clock:clock_control", kwargs={"pk": event.pk})
    return HttpResponseRedirect(f"{url}#wave-{wave.pk}")


@head_judge_required
@require_POST
@official_idempotent
def clock_start(request: HtmxHttpRequest, pk: int, wave_pk: int) -> HttpResponse:
    return _control(
        request,
        pk,
        wave_pk,
        lambda *, wave, reason, by, shown_version: services.clock_start(
            wave=wave, by=by, shown_version=shown_version
        ),
        _("%(round)s, %(wave)s: play has started at every table."),
    )


@head_judge_required
@require_POST
@official_idempotent
def clock_pause(request: HtmxHttpRequest, pk: int, wave_pk: int) -> HttpResponse:
    return _control(
        request, pk, wave_pk, services.clock_pause, _("%(round)s, %(wave)s: clock paused.")
    )


@head_judge_required
@require_POST
@official_idempotent
def clock_resume(request: HtmxHttpRequest, pk: int, wave_pk: int) -> HttpResponse:
    return _control(
        request, pk, wave_pk, services.clock_resume, _("%(round)s, %(wave)s: clock resumed.")
    )


@head_judge_required
@require_POST
@official_idempotent
def clock_end(request: HtmxHttpRequest, pk: int, wave_pk: int) -> HttpResponse:
    return _control(
        request, pk, wave_pk, services.clock_end, _("%(round)s, %(wave)s: play has ended.")
    )


@head_judge_required
@require_POST
@official_idempotent
def clock_adjust(request: AuthenticatedHttpRequest, pk: int, wave_pk: int) -> HttpResponse:
    event = event_or_404(pk)
    wave = _wave(event, wave_pk)
    form = AdjustForm(request.POST)
    if not form.is_valid():
        text = _("Enter a number of minutes (1 to 240) to add or remove.")
        if request.htmx:
            return _answer(request, event, wave, text, level="error")
        messages.error(request, text)
        return redirect("clock:clock_control", pk=event.pk)
    minutes = form.cleaned_data["minutes"]
    sign = 1 if form.cleaned_data["direction"] == "add" else -1
    try:
        action = services.clock_adjust(
            wave=wave,
            seconds=sign * minutes * 60,
            reason=form.cleaned_data["reason"],
            by=request.user,
            shown_version=_shown_version(request),
        )
    except services.ClockAlreadyDone as done:
        return _answer(request, event, wave, done.message, level="info")
    except ValidationError as error:
        return _answer(request, event, wave, " ".join(error.messages), level="error")
    return _answer(request, event, wave, _adjusted_message(minutes * 60 * sign, action.seconds))


def _adjusted_message(asked: int, applied: int) -> str:
    """What the change did; a removal of more than was left says it removed only that."""
    if applied != asked:
        return _(
            "Only %(left)s was left, so only that was removed: the clock stops at zero and "
            "time is up."
        ) % {"left": format_remaining(-applied)}
    minutes = abs(asked) // 60
    if asked > 0:
        return ngettext("%(minutes)s minute added.", "%(minutes)s minutes added.", minutes) % {
            "minutes": minutes
        }
    return ngettext("%(minutes)s minute removed.", "%(minutes)s minutes removed.", minutes) % {
        "minutes": minutes
    }


# --- Organizer: custom announcements -------------------------------------------------------


@organizer_required
@require_POST
@official_idempotent
def announcement_add(request: AuthenticatedHttpRequest, pk: int, round_pk: int) -> HttpResponse:
    event = event_or_404(pk)
    round_ = get_object_or_404(Round, event=event, pk=round_pk)
    form = AnnouncementForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the time remaining in minutes and the text."))
        return redirect("clock:clock_control", pk=event.pk)
    try:
        services.announcement_add(
            round_=round_,
            at_remaining_seconds=form.cleaned_data["minutes_remaining"] * 60,
            text=form.cleaned_data["text"],
            by=request.user,
        )
    except services.AnnouncementExists:
        messages.info(request, _("Already done: this announcement is already in the list."))
    except ValidationError as error:
        _error(request, error)
    else:
        messages.success(request, _("Announcement added."))
    return redirect("clock:clock_control", pk=event.pk)


@organizer_required
@require_POST
@official_idempotent
def announcement_delete(request: HttpRequest, pk: int, announcement_pk: int) -> HttpResponse:
    event = event_or_404(pk)
    announcement = Announcement.objects.filter(round__event=event, pk=announcement_pk).first()
    if announcement is None or not services.announcement_delete(announcement=announcement):
        # A second tap, or another organizer removed it a moment ago.
        messages.info(request, _("Already done: this announcement was removed."))
    else:
        messages.success(request, _("Announcement removed."))
    return redirect("clock:clock_control", pk=event.pk)
