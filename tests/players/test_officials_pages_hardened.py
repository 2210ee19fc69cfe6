"""Smaller holes in the officials' pages: where Cancel leads, what a browser may keep.

The eject page's Cancel follows ``next`` only when it is a path on this site; a table's
banker pages are sent ``Cache-Control: private, no-store`` (aliases, amounts, names).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.banker.banker_setup import BANKER, JUDGE, finished_tables, user_with
from tournament.models import Player, Table


@pytest.fixture
def table(db) -> Table:
    return finished_tables(players=4)[0]


def eject_page(client, table: Table, next_url: str) -> str:
    player = Player.objects.filter(event=table.round.event).first()
    url = reverse(
        "players:player_eject", kwargs={"pk": table.round.event_id, "player_pk": player.pk}
    )
    return client.get(url, {"next": next_url}).content.decode()


@pytest.mark.parametrize(
    "next_url",
    [
        "https://evil.example/phish",
        "//evil.example/phish",
        "javascript:alert(1)",
        "evil.example",
        "/\\evil.example",
    ],
)
def test_the_eject_pages_cancel_does_not_follow_another_site(client, table, next_url):
    client.force_login(user_with(JUDGE, "judge"))
    page = eject_page(client, table, next_url)
    check_in = reverse("players:check_in", kwargs={"pk": table.round.event_id})
    assert "evil.example" not in page and "javascript:" not in page
    assert f'href="{check_in}"' in page


def test_the_eject_pages_cancel_goes_back_to_a_page_of_this_site(client, table):
    client.force_login(user_with(JUDGE, "judge"))
    back = reverse("players:check_in", kwargs={"pk": table.round.event_id}) + "?q=Ada"
    page = eject_page(client, table, back)
    assert 'href="/organizer/' in page and "?q=Ada" in page


@pytest.mark.parametrize(
    "route", ["banker:banker_table", "banker:banker_sheet", "banker:bankruptcy_record"]
)
def test_a_tables_banker_pages_are_neither_shared_nor_stored(client, table, route):
    banker = user_with(BANKER, "banker")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    response = client.get(reverse(route, kwargs={"table_pk": table.pk}))
    assert response.status_code == 200
    cache_control = response["Cache-Control"]
    assert "private" in cache_control and "no-store" in cache_control


def test_the_bankers_landing_page_is_neither_shared_nor_stored(client, table):
    """A banker's list of tables opens on their current table: its aliases and clock."""
    banker = user_with(BANKER, "banker")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    response = client.get(reverse("banker:banker_tables"))
    assert response.status_code == 200
    assert {"private", "no-store"} <= {d.strip() for d in response["Cache-Control"].split(",")}


def test_signing_out_asks_the_browser_to_forget_the_sites_storage(client, table):
    client.force_login(user_with(BANKER, "banker"))
    page = client.get(reverse("tournament:home")).content.decode()
    # Every page's sign-out form runs logout.js, which sends or asks about waiting actions.
    assert "js/logout.js" in page and "data-waiting-question=" in page
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache", "storage"'
    assert "_auth_user_id" not in client.session
