"""The seating page's long search: a job that shows the best seating so far and
the bound while it runs, and stops on request keeping the best seating found.

Jobs run at once in the tests (tests/conftest.py), so a stop is asked before the run by
setting the flag the job reads; the engine then ends at its first poll."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from jobs.models import Job
from jobs.services import job_submit
from seating import search as seating_search
from seating.search import (
    SEARCH_KIND,
    search_latest,
    search_scope,
    search_stop,
    seating_search_task,
)
from seating.services import seating_cost
from tests.builders import event_with_players
from tests.url_names import qualified
from tournament.models import Event, Round, Seat
from tournament.roles import ORGANIZER

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def organizer(client, db):
    user = User.objects.create_user("olive", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    return client


def url(name: str, event) -> str:
    return reverse(qualified(name), kwargs={"pk": event.pk})


def an_event_of(players: int, rounds: int) -> Event:
    event = event_with_players(players=players)
    Event.objects.filter(pk=event.pk).update(preliminary_rounds=rounds)
    event.refresh_from_db()
    return event


def seated(event) -> dict[int, list[int]]:
    """round number -> the players seated in it, sorted."""
    out: dict[int, list[int]] = {}
    for seat in Seat.objects.filter(round__event=event):
        out.setdefault(seat.round.number, []).append(seat.player_id)
    return {number: sorted(players) for number, players in out.items()}


def test_a_search_started_from_the_page_stores_its_seating_and_shows_best_and_bound(organizer):
    event = an_event_of(12, 3)
    response = organizer.post(url("seating_search_start", event), {"seconds": "10", "seed": "2"})
    assert response.status_code == 302 and response["Location"] == url("seating_search", event)
    job = Job.objects.get(kind=SEARCH_KIND)
    assert job.status == Job.Status.DONE
    # 12 players over 3 rounds of tables of 4: the engine reaches its bound at once.
    assert job.result == {**job.result, "best": job.result["bound"], "conflicts": 0}
    assert job.result["stopped"] is False
    bound = job.result["bound"]
    players = sorted(event.players.values_list("pk", flat=True))
    assert seated(event) == {1: players, 2: players, 3: players}
    panel = organizer.get(url("seating_search", event), **HTMX).content.decode()
    assert f'class="seating-search-best">{bound} repeat meetings' in panel
    assert f'class="seating-search-bound">{bound}<' in panel
    assert "no seating has fewer repeat meetings" in panel
    assert "every 1s" not in panel  # a finished search stops refreshing


def test_progress_is_written_to_the_job_while_the_engine_runs(organizer, monkeypatch):
    event = an_event_of(16, 5)
    seen = []
    original = seating_search._Hooks.progress

    def spy(self, step):
        original(self, step)
        seen.append(Job.objects.get(pk=self.job.pk).result)

    monkeypatch.setattr(seating_search._Hooks, "progress", spy)
    organizer.post(url("seating_search_start", event), {"seconds": "10"})
    assert seen, "the engine reported no progress"
    # What the page reads while the job runs is the engine's report, as it came.
    assert all(set(row) == {"best", "conflicts", "bound", "elapsed"} for row in seen)
    assert [row["best"] for row in seen] == sorted((row["best"] for row in seen), reverse=True)
    job = Job.objects.get(kind=SEARCH_KIND)
    assert job.result["best"] == seen[-1]["best"]


def test_a_stopped_search_keeps_the_best_seating_so_far(db):
    # 32 players over 10 rounds: far from the bound within the first poll, so it is the
    # stop that ends the search, not the bound or the time.
    event = an_event_of(32, 10)
    job = job_submit(
        task=seating_search_task,
        kind=SEARCH_KIND,
        scope=search_scope(event),
        params={
            "event": event.pk,
            "only_checked_in": True,
            "seed": 1,
            "seconds": 600,
            "stop": True,
        },
    )
    assert job.status == Job.Status.DONE and job.result["stopped"] is True
    assert job.result["elapsed"] < 60
    players = sorted(event.players.values_list("pk", flat=True))
    assert seated(event) == {number: players for number in range(1, 11)}
    # The numbers shown are those of the stored tables, counted again.
    cost = seating_cost(event=event)
    assert (cost.repeat_meetings, cost.family_conflicts) == (
        job.result["best"],
        job.result["conflicts"],
    )
    reports = [r.seating_report for r in Round.objects.filter(event=event)]
    assert all(report["stopped_by"] == "stopped" for report in reports)


def test_a_running_search_shows_its_numbers_and_a_stop_button_that_sets_the_flag(organizer):
    event = an_event_of(32, 10)
    job = Job.objects.create(
        kind=SEARCH_KIND,
        scope=search_scope(event),
        params={"event": event.pk},
        status=Job.Status.RUNNING,
        task_path="seating.search.seating_search_task",
        token="t",
        result={"best": 14, "conflicts": 0, "bound": 0, "elapsed": 12.5},
    )
    panel = organizer.get(url("seating_search", event), **HTMX).content.decode()
    assert 'class="seating-search-best">14 repeat meetings' in panel
    assert 'class="seating-search-bound">0<' in panel
    assert "12.5 s" in panel
    assert 'hx-trigger="every 1s"' in panel
    assert url("seating_search_stop", event) in panel

    response = organizer.post(url("seating_search_stop", event))
    assert response.status_code == 302
    job.refresh_from_db()
    assert job.params["stop"] is True
    assert "Stopping" in organizer.get(url("seating_search", event)).content.decode()
    # A finished job is not touched.
    Job.objects.filter(pk=job.pk).update(status=Job.Status.DONE, params={})
    assert search_stop(job=job).params == {}


def test_the_seating_page_loads_the_panel_and_bad_input_is_a_message(organizer):
    event = an_event_of(12, 3)
    page = organizer.get(url("seating", event)).content.decode()
    assert f'hx-get="{url("seating_search", event)}"' in page
    for bad in ({"seconds": "5"}, {"seconds": "x"}, {"seconds": "60", "seed": "-1"}, {}):
        response = organizer.post(url("seating_search_start", event), bad, follow=True)
        assert response.status_code == 200
        assert "Search between 10 and 600 seconds" in response.content.decode()
    assert not Job.objects.exists()
    assert search_latest(event=event) is None


def test_too_few_players_is_refused_before_any_job(organizer):
    event = an_event_of(12, 3)
    event.players.update(checked_in_at=None)
    response = organizer.post(url("seating_search_start", event), {"seconds": "10"}, follow=True)
    assert "cannot fill a table" in response.content.decode()
    assert not Job.objects.exists()
