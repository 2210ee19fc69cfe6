"""The head judge's clock page: "actions keep their place (htmx, no jump to the
top)". With htmx an action answers with its wave's card, its result inside; without
JavaScript the same forms post and redirect back to the card (test_cockpit_clock_page)."""

from __future__ import annotations

import re

from django.urls import reverse

from tests.clock.test_clock_pages import control_url, login
from tests.clock.test_clock_pages import wave as wave
from tournament.models import Clock
from tournament.roles import HEAD_JUDGE

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_every_card_action_posts_with_htmx_into_its_card(client, wave):
    login(client, HEAD_JUDGE)
    page = client.get(reverse("clock:clock_control", kwargs={"pk": wave.round.event_id}))
    body = page.content.decode()
    assert f'id="wave-card-{wave.pk}"' in body
    forms = re.findall(r"<form [^>]*>", body.split(f'id="wave-card-{wave.pk}"')[1])
    start = [f for f in forms if control_url(wave, "start") in f]
    assert start, "the start form is in the card"
    # The normal action stays, for a browser without JavaScript.
    assert f'action="{control_url(wave, "start")}"' in start[0]
    assert f'hx-post="{control_url(wave, "start")}"' in start[0]
    assert f'hx-target="#wave-card-{wave.pk}"' in start[0] and 'hx-swap="innerHTML"' in start[0]


def test_an_htmx_action_answers_with_the_card_and_its_result(client, wave):
    login(client, HEAD_JUDGE)
    response = client.post(control_url(wave, "start"), **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    # Only the card's inside: no page around it, so nothing jumps to the top.
    assert "<html" not in body and "<section" not in body
    assert f'id="wave-{wave.pk}"' in body
    assert "play has started at every table" in body and 'role="status"' in body
    assert Clock.objects.filter(wave=wave).exists()
    # The card shows the new state: running, so Pause is offered, with htmx too.
    assert "Running" in body
    assert f'hx-post="{control_url(wave, "pause")}"' in body
    assert control_url(wave, "start") not in body
    # The result is in the card, not left waiting as a message for the next page.
    page = client.get(reverse("clock:clock_control", kwargs={"pk": wave.round.event_id}))
    assert "play has started at every table" not in page.content.decode()


def test_a_refused_htmx_action_says_why_in_the_card(client, wave):
    login(client, HEAD_JUDGE)
    client.post(control_url(wave, "start"), **HTMX)
    response = client.post(control_url(wave, "resume"), **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'role="alert"' in body and "<html" not in body
    response = client.post(
        control_url(wave, "adjust"), {"minutes": "0", "direction": "add", "reason": "x"}, **HTMX
    )
    body = response.content.decode()
    assert "Enter a number of minutes (1 to 240)" in body and 'role="alert"' in body
    response = client.post(
        control_url(wave, "adjust"), {"minutes": "5", "direction": "add", "reason": "Spill"}, **HTMX
    )
    assert "5 minutes added." in response.content.decode()


def test_without_htmx_the_action_still_redirects_to_the_card(client, wave):
    login(client, HEAD_JUDGE)
    response = client.post(control_url(wave, "start"))
    assert response.status_code == 302 and response.url.endswith(f"#wave-{wave.pk}")
