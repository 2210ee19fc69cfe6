"""Finals invitations followed from the emails a real SMTP server received, in a browser.

Issue: "the messages, their links followed by a browser to an accepted and a declined place,
a link used twice, an expired one, and one for another series". North's qualifiers are I,
E, A and B; F is next (tests/series/series_helpers.py).
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.utils import timezone

from series import services
from series.models import Entrant, Series
from tests.mail_server import smtp_server
from tests.series.series_helpers import enter, play_round, regional, three_tables

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "invitations"


@pytest.fixture
def inbox(live_server):
    with smtp_server(site_url=live_server.url) as received:
        yield received


def _series(name):
    series = services.series_create(
        name=name, season="2030", finals=regional(f"{name} Finals", day=28)
    )
    Series.objects.filter(pk=series.pk).update(
        answers_due=timezone.now() + datetime.timedelta(days=10)
    )
    north = regional(f"{name} North", day=10)
    services.series_add_event(series=series, event=north)
    return series, north


def _link(inbox, player) -> str:
    [link] = inbox.to(player.email)[-1].links("/answer/")
    return link


def test_links_from_the_emails_accept_decline_and_refuse(live_server, page, inbox):
    series, north = _series("Browser Series")
    p = enter(north, "ABCDEFGHIJKL")
    play_round(north, three_tables(p))
    assert sorted(r for m in inbox.received for r in m.envelope_to) == sorted(
        p[k].email for k in "IEAB"
    )

    # Accepted.
    page.goto(_link(inbox, p["I"]))
    assert "Your place in the Browser Series Finals" in page.inner_text("h1")
    page.get_by_role("button", name="Accept my place").click()
    page.wait_for_load_state()
    assert "you accepted your place" in page.inner_text("[data-link-state]")
    assert Entrant.objects.get(player=p["I"]).response == "accepted"

    # Declined: the place passes to F, who is emailed a link at once.
    page.goto(_link(inbox, p["B"]))
    page.get_by_label("I give up my place").check()
    page.get_by_role("button", name="Decline my place").click()
    page.wait_for_load_state()
    assert "it has passed to the next player" in page.inner_text("[data-link-state]")
    assert Entrant.objects.get(player=p["F"]).status == "qualifier"
    page.goto(_link(inbox, p["F"]))
    assert "rank 5" in page.inner_text("main")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "answer-open.png"), full_page=True)

    # Used twice: the page says so and offers no button.
    page.goto(_link(inbox, p["I"]))
    assert "This link has been used" in page.inner_text("main")
    assert page.get_by_role("button", name="Decline my place").count() == 0

    # For another series: refused, nothing changes.
    other, _north = _series("Other Series")
    token = _link(inbox, p["E"]).rstrip("/").rsplit("/", 1)[1]
    page.goto(f"{live_server.url}/series/{other.pk}/answer/{token}/")
    assert page.inner_text("[data-link-state]") == (
        "This link belongs to another series. Nothing was changed."
    )

    # Expired: the deadline has passed.
    Series.objects.filter(pk=series.pk).update(answers_due=timezone.now())
    page.goto(_link(inbox, p["E"]))
    assert "The time to answer ended" in page.inner_text("[data-link-state]")
    assert page.get_by_role("button", name="Accept my place").count() == 0
    assert Entrant.objects.get(player=p["E"]).response == "pending"
