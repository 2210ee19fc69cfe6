"""The head judge's clock page: the live round first, the ended ones folded,
actions come back to their wave's card, and times in minutes and seconds."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from clock import services
from clock.templatetags.clock_format import signed_duration
from tests.clock.test_clock_pages import control_url, login
from tests.clock.test_clock_pages import wave as wave
from tournament.models import Round, Table, Wave
from tournament.roles import HEAD_JUDGE


@pytest.fixture
def two_rounds(wave):
    """Round 1 (the fixture's) and a round 2 with one wave and a table."""
    round_2 = Round.objects.create(event=wave.round.event, number=2)
    wave_2 = Wave.objects.create(round=round_2, number=1)
    Table.objects.create(round=round_2, wave=wave_2, number=1)
    return wave, wave_2


def page_of(client, wave) -> str:
    url = reverse("clock:clock_control", kwargs={"pk": wave.round.event_id})
    return client.get(url).content.decode()


def test_the_live_round_comes_first_and_the_ended_ones_fold(client, two_rounds):
    first, second = two_rounds
    login(client, HEAD_JUDGE)
    services.clock_start(wave=first)
    services.clock_end(wave=first, reason="")
    services.clock_start(wave=second)
    body = page_of(client, first)
    folded = body.index('id="clocks-ended"')
    # Round 2 is live: its card comes before the fold, round 1's inside it.
    assert body.index(f'id="wave-{second.pk}"') < folded < body.index(f'id="wave-{first.pk}"')
    assert "1 wave ended" in body


def test_an_action_comes_back_to_its_wave(client, wave):
    login(client, HEAD_JUDGE)
    response = client.post(control_url(wave, "start"))
    assert response.status_code == 302 and response.url.endswith(f"#wave-{wave.pk}")
    response = client.post(
        control_url(wave, "adjust"), {"minutes": "5", "direction": "add", "reason": "Spill"}
    )
    assert response.url.endswith(f"#wave-{wave.pk}")


def test_the_log_says_minutes_and_seconds(client, wave):
    login(client, HEAD_JUDGE)
    services.clock_start(wave=wave)
    services.clock_adjust(wave=wave, seconds=5 * 60, reason="Spill", by=None)
    body = page_of(client, wave)
    assert "(+5:00)" in body and "300 s" not in body


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(300, "+5:00"), (-90, "-1:30"), (5254, "+87:34"), (30, "+0:30"), (0, "0:00")],
)
def test_signed_duration(seconds, shown):
    assert signed_duration(seconds) == shown


def test_an_ended_wave_says_how_many_tables_it_had_without_listing_them(client, two_rounds):
    """At 2,000 players a wave is 250 tables, and a day's waves add up: the page lists the
    tables of the waves playing or to come, and only counts those of a wave that ended."""
    first, second = two_rounds
    Table.objects.create(round=second.round, wave=second, number=2)
    third = Wave.objects.create(
        round=Round.objects.create(event=first.round.event, number=3), number=1
    )
    for number in (1, 2, 3):
        Table.objects.create(round=third.round, wave=third, number=number)
    Table.objects.create(round=first.round, wave=first, number=2)
    login(client, HEAD_JUDGE)
    services.clock_start(wave=first)
    services.clock_end(wave=first, reason="")
    services.clock_start(wave=second)
    body = page_of(client, first)
    listed = {int(pk) for pk in re.findall(r'data-table-pk="(\d+)"', body)}
    assert listed == set(
        Table.objects.filter(wave__in=[second, third]).values_list("pk", flat=True)
    )
    ended = body[body.index(f'id="wave-{first.pk}"') :]
    assert "2 tables" in ended[: ended.index("</p>")]
