"""Before a wave's start its tables say "not started" on the hall display, in its polled
state and on the head judge's clock card, as the clock above them does; from the start on
they say "playing". A game is "playing" from its seating on (the status the banker moves
on), so the pages said "PLAYING" under a clock that read "NOT STARTED".
"""

from __future__ import annotations

import re

from django.urls import reverse

from clock import services
from tests.clock.test_clock_pages import login, wave  # noqa: F401 (the fixture)
from tournament.roles import HEAD_JUDGE


def _labels(body: str) -> list[str]:
    return re.findall(r'<span class="table-status" data-table-label>([^<]*)</span>', body)


def _pages(client, wave) -> tuple[list[str], list[str], list[str]]:  # noqa: F811 (the fixture)
    pk = wave.round.event_id
    hall = client.get(reverse("spectator:hall_display", kwargs={"pk": pk})).content.decode()
    state = client.get(reverse("spectator:hall_state", kwargs={"pk": pk})).json()
    card = client.get(reverse("clock:clock_control", kwargs={"pk": pk})).content.decode()
    return _labels(hall), [t["label"] for t in state["tables"]], _labels(card)


def test_tables_say_not_started_until_the_wave_starts(client, wave):  # noqa: F811
    login(client, HEAD_JUDGE)
    assert _pages(client, wave) == (["not started"], ["not started"], ["not started"])
    services.clock_start(wave=wave)
    assert _pages(client, wave) == (["playing"], ["playing"], ["playing"])
