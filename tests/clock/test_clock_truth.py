"""The clock shows the truth at once.

Every control of the head judge answers (with htmx) with its wave's card drawn from the
clock as saved after the change. The card embeds the state the pages poll, with the clock's
version: one more with every change, so a page tells an answer sent before a change from
one sent after it (static/js/clock.js ignores the older one; the browser shows it in
tests/browser/test_clock_truth_browser.py). No clock page shows raw template text, in
any state of any wave.
"""

from __future__ import annotations

import datetime
import importlib
import json
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from clock import services
from tests.clock.test_clock_pages import control_url, login
from tests.clock.test_clock_pages import wave as wave
from tournament.models import Clock, ClockAction, Player, Round, Seat, Table, Wave
from tournament.roles import BANKER, HEAD_JUDGE, ORGANIZER

HTMX = {"HTTP_HX_REQUEST": "true"}
MARKERS = ("{#", "#}", "{%", "%}", "{{", "}}")


def card_state(body: str, wave: Wave) -> dict:
    """The state a card was drawn from, as clock.js reads it."""
    match = re.search(
        rf'<script id="clock-state-{wave.pk}" type="application/json">(.*?)</script>', body, re.S
    )
    assert match, "the card embeds its state"
    return json.loads(match.group(1))


def status_line(body: str) -> tuple[str, str]:
    """The status the card prints: (its data-status, its words)."""
    match = re.search(r'data-clock-status data-status="(\w+)">([^<]*)<', body)
    assert match, "the card prints a status"
    return match.group(1), match.group(2).strip()


def offered(body: str, wave: Wave) -> set[str]:
    """The controls the card offers for ``wave``, by the action they post to."""
    actions = ("start", "pause", "resume", "adjust", "end")
    return {a for a in actions if f'hx-post="{control_url(wave, a)}"' in body}


def state_url(wave: Wave) -> str:
    return reverse("clock:wave_clock_state", kwargs={"pk": wave.round.event_id, "wave_pk": wave.pk})


def card_url(wave: Wave) -> str:
    return reverse("clock:clock_card", kwargs={"pk": wave.round.event_id, "wave_pk": wave.pk})


# --- Every control answers with the state it made ---------------------------------------------


def test_each_control_answers_with_the_state_it_made(client, wave):
    login(client, HEAD_JUDGE)
    steps = [
        ("start", {}, "running", "Running", {"pause", "adjust", "end"}),
        ("pause", {"reason": "Rules dispute"}, "paused", "Paused", {"resume", "adjust", "end"}),
        ("resume", {}, "running", "Running", {"pause", "adjust", "end"}),
        ("end", {"reason": "All tables done"}, "ended", "Ended", set()),
    ]
    for action, data, status, words, controls in steps:
        response = client.post(control_url(wave, action), data, **HTMX)
        assert response.status_code == 200
        body = response.content.decode()
        assert status_line(body) == (status, words), action
        assert card_state(body, wave)["status"] == status, action
        assert offered(body, wave) == controls, action


def test_every_change_gives_a_newer_version_which_the_polls_repeat(client, wave):
    login(client, HEAD_JUDGE)
    page = client.get(reverse("clock:clock_control", kwargs={"pk": wave.round.event_id}))
    before = card_state(page.content.decode(), wave)
    assert (before["status"], before["version"]) == ("not_started", 0)
    versions = [before["version"]]
    steps = [
        ("start", {}),
        ("adjust", {"minutes": "5", "direction": "add", "reason": "Late start"}),
        ("pause", {"reason": "Rules dispute"}),
        ("resume", {}),
        ("end", {}),
    ]
    for action, data in steps:
        answer = client.post(control_url(wave, action), data, **HTMX)
        answered = card_state(answer.content.decode(), wave)
        polled = client.get(state_url(wave)).json()
        hall = client.get(reverse("spectator:hall_state", kwargs={"pk": wave.round.event_id}))
        assert answered["version"] > versions[-1], action
        assert (polled["version"], polled["status"]) == (answered["version"], answered["status"])
        assert hall.json()["version"] == answered["version"]
        versions.append(answered["version"])
    # A refused move changes nothing, the version included.
    refused = client.post(control_url(wave, "resume"), **HTMX).content.decode()
    assert 'role="alert"' in refused
    assert card_state(refused, wave)["version"] == versions[-1]
    assert Clock.objects.get(wave=wave).version == versions[-1]


