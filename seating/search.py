"""A long seating search run as a background job, with its progress and a stop button.

Pre-seating waits on the page for ``PRESEAT_SECONDS``; a long club season (32 players over
10 rounds) can use minutes. Here the same seating runs as a job (jobs/): the engine's
``progress`` hook writes the best seating's repeats and the lower bound into the job's
``result`` while it runs, so the seating page shows how close the search is, and its
``should_stop`` hook reads a flag the organizer's Stop button sets in the job's ``params``:
the engine then ends with the best seating found so far, which is stored like a pre-seat.

The engine runs outside any transaction, so the progress it writes is seen at once by the
page (and SQLite's single writer is not held for minutes); the tables are stored in one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from jobs.models import Job
from jobs.services import JobError, JobOutput, Progress, job_run, job_submit
from jobs.tasks import task
from seating.draw import drawn, rounds_record_draw
from seating.engine import SearchProgress, SeatingProblem, seat, seat_by_group
from seating.languages import language_groups_of
from seating.round_tables import rounds_store_seating
from seating.services import meeting_history, rounds_ensure, seating_roster
from tournament.formats import event_is_knockout
from tournament.locks import event_lock
from tournament.models import Event, Round

SEARCH_KIND = "seating:seating-search"
MIN_SECONDS, MAX_SECONDS = 10, 600
# The job reads its stop flag from the database at most this often.
STOP_POLL_SECONDS = 0.5


def search_scope(event: Event) -> str:
    return f"event-{event.pk}"


@dataclass(frozen=True)
class SearchState:
    """What the seating page shows of the latest search: the job and its numbers."""

    job: Job
    best: int | None
    conflicts: int | None
    bound: int | None
    elapsed: float | None
    stopped: bool
    stop_asked: bool

    @property
    def at_bound(self) -> bool:
        return self.best is not None and self.best == self.bound and not self.conflicts


def search_latest(*, event: Event) -> SearchState | None:
    job = Job.objects.filter(scope=search_scope(event), kind=SEARCH_KIND).first()
    if job is None:
        return None
    result = job.result if isinstance(job.result, dict) else {}
    return SearchState(
        job=job,
        best=result.get("best"),
        conflicts=result.get("conflicts"),
        bound=result.get("bound"),
        elapsed=result.get("elapsed"),
        stopped=bool(result.get("stopped")),
        stop_asked=bool(job.params.get("stop")),
    )


def search_problem(
    *, event: Event, only_checked_in: bool, seed: int, seconds: float
) -> tuple[list[Round], SeatingProblem]:
    """The rounds a pre-seat would seat and the engine's problem for them (as
    ``seating_services.preseat_event``), or a ``ValidationError`` saying why not."""
    if event_is_knockout(event=event):
        raise ValidationError(_("A knockout is seated round by round from its bracket."))
    rounds = [r for r in rounds_ensure(event=event) if not r.has_started]
    if not rounds:
        raise ValidationError(_("Every preliminary round has started; nothing to seat."))
    players = seating_roster(event=event, only_checked_in=only_checked_in)
    if len(players) < event.table_size_min:
        raise ValidationError(
            ngettext(
                "%(count)s player cannot fill a table of %(size)s.",
                "%(count)s players cannot fill a table of %(size)s.",
                len(players),
            )
            % {"count": len(players), "size": event.table_size_min}
        )
    played = Round.objects.filter(event=event).exclude(pk__in=[r.pk for r in rounds])
    players = drawn(players=players, seed=seed)  # round 1 is a draw (draw.py)
    problem = SeatingProblem(
        players=tuple(p.pk for p in players),
        rounds=len(rounds),
        families={p.pk: p.household or None for p in players},
        table_sizes=(event.table_size_min, event.table_size_max),
        history=tuple(meeting_history(rounds=played)),
        seed=seed,
        time_limit=float(seconds),
    )
    return rounds, problem


def search_submit(
    *, event: Event, only_checked_in: bool, seed: int, seconds: int, user: Any = None
) -> Job:
    """Check the event can be seated, then start the search as a job."""
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise ValidationError(
            _("Search between %(low)s and %(high)s seconds.")
            % {"low": MIN_SECONDS, "high": MAX_SECONDS}
        )
    search_problem(event=event, only_checked_in=only_checked_in, seed=seed, seconds=seconds)
    return job_submit(
        task=seating_search_task,
        kind=SEARCH_KIND,
        scope=search_scope(event),
        params={
            "event": event.pk,
            "only_checked_in": only_checked_in,
            "seed": seed,
            "seconds": seconds,
        },
        user=user,
    )


def search_stop(*, job: Job) -> Job:
    """Ask a running search to stop; it keeps and stores the best seating so far."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job.pk)
        if not job.is_finished:
            job.params = {**job.params, "stop": True}
            job.save(update_fields=["params"])
    return job


