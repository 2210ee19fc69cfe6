"""The head judge's clock in a real browser: a control's answer stays, whatever arrives late.

A poll of the clock's state sent before a control and answered after it carries the old
state; the page must keep the new one (static/js/clock.js compares the clock's versions).
Playwright holds such a poll (``page.route``): the server answers it at once, before the
control, and the answer is delivered after the control's own answer is on screen.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from clock import services
from spectator.services import release_set
from tournament.models import Clock, Player, Round, Seat, Table, Wave
from tournament.roles import HEAD_JUDGE
from tournament.services import event_create

STATE = re.compile(r".*/waves/\d+/clock/state/$")
MARKERS = ("{#", "#}", "{%", "%}", "{{", "}}")


@pytest.fixture
def wave(transactional_db) -> Wave:
    event = event_create(
        name="Boardwalk Open",
        organization="Boardwalk Club",
        venue="Pier Hall",
        date=datetime.date(2031, 6, 7),
        start_time=datetime.time(10, 0),
    )
    release_set(event=event, pages={"home": True, "tables": True}, by=None)
    round_ = Round.objects.create(event=event, number=1, assignments_published=True)
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


@pytest.fixture
def clock_page(live_server, page, wave):
    """The head judge's clock page, signed in."""
    judge = User.objects.create_user("head-judge")
    judge.groups.add(Group.objects.get(name=HEAD_JUDGE))
    client = Client()
    client.force_login(judge)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    # Every script error and refused script (CSP) on the page, for the test to look at.
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on(
        "console",
        lambda message: page.errors.append(message.text) if message.type == "error" else None,
    )
    page.goto(f"{live_server.url}/organizer/events/{wave.round.event_id}/clock/")
    return page


class HeldPolls:
    """Holds the next poll of the clock's state: answered by the server at once, delivered
    to the page only when the test says so."""

    def __init__(self, page) -> None:
        self.page = page
        self.holding = False
        self.held: list = []
        page.route(STATE, self._route)

    def _route(self, route) -> None:
        if self.holding and not self.held:
            self.held.append((route, route.fetch()))
        else:
            route.continue_()

    def hold_one(self) -> None:
        """Make the page poll now (as when it comes back into view) and keep the answer."""
        self.holding, self.held = True, []
        self.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        for _ in range(100):  # Playwright calls the route's handler while the page is waited on
            if self.held:
                break
            self.page.wait_for_timeout(50)
        assert self.held, "the page polled"
        self.holding = False

    def deliver(self, card) -> dict:
        """Hand the held answer to the page; what the page made of it (clock.js tells each
        answer it dealt with in a ``clock:answer`` event: its time, version, and whether it
        was shown)."""
        route, response = self.held.pop()
        server_ms = response.json()["server_ms"]
        card.evaluate(
            "card => { if (!window.answers) card.addEventListener('clock:answer', "
            "(event) => window.answers.push(event.detail)); window.answers = []; }"
        )
        route.fulfill(response=response)
        handle = self.page.wait_for_function(
            "ms => window.answers.find((answer) => answer.serverMs === ms)", arg=server_ms
        )
        return handle.json_value()


def poll_now(card) -> None:
    """Make the page poll (as when it comes back into view) and wait for the answer."""
    seen = int(card.get_attribute("data-polls-seen") or 0)
    card.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    card.page.wait_for_function(
        "([card, seen]) => Number(card.dataset.pollsSeen || 0) > seen",
        arg=[card.element_handle(), seen],
    )


def card_of(page, wave):
    return page.locator(f"#wave-card-{wave.pk}")


def assert_no_template_text(page) -> None:
    shown = page.locator("body").inner_text()
    assert [m for m in MARKERS if m in shown] == []


def test_a_poll_sent_before_each_control_never_paints_over_its_answer(clock_page, wave):
    page = clock_page
    polls = HeldPolls(page)
    card = card_of(page, wave)
    status = card.locator("[data-clock-status]")
    expect(status).to_have_text("Not started")
    assert_no_template_text(page)

    def pause():
        card.get_by_placeholder("Reason for the pause").fill("Rules dispute at table 1")
        card.get_by_role("button", name="Pause").click()

    def end():
        card.locator("summary", has_text="End play").click()
        card.get_by_role("button", name="End play for this wave").click()

    steps = [
        (lambda: card.get_by_role("button", name="Start").click(), "Running", "running"),
        (pause, "Paused", "paused"),
        (lambda: card.get_by_role("button", name="Resume").click(), "Running", "running"),
        (end, "Ended", "ended"),
    ]
    for act, words, state in steps:
        polls.hold_one()  # the old state, answered before the control
        act()
        expect(status).to_have_text(words)
        answer = polls.deliver(card)
        # The late answer was seen and set aside: the page still shows the control's answer.
        assert answer["taken"] is False
        assert answer["version"] < int(card.get_attribute("data-version"))
        assert status.text_content() == words
        assert card.get_attribute("data-status") == state
        assert_no_template_text(page)
    assert card.get_by_role("button").count() == 0  # nothing left to do on an ended clock
    assert page.errors == []


def test_a_late_answer_to_a_control_does_not_undo_a_newer_change(clock_page, wave):
    """The head judge pauses; before the answer arrives a second head judge resumes and the
    page's poll shows it. The pause's answer, older, only leaves its result line."""
    page = clock_page
    card = card_of(page, wave)
    status = card.locator("[data-clock-status]")
    card.get_by_role("button", name="Start").click()
    expect(status).to_have_text("Running")

    held = []
    page.route(re.compile(r".*/clock/pause/$"), lambda route: held.append((route, route.fetch())))
    card.get_by_placeholder("Reason for the pause").fill("Rules dispute")
    card.get_by_role("button", name="Pause").click()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the pause was sent (and saved by the server)"
    services.clock_resume(wave=wave)  # the second head judge, elsewhere
    poll_now(card)
    expect(card).to_have_attribute("data-version", str(Clock.objects.get(wave=wave).version))
    route, response = held.pop()
    route.fulfill(response=response)
    expect(card.locator("[data-card-feedback]")).to_contain_text("clock paused")
    assert card.get_attribute("data-swaps-ignored") == "1"
    assert status.text_content() == "Running"
    # The controls follow the newest state too: running, so Pause is offered again.
    expect(card.get_by_role("button", name="Pause")).to_be_visible()
    expect(card.get_by_role("button", name="Resume")).to_have_count(0)
    assert page.errors == []


def test_a_change_made_elsewhere_brings_its_controls_but_keeps_what_is_typed(clock_page, wave):
    page = clock_page
    card = card_of(page, wave)
    status = card.locator("[data-clock-status]")
    card.get_by_role("button", name="Start").click()
    expect(status).to_have_text("Running")

    services.clock_pause(wave=wave, reason="Medical break")  # another head judge
    poll_now(card)
    expect(status).to_have_text("Paused")
    expect(card.get_by_role("button", name="Resume")).to_be_visible()

    card.get_by_placeholder("Note (optional)").first.fill("Back from the break")
    services.clock_resume(wave=wave)
    poll_now(card)
    expect(status).to_have_text("Running")
    # Someone is typing in the card: it is not replaced under their fingers.
    assert card.get_by_placeholder("Note (optional)").first.input_value() == "Back from the break"
    assert page.errors == []