def test_the_card_url_gives_the_card_as_another_official_left_it(client, wave):
    """What the clock page fetches when its poll finds a newer version than its controls."""
    login(client, HEAD_JUDGE)
    client.post(control_url(wave, "start"), **HTMX)
    other = User.objects.create_user("second-head-judge")
    services.clock_pause(wave=wave, reason="Medical break", by=other)
    response = client.get(card_url(wave), **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body
    assert status_line(body) == ("paused", "Paused")
    assert offered(body, wave) == {"resume", "adjust", "end"}
    assert card_state(body, wave)["version"] == Clock.objects.get(wave=wave).version
    assert "no-cache" in response["Cache-Control"]


def test_the_clock_page_is_never_served_from_the_browsers_cache(client, wave):
    login(client, HEAD_JUDGE)
    response = client.get(reverse("clock:clock_control", kwargs={"pk": wave.round.event_id}))
    assert "no-store" in response["Cache-Control"]


def test_a_clock_running_before_the_version_gets_one_per_logged_change(wave):
    """The migration's count for a clock already running when the version arrived."""
    migration = importlib.import_module("tournament.migrations.0015_clock_version")
    now = timezone.now()
    services.clock_start(wave=wave, now=now - datetime.timedelta(minutes=20))
    services.clock_pause(wave=wave, reason="Spill", now=now - datetime.timedelta(minutes=10))
    services.clock_resume(wave=wave, now=now - datetime.timedelta(minutes=5))
    Clock.objects.update(version=0)
    from django.apps import apps

    migration.count_the_changes(apps, None)
    assert Clock.objects.get().version == 3 == ClockAction.objects.count()


# --- No template text on any clock page --------------------------------------------------------


class _Shown(HTMLParser):
    """The text and attribute values of a page, without its scripts (JSON data is not shown)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self._in_script = tag == "script"
        self.parts.extend(value for _name, value in attrs if value)

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if not self._in_script:
            self.parts.append(data)


def raw_template_text(html: str) -> list[str]:
    parser = _Shown()
    parser.feed(html)
    shown = "\n".join(parser.parts)
    return [marker for marker in MARKERS if marker in shown]


def test_the_check_finds_a_comment_django_does_not_know():
    assert raw_template_text("<p>{# spans\n two lines #}</p>") == ["{#", "#}"]
    assert raw_template_text('<p title="{{ x }}">ok</p>') == ["{{", "}}"]
    assert raw_template_text('<script type="application/json">{"a": {"b": 1}}</script>') == []


def _second_round(event) -> Round:
    """Round 2 in two waves of one table each, so the page shows several waves at once."""
    round_ = Round.objects.create(event=event, number=2, assignments_published=True)
    players = list(Player.objects.filter(event=event).order_by("pk"))
    for number, seated in ((1, players[:2]), (2, players[2:4])):
        wave = Wave.objects.create(round=round_, number=number)
        table = Table.objects.create(round=round_, wave=wave, number=number)
        for position, player in enumerate(seated, start=1):
            Seat.objects.create(round=round_, table=table, player=player, position=position)
    return round_


def _clock_pages(client, event, waves, officials) -> dict[str, str]:
    """Every clock page of ``event`` as head judge, organizer and banker see it, by name."""
    pages = {}
    for role, user in officials.items():
        client.force_login(user)
        if role != BANKER:
            url = reverse("clock:clock_control", kwargs={"pk": event.pk})
            pages[f"{role} clock page"] = client.get(url).content.decode()
            for wave in waves:
                body = client.get(card_url(wave), **HTMX).content.decode()
                pages[f"{role} card of {wave.round} {wave}"] = body
        else:
            for table in Table.objects.filter(round__event=event):
                url = reverse("banker:banker_table", kwargs={"table_pk": table.pk})
                pages[f"banker page of {table.round} {table}"] = client.get(url).content.decode()
    client.logout()
    pages["hall display"] = client.get(
        reverse("spectator:hall_display", kwargs={"pk": event.pk})
    ).content.decode()
    return pages


@pytest.fixture
def officials(client) -> dict[str, User]:
    return {role: login(client, role) for role in (HEAD_JUDGE, ORGANIZER, BANKER)}


def test_no_clock_page_shows_template_text_in_any_state(client, wave, officials):
    event = wave.round.event
    round_2 = _second_round(event)
    first, second = round_2.waves.order_by("number")
    Table.objects.update(banker=officials[BANKER])
    waves = [wave, first, second]
    now = timezone.now()
    states = [
        ("nothing started", lambda: None),
        ("round 1 running", lambda: services.clock_start(wave=wave, now=now)),
        ("round 1 paused", lambda: services.clock_pause(wave=wave, reason="Dispute", now=now)),
        ("round 1 resumed", lambda: services.clock_resume(wave=wave, now=now)),
        ("round 1 ended", lambda: services.clock_end(wave=wave, now=now)),
        # Started 100 minutes ago on a 90-minute round: the time is up, not ended.
        (
            "wave 1 time up",
            lambda: services.clock_start(wave=first, now=now - datetime.timedelta(minutes=100)),
        ),
        ("wave 2 running", lambda: services.clock_start(wave=second, now=now)),
        ("wave 2 paused", lambda: services.clock_pause(wave=second, reason="Break", now=now)),
        ("wave 1 ended", lambda: services.clock_end(wave=first, now=now)),
        ("wave 2 ended", lambda: services.clock_end(wave=second, now=now)),
    ]
    seen = set()
    for name, change in states:
        change()
        for page, body in _clock_pages(client, event, waves, officials).items():
            assert raw_template_text(body) == [], f"{page}, {name}"
            if "data-clock-status data-status" in body:
                seen.add(status_line(body)[0])
    # The walk met every state a clock can be in.
    assert seen == {"not_started", "running", "paused", "time_up", "ended"}
