"""Clock controls sent together from threads to a live server: each change applied once.

The head judge's double taps and two officials pressing at the same moment, as the red
team sent them: six identical "add 5 minutes" released together by a barrier (one rendered
form: the same idempotency key and version; then six officials' forms drawn at the same
version, each with its own key), three removals that together exceed the time left, two
pauses at once. Every request is a real HTTP request to Django's live server, each thread
on its own connection to the database, so the clock row's lock is what orders them.

Needs PostgreSQL (row locks, concurrent connections); SQLite serialises every write.
"""

from __future__ import annotations

import secrets
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clock import services as clock_services
from clock.selectors import clock_facts
from clock.timing import Status, clock_state
from tests.clock import test_clock_pages
from tests.resilience.together import run_together
from tournament.models import Clock, ClockAction, OfficialWrite, Wave
from tournament.roles import HEAD_JUDGE

# The clock pages' wave: one table of four, round 1 (the event's 90-minute rounds).
wave = test_clock_pages.wave

pytestmark = pytest.mark.django_db(transaction=True)


def needs_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: concurrent connections and row locks; SQLite serialises")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Official:
    """One signed-in official's browser: its session and CSRF cookies, over real HTTP."""

    def __init__(self, live_server, name: str):
        user = User.objects.create_user(name, password="pw")
        user.groups.add(Group.objects.get(name=HEAD_JUDGE))
        client = Client()
        client.force_login(user)
        self.user = user
        self.base = live_server.url
        self.csrf = secrets.token_hex(16)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        self.cookie = (
            f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={self.csrf}"
        )
        self.opener = urllib.request.build_opener(_NoRedirects())

    def post(self, path: str, form: dict[str, str]) -> int:
        data = urllib.parse.urlencode(form).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            headers={"X-CSRFToken": self.csrf, "Cookie": self.cookie},
            method="POST",
        )
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code


def url(wave: Wave, action: str) -> str:
    return reverse(f"clock:clock_{action}", kwargs={"pk": wave.round.event_id, "wave_pk": wave.pk})


def started(wave: Wave) -> int:
    """Start the wave's clock now; the version the head judge's card then shows."""
    clock_services.clock_start(wave=wave, by=None)
    return Clock.objects.get(wave=wave).version


def adjustments(wave: Wave) -> list[int]:
    return list(
        ClockAction.objects.filter(clock__wave=wave, kind="adjust")
        .order_by("pk")
        .values_list("seconds", flat=True)
    )


def test_six_identical_taps_of_one_form_add_five_minutes_once(live_server, wave):
    needs_postgresql()
    judge = Official(live_server, "judge")
    version = started(wave)
    form = {
        "minutes": "5",
        "direction": "add",
        "reason": "Late start",
        "version": str(version),
        "idempotency_key": str(uuid.uuid4()),
    }
    statuses = run_together(lambda _i: judge.post(url(wave, "adjust"), form), range(6))
    assert statuses == [302] * 6
    assert adjustments(wave) == [300]
    assert OfficialWrite.objects.filter(user=judge.user).count() == 1
    assert Clock.objects.get(wave=wave).version == version + 1


def test_six_officials_adding_five_minutes_on_the_same_page_add_it_once(live_server, wave):
    needs_postgresql()
    officials = [Official(live_server, f"judge{n}") for n in range(6)]
    version = started(wave)

    def add(official: Official) -> int:
        form = {
            "minutes": "5",
            "direction": "add",
            "reason": "Late start",
            "version": str(version),
            "idempotency_key": str(uuid.uuid4()),
        }
        return official.post(url(wave, "adjust"), form)

    assert run_together(add, officials) == [302] * 6
    assert adjustments(wave) == [300]


def test_three_removals_exceeding_the_time_left_stop_at_zero(live_server, wave):
    needs_postgresql()
    officials = [Official(live_server, f"judge{n}") for n in range(3)]
    version = started(wave)
    # 90 minutes left; 40 + 35 + 30 = 105 asked, each drawn at the same version.
    asks = list(zip(officials, (40, 35, 30), strict=True))

    def remove(ask) -> int:
        official, minutes = ask
        form = {
            "minutes": str(minutes),
            "direction": "remove",
            "reason": "Short round",
            "version": str(version),
            "idempotency_key": str(uuid.uuid4()),
        }
        return official.post(url(wave, "adjust"), form)

    assert run_together(remove, asks) == [302] * 3
    removed = adjustments(wave)
    # Two were applied whole; the last took what was left (a few seconds have run since
    # the start), and the clock stands at zero: never below.
    asked = {-40 * 60, -35 * 60, -30 * 60}
    assert len(removed) == 3 and set(removed[:2]) < asked
    (last_ask,) = asked - set(removed[:2])
    left = 90 * 60 + sum(removed[:2])
    assert last_ask < -left <= removed[2] < 0
    at_zero(wave)


def at_zero(wave: Wave) -> None:
    """Time is up and the round's length is the whole seconds played: not below zero."""
    state = clock_state(clock_facts(wave=Wave.objects.get(pk=wave.pk)), now=timezone.now())
    assert (state.status, state.remaining_s) == (Status.TIME_UP, 0)
    assert 0 <= state.allotted_s <= state.elapsed_s < state.allotted_s + 60


def test_two_removals_of_72_with_fewer_than_144_left_never_go_below_zero(live_server, wave):
    needs_postgresql()
    officials = [Official(live_server, f"judge{n}") for n in range(2)]
    started(wave)

    def remove(official: Official) -> int:
        form = {"minutes": "72", "direction": "remove", "reason": "Wrong length"}
        return official.post(url(wave, "adjust"), form)

    assert run_together(remove, officials) == [302, 302]
    removed = adjustments(wave)
    # 90 minutes left: 72 removed, then the 18 left (less the seconds already played).
    assert removed[0] == -72 * 60 and -18 * 60 <= removed[1] < -17 * 60
    at_zero(wave)


def test_two_pauses_at_once_pause_once(live_server, wave):
    needs_postgresql()
    officials = [Official(live_server, f"judge{n}") for n in range(2)]
    started(wave)

    def pause(official: Official) -> int:
        return official.post(url(wave, "pause"), {"reason": "Dispute at table 1"})

    assert run_together(pause, officials) == [302, 302]
    assert ClockAction.objects.filter(clock__wave=wave, kind="pause").count() == 1
