"""The hall display in a real browser: the right time after a reload and after a pause.

The clock's facts are written straight into the database with a known start; the page
must show the time those facts give, within a couple of seconds, however often it is
reloaded, and even on a device whose own clock is an hour wrong.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone
from playwright.sync_api import expect

from clock import services
from spectator.services import release_set
from tests.browser.conftest import between_requests
from tournament.models import Clock, ClockAction, Player, Round, Seat, Table, Wave
from tournament.services import event_create

TOLERANCE_S = 2.5


@pytest.fixture
def wave(transactional_db) -> Wave:
    event = event_create(
        name="Boardwalk Open",
        organization="Boardwalk Club",
        venue="Pier Hall",
        date=datetime.date(2031, 6, 7),
        start_time=datetime.time(10, 0),
    )
    # The hall shows only what is released: here, everything.
    release_set(event=event, pages={"home": True, "tables": True}, by=None)
    round_ = Round.objects.create(
        event=event, number=1, started_at=timezone.now(), assignments_published=True
    )
    wave = Wave.objects.create(round=round_, number=1)
    table = Table.objects.create(round=round_, wave=wave, number=1)
    for position, alias in enumerate(["Lucky Thimble", "Top Hat", "Race Car", "Old Boot"], 1):
        player = Player.objects.create(
            event=event,
            first_name=f"Real{position}",
            last_name="Name",
            date_of_birth=datetime.date(1990, 1, 1),
            signature="Signed",
            signed_at=timezone.now(),
            alias=alias,
        )
        Seat.objects.create(round=round_, table=table, player=player, position=position)
    return wave


def duration_seconds(text: str) -> int:
    """A countdown as clock.js writes it (H:MM:SS or MM:SS), in seconds."""
    parts = [int(part) for part in text.strip().split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    hours, minutes, seconds = parts
    return hours * 3600 + minutes * 60 + seconds


def shown_seconds(page) -> int:
    """The countdown as drawn by clock.js (it marks the page once it has the state)."""
    page.wait_for_selector("[data-clock][data-status]")
    return duration_seconds(page.inner_text("[data-clock-remaining]"))


def expected_seconds(started_at: datetime.datetime) -> float:
    return 90 * 60 - (timezone.now() - started_at).total_seconds()


def test_the_hall_display_survives_reloads_and_pauses(live_server, browser, page, wave):
    started_at = timezone.now() - datetime.timedelta(minutes=10)
    clock = Clock.objects.create(wave=wave, duration_seconds=90 * 60, started_at=started_at)
    ClockAction.objects.create(clock=clock, kind="start", at=started_at)
    url = f"{live_server.url}/events/{wave.round.event_id}/hall/"

    page.goto(url)
    assert "Boardwalk Open" in page.inner_text("body")
    assert "Lucky Thimble" in page.inner_text("body")
    assert "Real1" not in page.content()
    assert abs(shown_seconds(page) - expected_seconds(started_at)) <= TOLERANCE_S
    # The countdown moves on its own, recomputed from the state and the server offset.
    first = page.inner_text("[data-clock-remaining]")
    expect(page.locator("[data-clock-remaining]")).not_to_have_text(first, timeout=5_000)
    assert 1 <= duration_seconds(first) - shown_seconds(page) <= 4

    page.reload()
    assert abs(shown_seconds(page) - expected_seconds(started_at)) <= TOLERANCE_S

    # The head judge pauses: after a reload the display is frozen at the paused time.
    paused_at = timezone.now()
    with between_requests():
        services.clock_pause(wave=wave, reason="Rules dispute", now=paused_at)
    frozen = 90 * 60 - (paused_at - started_at).total_seconds()
    page.reload()
    page.wait_for_selector("[data-clock][data-status=paused]")
    assert abs(shown_seconds(page) - frozen) <= TOLERANCE_S
    assert "Paused" in page.text_content("[data-clock-status]")
    # And it stays frozen however long the pause: a second display whose clock the test
    # moves on 2.5 seconds at once, firing every tick, shows the same time.
    second = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    second.clock.install()
    second.goto(url)
    second.wait_for_selector("[data-clock][data-status=paused]")
    before = shown_seconds(second)
    assert abs(before - frozen) <= TOLERANCE_S
    second.clock.run_for(2500)
    assert shown_seconds(second) == before
    second.context.close()

    # Resumed, it runs again from where it stopped, even without a reload (the page polls).
    resumed_at = timezone.now()
    with between_requests():
        services.clock_resume(wave=wave, now=resumed_at)
    page.wait_for_selector("[data-clock][data-status=running]", timeout=12_000)
    since_resume = (timezone.now() - resumed_at).total_seconds()
    assert abs(shown_seconds(page) - (frozen - since_resume)) <= TOLERANCE_S


def test_a_device_whose_clock_is_an_hour_fast_still_shows_the_official_time(
    live_server, page, wave
):
    started_at = timezone.now() - datetime.timedelta(minutes=30)
    Clock.objects.create(wave=wave, duration_seconds=90 * 60, started_at=started_at)
    page.add_init_script(
        "(() => { const real = Date.now; Date.now = () => real() + 3600 * 1000; })();"
    )
    page.goto(f"{live_server.url}/events/{wave.round.event_id}/hall/")
    assert abs(shown_seconds(page) - expected_seconds(started_at)) <= TOLERANCE_S
    assert "Next: 30 minutes remaining" in page.inner_text("[data-clock-next]")


def test_the_banker_tablet_enables_last_turn_when_time_runs_out(live_server, page, wave):
    """The button unlocks by itself at 00:00; the server still checks when it is pressed."""
    banker = User.objects.create_user("bea", password="a long Boardwalk passphrase")
    banker.groups.add(Group.objects.get(name="Banker"))
    # Three seconds of play left.
    started_at = timezone.now() - datetime.timedelta(minutes=90) + datetime.timedelta(seconds=3)
    Clock.objects.create(wave=wave, duration_seconds=90 * 60, started_at=started_at)
    table = wave.tables.get()
    wave.tables.filter(pk=table.pk).update(banker=banker)  # a banker opens their own table

    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("bea")
    page.get_by_label("Password").fill("a long Boardwalk passphrase")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/bank/tables/{table.pk}/")
    button = page.get_by_role("button", name="Last turn")
    assert button.is_disabled()
    page.wait_for_selector("[data-enable-when-time-called]:not([disabled])", timeout=8_000)
    assert page.inner_text("[data-clock-remaining]").strip() == "00:00"
    button.click()
    page.wait_for_load_state()
    table.refresh_from_db()
    assert table.status == "last_turn"
    page.locator("summary", has_text="Game over: last turn played").click()
    page.get_by_role("button", name="Yes, the game is over").click()  # the second step
    page.wait_for_load_state()
    assert "Score entry is open for this table." in page.inner_text("main")