@task()
def seating_search_task(*, job_id: int, token: str) -> None:
    job_run(job_id=job_id, token=token, work=_search)


class _Hooks:
    """The engine's progress and stop hooks, written to and read from the job's row."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.polled = 0.0
        self.stop = bool(job.params.get("stop"))
        self.latest: dict[str, Any] = {}

    def running(self) -> Any:
        return Job.objects.filter(pk=self.job.pk, token=self.job.token, status=Job.Status.RUNNING)

    def progress(self, step: SearchProgress) -> None:
        self.latest = {
            "best": step.repeat_meetings,
            "conflicts": step.family_conflicts,
            "bound": step.bound,
            "elapsed": round(step.elapsed, 1),
        }
        self.running().update(result=self.latest)

    def should_stop(self) -> bool:
        now = time.monotonic()
        if not self.stop and now - self.polled >= STOP_POLL_SECONDS:
            self.polled = now
            params = self.running().values_list("params", flat=True).first()
            # A run that lost its job (retried, deleted) stops too.
            self.stop = params is None or bool(params.get("stop"))
        return self.stop


def _search(job: Job, progress: Progress) -> JobOutput:
    params = job.params
    event = Event.objects.filter(pk=params["event"]).first()
    if event is None:
        raise JobError(_("This event no longer exists."))
    rounds, problem = search_problem(
        event=event,
        only_checked_in=params["only_checked_in"],
        seed=params["seed"],
        seconds=params["seconds"],
    )
    hooks = _Hooks(job)
    # Same-language tables when the event asks (language_seating.py): each group its own.
    groups = language_groups_of(event=event, player_ids=problem.players)
    languages: tuple = ()
    if groups is None:
        seating = seat(problem, progress=hooks.progress, should_stop=hooks.should_stop)
    else:
        grouped = seat_by_group(problem, groups=groups, should_stop=hooks.should_stop)
        seating, languages = grouped.seating, grouped.table_groups
    report = seating.report
    with transaction.atomic():
        # Stored holding the event's lock, as every seating is; a round started while the
        # engine searched keeps its seats, and this search's tables are not stored.
        event_lock(event_id=event.pk)
        started = Round.objects.filter(pk__in=[r.pk for r in rounds], started_at__isnull=False)
        first_started = started.order_by("number").first()
        if first_started is not None:
            raise JobError(
                _("Round %(number)s started during the search; nothing was stored.")
                % {"number": first_started.number}
            )
        rounds_store_seating(
            event=event, rounds=rounds, seating=seating, languages=[str(g) for g in languages]
        )
        rounds_record_draw(rounds=rounds, seed=problem.seed)
    return JobOutput(
        result={
            "best": report.repeat_meetings,
            "conflicts": report.family_conflicts,
            "bound": report.repeat_lower_bound,
            "elapsed": round(report.seconds, 1),
            "stopped": report.stopped_by == "stopped",
        }
    )
