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

import dataclasses

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from . import clock_services as services
from .access import acting_user, banker_required, head_judge_required, organizer_required
from .bankruptcy_selectors import table_bankruptcy_view
from .clock import Status, TableStatus, format_remaining, table_status_label
from .clock_selectors import (
    WaveClock,
    event_clocks,
    game_over_undo_refusal,
    hall_release,
    hall_results,
    hall_wave,
    hall_winner,
    round_list,
    wave_clock,
    wave_get,
)
from .formats import event_has_last_turn
from .idempotency import idempotent, official_idempotent
from .lookups import event_or_404, table_or_404
from .models import Announcement, Event, Round, Wave
from .selectors import table_seating

STATUS_LABELS = {
    Status.NOT_STARTED: gettext_lazy("Not started"),
    Status.RUNNING: gettext_lazy("Running"),
    Status.PAUSED: gettext_lazy("Paused"),
    Status.TIME_UP: gettext_lazy("Time is up"),
    Status.ENDED: gettext_lazy("Ended"),
}


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


def clock_payload(clock: WaveClock, *, now) -> dict:
    """The JSON the pages poll: the state at the server's ``now`` plus that ``now`` in ms.

    The page measures its offset from ``server_ms`` and recomputes the time left from
    ``remaining_ms`` on every frame, so a sleeping tablet is right the moment it wakes.
    """
    state = clock.state
    return {
        "server_ms": int(now.timestamp() * 1000),
        "wave": clock.wave.pk,
        # The page keeps the newest version it has shown and ignores an older answer.
        "version": clock.version,
        # Lines clock.js writes into [data-clock-text="<key>"], hidden while empty.
        "texts": {"started": started_label(clock)},
        "status": str(state.status),
        "status_label": str(STATUS_LABELS[state.status]),
        "status_labels": {str(key): str(label) for key, label in STATUS_LABELS.items()},
        "remaining_ms": int(state.remaining_s * 1000),
        "allotted_ms": state.allotted_s * 1000,
        "announcements": [
            {"at_ms": a.at_remaining_s * 1000, "message": a.message} for a in clock.schedule
        ],
        "tables": [
            {
                "pk": view.table.pk,
                "number": view.table.number,
                "status": view.table.status,
                "label": clock.table_label(view),
            }
            for view in clock.tables
        ],
    }


def started_label(clock: WaveClock) -> str:
    """000 TIMEKEEPING: "The exact starting time of play must be announced for each round"."""
    started = clock.facts.started_at
    if started is None:
        return ""
    time = date_format(timezone.localtime(started), "TIME_FORMAT")
    return _("Play started at %(time)s") % {"time": time}


def _winner_label(event: Event) -> str:
    aliases = hall_winner(event=event)
    return _("Winner: %(aliases)s") % {"aliases": " · ".join(aliases)} if aliases else ""


def _labels() -> dict[str, str]:
    """The few words clock.js writes itself, in the page's language."""
    return {"chimeOn": _("Chime on"), "chimeOff": _("Chime off"), "next": _("Next: %s")}


def _clock_context(clock: WaveClock | None, *, now) -> dict:
    """What a page needs to draw ``clock`` at ``now``; ``state`` is the JSON the page polls,
    rendered into the page too, so clock.js starts from (and keeps to) what the page shows."""
    if clock is None:
        return {"clock": None, "clock_labels": _labels()}
    return {
        "clock": clock,
        "clock_labels": _labels(),
        "status_label": STATUS_LABELS[clock.state.status],
        "remaining": format_remaining(clock.state.remaining_s),
        "state": clock_payload(clock, now=now),
        "state_id": f"clock-state-{clock.wave.pk}",
    }


# --- Public: the hall display and the state the pages poll -------------------------------


def _public_hall_clock(event: Event, wave: Wave | None, now) -> WaveClock | None:
    """The hall's wave clock as far as the organizer has released it, or None.

    Without the event home released there is no clock; without the tables released (and
    the round's assignments published) the clock comes without its tables.
    """
    release = hall_release(event=event, wave=wave)
    if wave is None or not release.clock:
        return None
    clock = wave_clock(wave=wave, now=now)
    return clock if release.tables else dataclasses.replace(clock, tables=())


