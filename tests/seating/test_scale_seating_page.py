"""The seating page: one round at a time, the engine's report in tournament words
with its numbers folded, played rounds said, checked-in alternates left out named, and a
seat change's preview naming everyone it touches."""

from __future__ import annotations

import re

import pytest

from demo.simulation import event_simulate
from seating.services import preseat_event
from seating.words import report_summary
from tests.builders import event_with_players
from tests.seating.test_seating_pages import PIER_OPEN, log_in, seats_of, url
from tournament.models import Player
from tournament.roles import JUDGE, ORGANIZER


def _details(html: str) -> str:
    pattern = (
        r"<details>\s*<summary>The seating engine(?:'|&#x27;)s details</summary>"
        r"(.*?)</details>"
    )
    match = re.search(pattern, html, re.S)
    assert match, "the engine's numbers are folded in a <details>"
    return match.group(1)


@pytest.mark.django_db
def test_the_report_is_summed_up_in_words_and_its_numbers_folded(client):
    event = event_with_players(players=16, extra_players=2, **PIER_OPEN)
    Player.objects.filter(event=event, status=Player.Status.ALTERNATE).update(checked_in_at=None)
    preseat_event(event=event, time_limit=2)
    client = log_in(client, ORGANIZER)
    html = client.get(url("seating", event), {"round": 1}).content.decode()
    summary = html[html.index('id="seating-summary"') : html.index("<details>")]
    # 16 players, 3 rounds at tables of 4: nobody need meet anyone twice (golf 4-4-3).
    assert "Nobody meets an opponent they have already played." in summary
    assert "This is the best possible" in summary
    assert "No two members of a family sit at the same table." in summary
    assert "Repeat meetings" in _details(html) and "Repeat meetings" not in summary


def test_the_summary_says_how_far_from_the_best_possible():
    lines = report_summary({"repeat_meetings": 6, "repeat_lower_bound": 4, "family_conflicts": 1})
    assert lines == [
        "6 times a player meets someone already met at an earlier table.",
        "The best possible is 4 repeat meetings.",
        "1 time members of one family share a table.",
    ]
    assert report_summary({}) == []


@pytest.mark.django_db
def test_a_checked_in_alternate_who_is_not_seated_is_named(client):
    event = event_with_players(players=12, extra_players=2, **PIER_OPEN)  # everyone checked in
    preseat_event(event=event, time_limit=2)
    first, second = Player.objects.filter(event=event, status=Player.Status.ALTERNATE).order_by(
        "alternate_position"
    )
    Player.objects.filter(pk=second.pk).update(checked_in_at=None)
    client = log_in(client, ORGANIZER)
    html = client.get(url("seating", event), {"round": 2}).content.decode()
    block = html[html.index('id="unseated-alternates"') :]
    block = block[: block.index("</div>")]
    assert f"Alternate #1, {first.alias} ({first.full_name})" in block
    assert second.alias not in block  # not checked in: not waiting at the desk


@pytest.mark.django_db
def test_a_played_round_says_so(client):
    event = event_simulate(players=8, rounds=2, seed=1, final=False).event
    client = log_in(client, ORGANIZER)
    html = client.get(url("seating", event), {"round": 1}).content.decode()
    assert 'id="round-played"' in html
    assert "Round 1 has been played: all its 2 tables have finished." in html
    assert "Change seats" not in html
    tabs = html[html.index('class="round-tabs') : html.index("</nav>", html.index("round-tabs"))]
    assert tabs.count("· played") == 2


@pytest.mark.django_db
def test_a_swap_preview_names_the_people_it_affects(client):
    event = event_with_players(players=12, **PIER_OPEN)
    preseat_event(event=event, time_limit=2)
    seats = seats_of(event, 1)
    a = next(p for p, (table, _pos) in seats.items() if table == 1)
    b = next(p for p, (table, _pos) in seats.items() if table == 2)
    people = {p.pk: p for p in Player.objects.filter(event=event)}
    client = log_in(client, JUDGE)
    html = client.post(url("seating_change", event, round_number=1), {"player": a, "swap_with": b})
    html = html.content.decode()
    affected = re.search(r'id="seat-change-affected">(.*?)</p>', html, re.S).group(1)
    affected = affected.replace("&#x27;", "'")
    assert f"{people[a].alias} ({people[a].full_name}) goes from table 1 to table 2." in affected
    assert f"{people[b].alias} ({people[b].full_name}) goes from table 2 to table 1." in affected
    for pk, (table, _pos) in seats.items():
        if table in (1, 2) and pk not in (a, b):
            assert people[pk].full_name in affected  # their tablemates change
        elif table not in (1, 2):
            assert people[pk].full_name not in affected
    assert seats_of(event, 1) == seats  # only a preview
