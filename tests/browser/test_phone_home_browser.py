"""The event home on a spectator's phone (390 x 844), before, during and after the day, in
English and in Hindi: the first screen holds what matters at that moment, and the clock
speaks the reader's language. Screenshots in ``artifacts/phone-home/``."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import translation

from clock.pages import STATUS_LABELS
from clock.services import clock_start
from clock.timing import Status
from demo.simulation import event_simulate
from tests.browser.test_page_crawl import _axe_violations
from tests.builders import an_event
from tournament.models import Wave

ARTIFACTS = Path("artifacts/phone-home")
PHONE = {"width": 390, "height": 844}


def _days():
    before = an_event(name="Spring Open")
    during = event_simulate(players=16, seed=2, name="Summer Open")
    clock_start(wave=Wave.objects.filter(round=during.final).first())
    after = event_simulate(players=16, seed=5, play_final=True, name="Autumn Open").event
    return {"before": before, "during": during.event, "after": after}


def _first_screen(tab) -> str:
    """The text visible without scrolling."""
    return tab.evaluate(
        """() => [...document.querySelectorAll('main *')]
            .filter(e => e.children.length === 0 && e.checkVisibility()
                     && e.getBoundingClientRect().top < window.innerHeight)
            .map(e => e.textContent.trim()).join(' ')"""
    )


@pytest.mark.parametrize("language", ["en", "hi"])
def test_the_phone_home_before_during_and_after_the_day(browser, live_server, language):
    days = _days()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    with translation.override(language):
        running = str(STATUS_LABELS[Status.RUNNING])
    for stage, event in days.items():
        tab.goto(f"{live_server.url}/events/{event.pk}/")
        tab.wait_for_load_state("load")
        if stage == "during":
            tab.wait_for_function(
                "() => document.querySelector('[data-clock-status]').textContent.trim() !== ''"
            )
        tab.screenshot(path=ARTIFACTS / f"{stage}-{language}.png", full_page=True)
        first = _first_screen(tab)
        if stage == "before":
            assert event.venue in first
        elif stage == "during":
            # The clock, running, in the reader's language, on the first screen.
            assert running in first and tab.locator("[data-clock-remaining]").is_visible()
            assert event.venue not in first
        else:
            winner = tab.locator(".home-winner .winner").inner_text()
            assert winner.strip() and winner.split(" · ")[0] in first
            assert tab.locator("[data-clock]").count() == 0
        assert tab.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        assert _axe_violations(tab) == []
    context.close()