@require_GET
def hall_display(request: HttpRequest, pk: int) -> HttpResponse:
    """Full-screen page for the projector: aliases only, never real names, and only what
    the organizer has released (the URL is public)."""
    event = event_or_404(pk)
    now = timezone.now()
    # The projector speaks the event's language, whoever's browser opened it.
    with translation.override(event.language):
        wave = hall_wave(event=event)
        clock = _public_hall_clock(event, wave, now)
        winner = hall_winner(event=event)
        texts = {"started": started_label(clock) if clock else "", "winner": _winner_label(event)}
        context = {
            "event": event,
            "held_back": wave is not None and clock is None,
            "texts": texts,
            # The day's end: the winner and the results instead of a clock at "Time is up".
            "winner": winner,
            "results": hall_results(event=event) if winner else {},
        }
        clock_context = {
            **_clock_context(clock, now=now),
            "state": _hall_payload(event, clock, now),
            "state_id": "clock-state",
        }
        return render(request, "tournament/clock/hall.html", {**context, **clock_context})


def _hall_payload(event: Event, clock: WaveClock | None, now) -> dict:
    """The hall's state as the page polls it (and as the page starts with)."""
    winner = _winner_label(event)
    if clock is None:
        # The winner is released on its own switch, so it can stand with no clock shown.
        return {
            "server_ms": int(now.timestamp() * 1000),
            "wave": None,
            "texts": {"winner": winner},
            "ended": bool(winner),
        }
    payload = clock_payload(clock, now=now)
    payload["texts"]["winner"] = winner
    # The page reloads into (or out of) its end state when this changes.
    payload["ended"] = bool(winner)
    return payload


@never_cache
@require_GET
def hall_state(request: HttpRequest, pk: int) -> JsonResponse:
    """The hall's wave right now, as released; when another wave takes over, the page
    reloads. In the event's language, or the one ``?lang=`` names (the event home on a
    spectator's phone, in its reader's language)."""
    event = event_or_404(pk)
    now = timezone.now()
    # The hall display speaks the event's language; a spectator's phone asks for its own.
    asked = request.GET.get("lang", "")
    language = asked if asked in dict(settings.LANGUAGES) else event.language
    with translation.override(language):
        clock = _public_hall_clock(event, hall_wave(event=event), now)
        return JsonResponse(_hall_payload(event, clock, now))


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
    clocks = [_clock_context(clock, now=now) for clock in event_clocks(event=event, now=now)]
    # The live waves first, then those to come; the ended ones are folded below.
    live = [c for c in clocks if c["clock"].state.status not in (Status.NOT_STARTED, Status.ENDED)]
    to_come = [c for c in clocks if c["clock"].state.status == Status.NOT_STARTED]
    return render(
        request,
        "tournament/clock/control.html",
        {
            "event": event,
            "clocks": clocks,
            "clocks_live": live + to_come,
            "clocks_ended": [c for c in clocks if c["clock"].state.status == Status.ENDED],
            "rounds": round_list(event=event),
            "reason_form": ReasonForm(),
            "adjust_form": AdjustForm(),
            "announcement_form": AnnouncementForm(),
            "clock_labels": _labels(),
        },
    )


def _control(request: HttpRequest, pk: int, wave_pk: int, act, success: str) -> HttpResponse:
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
    request: HttpRequest, event: Event, wave: Wave, text: str, *, level: str = "success"
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
        "item": _clock_context(clock, now=now),
        "feedback": feedback,
        "feedback_level": level,
    }
    return render(request, "tournament/clock/_clock_card_body.html", context)


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
    url = reverse("tournament:clock_control", kwargs={"pk": event.pk})
    return HttpResponseRedirect(f"{url}#wave-{wave.pk}")


@head_judge_required
@require_POST
@official_idempotent
def clock_start(request: HttpRequest, pk: int, wave_pk: int) -> HttpResponse:
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
def clock_pause(request: HttpRequest, pk: int, wave_pk: int) -> HttpResponse:
    return _control(
        request, pk, wave_pk, services.clock_pause, _("%(round)s, %(wave)s: clock paused.")
    )


