"""The hall display: the projector's page and the state it polls (aliases only).

Public: it shows only what the organizer has released (``spectator.selectors.hall_release``),
the winner once released, and the final's results beside it.
"""

from __future__ import annotations

import dataclasses

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from clock.pages import clock_context, clock_payload, started_label
from clock.selectors import WaveClock, hall_wave, wave_clock
from spectator import selectors
from spectator.selectors import hall_release
from spectator.versioning import cached_value, public_version
from tournament.lookups import event_or_404
from tournament.models import Event, Wave


def hall_winner_aliases(event_pk: int) -> tuple[str, ...]:
    """The released winner for the hall display, cached per public
    version: every phone on the event home polls the hall's state."""
    key = f"spectator:hall-winner:{event_pk}:{public_version(event_pk=event_pk)}"

    def find() -> tuple[str, ...]:
        found = selectors.winner(
            event_pk=event_pk, release=selectors.release_for(event_pk=event_pk)
        )
        return found.aliases if found else ()

    return tuple(cached_value(key, find, timeout=600))


# The hall's end state lists this many standings places under the final's.
HALL_STANDINGS = 8


def hall_results_rows(event_pk: int) -> dict[str, tuple[tuple[str, str], ...]]:
    """The final's places and the top of the standings for the hall's end state, as
    released, cached per public version like the winner."""
    key = f"spectator:hall-results:{event_pk}:{public_version(event_pk=event_pk)}"

    def find() -> dict[str, tuple[tuple[str, str], ...]]:
        release = selectors.release_for(event_pk=event_pk)
        stages = selectors.final_stages(event_pk=event_pk, release=release) or ()
        final: tuple[tuple[str, str], ...] = ()
        posted = [stage for stage in stages if stage.results]
        if posted:
            lines = sorted(
                (line for table in posted[-1].results or () for line in table.lines),
                key=lambda line: (line.place is None, line.place or 0),
            )
            final = tuple((str(line.place or ""), line.alias) for line in lines)
        table = selectors.standings(event_pk=event_pk, release=release)
        rows = table.rows[:HALL_STANDINGS] if table else ()
        return {"final": final, "standings": tuple((row.place, row.alias) for row in rows)}

    return cached_value(key, find, timeout=600)


def _winner_label(aliases: tuple[str, ...]) -> str:
    return _("Winner: %(aliases)s") % {"aliases": " · ".join(aliases)} if aliases else ""


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
        # Read once: the page, its texts and the state it starts from show the same winner.
        winner = hall_winner_aliases(event.pk)
        winner_label = _winner_label(winner)
        texts = {"started": started_label(clock) if clock else "", "winner": winner_label}
        context = {
            "event": event,
            "held_back": wave is not None and clock is None,
            "texts": texts,
            # The day's end: the winner and the results instead of a clock at "Time is up".
            "winner": winner,
            "results": hall_results_rows(event.pk) if winner else {},
        }
        drawn = {
            **clock_context(clock, now=now),
            "state": _hall_payload(clock, now, winner=winner_label),
            "state_id": "clock-state",
        }
        return render(request, "spectator/hall.html", {**context, **drawn})


def _hall_payload(clock: WaveClock | None, now, *, winner: str) -> dict:
    """The hall's state as the page polls it (and as the page starts with); ``winner`` is
    the released winner's line, or ""."""
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
        winner = _winner_label(hall_winner_aliases(event.pk))
        return JsonResponse(_hall_payload(clock, now, winner=winner))
