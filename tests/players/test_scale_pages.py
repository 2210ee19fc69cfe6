"""The organizer's pages of a big event answer in a number of queries that does
not grow with the event (players, check-in, seating, results, standings, the cockpit), a
page at a time.

Each page is read for a simulated event of 8 players and one of 44; a page that makes a
query per player, per table or per seat makes more queries for the bigger one and fails.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from demo.simulation import event_simulate
from players import selectors as players_selectors
from players import views as organizer_views
from seating import selectors as seating_selectors
from tournament.models import Player, Round
from tournament.roles import ORGANIZER

# The most queries any of these pages may make (sessions, permissions, the page's reads).
MAX_QUERIES = 40


def _pages(event) -> dict[str, str]:
    kwargs = {"pk": event.pk}
    return {
        "players": reverse("players:player_list", kwargs=kwargs),
        "players, searched": reverse("players:player_list", kwargs=kwargs) + "?q=a",
        "players, page 2": reverse("players:player_list", kwargs=kwargs) + "?page=2",
        "check-in": reverse("players:check_in", kwargs=kwargs),
        "check-in, searched": reverse("players:check_in", kwargs=kwargs) + "?q=e",
        "seating": reverse("seating:seating", kwargs=kwargs),
        "seating, round 2": reverse("seating:seating", kwargs=kwargs) + "?round=2",
        "results": reverse("scoring:results_round", kwargs={**kwargs, "round_number": 1}),
        "standings": reverse("scoring:standings", kwargs=kwargs),
        "cockpit": reverse("cockpit:cockpit", kwargs=kwargs),
    }


def _organizer(client):
    user, _ = User.objects.get_or_create(username="organizer-scale")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    return client


def _queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(queries)


@pytest.fixture
def small_pages(monkeypatch):
    """Pages of 10 so that 44 players fill several pages of every list."""
    monkeypatch.setattr(players_selectors, "ROSTER_PAGE_SIZE", 10)
    monkeypatch.setattr(seating_selectors, "SEATING_PAGE_SIZE", 4)
    monkeypatch.setattr(organizer_views, "CHECK_IN_PAGE_SIZE", 10)


@pytest.mark.django_db
def test_the_organizers_pages_make_as_many_queries_for_44_players_as_for_8(client, small_pages):
    small = event_simulate(players=8, rounds=2, seed=1, final=False).event
    big = event_simulate(players=44, rounds=2, seed=1, final=False).event
    client = _organizer(client)
    pairs = zip(_pages(small).items(), _pages(big).values(), strict=True)
    for (name, small_path), big_path in pairs:
        _queries(client, small_path)  # warm: the session, the permissions cache
        counts = (_queries(client, small_path), _queries(client, big_path))
        assert counts[1] <= counts[0], f"{name}: {counts[0]} queries for 8, {counts[1]} for 44"
        assert counts[1] <= MAX_QUERIES, f"{name}: {counts[1]} queries"


@pytest.mark.django_db
def test_lists_show_a_page_at_a_time_and_search_finds_anyone(client, small_pages):
    event = event_simulate(players=44, rounds=1, seed=2, final=False).event
    client = _organizer(client)
    pages = _pages(event)
    players = list(Player.objects.filter(event=event, status=Player.Status.PLAYER))
    last = max(players, key=lambda p: (p.last_name, p.first_name, p.pk))

    first_page = client.get(pages["players"]).content.decode()
    assert "44 players of 44 places" in first_page  # the count is the event's, not the page's
    assert "Page 1 of 5" in first_page
    assert f'id="player-{last.pk}"' not in first_page
    assert f'id="player-{last.pk}"' in client.get(pages["players"] + "?page=5").content.decode()
    found = client.get(pages["players"], {"q": f"{last.first_name} {last.last_name}"})
    assert f'id="player-{last.pk}"' in found.content.decode()
    assert "Page 1 of" not in found.content.decode()

    desk = client.get(pages["check-in"]).content.decode()
    assert desk.count('class="check-in-row') == 10
    found = client.get(pages["check-in"], {"q": last.alias}).content.decode()
    assert f'id="check-in-{last.pk}"' in found
    # Out-of-range or nonsense pages show the last or first page, never an error.
    for page in ("999", "x", "-1"):
        assert client.get(pages["check-in"], {"page": page}).status_code == 200
        assert client.get(pages["players"], {"page": page}).status_code == 200
        assert client.get(pages["seating"], {"page": page, "round": "1"}).status_code == 200
    assert client.get(pages["seating"], {"round": "99"}).status_code == 200


@pytest.mark.django_db
def test_the_seating_page_shows_one_round_a_page_of_tables_at_a_time(client, small_pages):
    event = event_simulate(players=44, rounds=2, seed=3, final=False).event
    client = _organizer(client)
    page = client.get(_pages(event)["seating"], {"round": 2}).content.decode()
    assert 'id="round-2"' in page and 'id="round-1"' not in page
    # 44 players sit at 11 tables: 4 on a page.
    assert page.count('class="card seating-table"') == 4
    assert "Page 1 of 3" in page
    last = client.get(_pages(event)["seating"], {"round": 2, "page": 3}).content.decode()
    assert last.count('class="card seating-table"') == 3
    assert Round.objects.filter(event=event).count() == 2
