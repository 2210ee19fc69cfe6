"""What every page that draws a wave's clock shares: its JSON, its labels, its context.

The head judge's controls (clock), the banker's table page (banker) and the hall display
(spectator) draw the same clock from the same payload, so it is built in one place.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clock.selectors import WaveClock
from clock.timing import Status, format_remaining
from seating.vacancy_selectors import vacancies_refusal

STATUS_LABELS = {
    Status.NOT_STARTED: gettext_lazy("Not started"),
    Status.RUNNING: gettext_lazy("Running"),
    Status.PAUSED: gettext_lazy("Paused"),
    Status.TIME_UP: gettext_lazy("Time is up"),
    Status.ENDED: gettext_lazy("Ended"),
}


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
    """Tournament Kit, TIMEKEEPING: "The exact starting time of play must be announced for each
    round"."""
    started = clock.facts.started_at
    if started is None:
        return ""
    time = date_format(timezone.localtime(started), "TIME_FORMAT")
    return _("Play started at %(time)s") % {"time": time}


def clock_labels() -> dict[str, str]:
    """The few words clock.js writes itself, in the page's language."""
    return {"chimeOn": _("Chime on"), "chimeOff": _("Chime off"), "next": _("Next: %s")}


def clock_context(clock: WaveClock | None, *, now) -> dict:
    """What a page needs to draw ``clock`` at ``now``; ``state`` is the JSON the page polls,
    rendered into the page too, so clock.js starts from (and keeps to) what the page shows."""
    if clock is None:
        return {"clock": None, "clock_labels": clock_labels()}
    not_started = clock.state.status == "not_started"
    return {
        "clock": clock,
        # 002 ALTERNATES: the start waits for the head judge's choice on the empty seats.
        "vacancies": vacancies_refusal(round_=clock.round) if not_started else None,
        "clock_labels": clock_labels(),
        "status_label": STATUS_LABELS[clock.state.status],
        "remaining": format_remaining(clock.state.remaining_s),
        "state": clock_payload(clock, now=now),
        "state_id": f"clock-state-{clock.wave.pk}",
    }