@head_judge_required
@require_POST
@official_idempotent
def clock_resume(request: HttpRequest, pk: int, wave_pk: int) -> HttpResponse:
    return _control(
        request, pk, wave_pk, services.clock_resume, _("%(round)s, %(wave)s: clock resumed.")
    )


@head_judge_required
@require_POST
@official_idempotent
def clock_end(request: HttpRequest, pk: int, wave_pk: int) -> HttpResponse:
    return _control(
        request, pk, wave_pk, services.clock_end, _("%(round)s, %(wave)s: play has ended.")
    )


@head_judge_required
@require_POST
@official_idempotent
def clock_adjust(request: HttpRequest, pk: int, wave_pk: int) -> HttpResponse:
    event = event_or_404(pk)
    wave = _wave(event, wave_pk)
    form = AdjustForm(request.POST)
    if not form.is_valid():
        text = _("Enter a number of minutes (1 to 240) to add or remove.")
        if request.htmx:
            return _answer(request, event, wave, text, level="error")
        messages.error(request, text)
        return redirect("tournament:clock_control", pk=event.pk)
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
def announcement_add(request: HttpRequest, pk: int, round_pk: int) -> HttpResponse:
    event = event_or_404(pk)
    round_ = get_object_or_404(Round, event=event, pk=round_pk)
    form = AnnouncementForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the time remaining in minutes and the text."))
        return redirect("tournament:clock_control", pk=event.pk)
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
    return redirect("tournament:clock_control", pk=event.pk)


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
    return redirect("tournament:clock_control", pk=event.pk)


# --- Banker: the table page -------------------------------------------------------------


@banker_required
def banker_table(request: HttpRequest, table_pk: int) -> HttpResponse:
    """The banker's tablet: the official countdown, the calls, and the end-of-game buttons."""
    table = table_or_404(table_pk)
    now = timezone.now()
    clock = wave_clock(wave=table.wave, now=now)
    view = next(v for v in clock.tables if v.table.pk == table.pk)
    status = TableStatus(table.status)
    last_turn = event_has_last_turn(event=table.round.event)
    return render(
        request,
        "tournament/clock/banker_table.html",
        {
            "event": table.round.event,
            "table": table,
            "aliases": view.aliases,
            "seating": table_seating(table=table),
            "table_status": status,
            "table_status_label": table_status_label(status),
            # 000's End of Round has no last turn: time called ends the game.
            "last_turn": last_turn,
            "can_call_last_turn": last_turn and status == TableStatus.PLAYING,
            "time_called": clock.state.time_is_called,
            "can_finish": status in (TableStatus.PLAYING, TableStatus.LAST_TURN)
            and clock.state.status != Status.NOT_STARTED,
            "can_reopen": status == TableStatus.FINISHED
            and game_over_undo_refusal(table=table) is None,
            "bankruptcy": table_bankruptcy_view(table=table),
            **_clock_context(clock, now=now),
        },
    )


def _table_action(request: HttpRequest, table_pk: int, act, success: str) -> HttpResponse:
    table = table_or_404(table_pk)
    try:
        act(table=table, by=acting_user(request))
    except ValidationError as error:
        _error(request, error)
    else:
        messages.success(request, success % {"table": table})
    return redirect("tournament:banker_table", table_pk=table.pk)


@banker_required
@require_POST
@idempotent
def table_last_turn(request: HttpRequest, table_pk: int) -> HttpResponse:
    return _table_action(
        request,
        table_pk,
        services.table_mark_last_turn,
        _("%(table)s: last turn. Play ends when the player before the starting player is done."),
    )


@banker_required
@require_POST
@idempotent
def table_finished(request: HttpRequest, table_pk: int) -> HttpResponse:
    return _table_action(
        request,
        table_pk,
        services.table_mark_finished,
        _("%(table)s: game over. Score entry is open for this table."),
    )


@banker_required
@require_POST
@idempotent
def table_reopen(request: HttpRequest, table_pk: int) -> HttpResponse:
    """Undo a game over tapped by mistake, while the score sheet has not been saved."""
    return _table_action(
        request,
        table_pk,
        services.table_reopen_game,
        _("%(table)s: the game is open again. Play goes on."),
    )
