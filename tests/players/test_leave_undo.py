"""Withdrawals and ejections: the result says what happened with an undo beside
it, and the undo is refused, with the reason, once something was built on it.

The requirement: "Nothing irreversible on one tap. [...] an undo while nothing has been built on
it yet." Championship Rules, EJECTION OF PLAYER and ALTERNATES give the rules the undo puts back.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from clock.services import clock_start
from players.leave_selectors import leave_undo_refusal
from players.leave_services import player_undo_leave
from players.services import alternate_fill_seat, player_eject, player_withdraw
from scoring.models import TableSheet
from seating.services import preseat_event
from tests.players.test_cockpit_no_show import make_event
from tests.url_names import qualified
from tournament.models import Event, Player, Round, Seat

AN_HOUR_AGO = datetime.timedelta(hours=1)


@pytest.fixture
def event(db) -> Event:
    """Seven seated, two alternates (Green Ship 1, Lucky Boot 2); started an hour ago."""
    return make_event(starts=timezone.now() - AN_HOUR_AGO, places=7)


def _client_for(client, group: str, name: str):
    user = User.objects.create_user(name)
    user.groups.add(Group.objects.get(name=group))
    client.force_login(user)
    return client


def by_alias(alias: str) -> Player:
    return Player.objects.get(alias=alias)


def urls(event: Event, player: Player) -> dict[str, str]:
    kwargs = {"pk": event.pk, "player_pk": player.pk}
    return {
        name: reverse(qualified(name), kwargs=kwargs)
        for name in ("player_withdraw", "player_eject", "player_leave_result", "player_leave_undo")
    }


def test_a_withdrawal_shows_its_result_with_the_undo_and_is_undone(event, client):
    client = _client_for(client, "Organizer", "olive")
    ada = by_alias("Lucky Thimble")
    players = reverse("players:player_list", kwargs={"pk": event.pk})
    response = client.post(urls(event, ada)["player_withdraw"], {"next": players})
    assert response.status_code == 302
    assert response.url.startswith(urls(event, ada)["player_leave_result"])
    page = client.get(response.url).content.decode()
    assert "Lucky Thimble has withdrawn" in page
    assert 'id="undo-leave" disabled' not in page and 'id="undo-leave"' in page
    assert "is a seated player again" in page
    # The players list offers the undo too, on the row of those who left.
    listing = client.get(players).content.decode()
    assert "Undo the departure of Lucky Thimble" in listing

    response = client.post(urls(event, ada)["player_leave_undo"], {"next": players})
    assert (response.status_code, response.url) == (302, players)
    ada.refresh_from_db()
    assert (ada.status, ada.status_before, ada.status_reason) == ("player", "", "")


def test_an_ejected_alternate_comes_back_at_their_place(event):
    ship, boot = by_alias("Green Ship"), by_alias("Lucky Boot")
    assert (ship.alternate_position, boot.alternate_position) == (1, 2)
    player_eject(player=ship, reason="Tapped by mistake")
    boot.refresh_from_db()
    assert boot.alternate_position == 1  # the gap closed
    player_undo_leave(player=ship)
    ship.refresh_from_db()
    boot.refresh_from_db()
    assert (ship.status, ship.alternate_position) == ("alternate", 1)
    assert boot.alternate_position == 2


def test_refused_once_a_round_has_started_since(event, client):
    client = _client_for(client, "Organizer", "olive")
    ada = by_alias("Lucky Thimble")
    player_withdraw(player=ada)
    preseat_event(event=event, only_checked_in=False, seed=1, time_limit=2)
    clock_start(wave=Round.objects.get(event=event, number=1).waves.first())
    ada.refresh_from_db()
    assert "Round 1 has started since" in leave_undo_refusal(player=ada)
    page = client.get(urls(event, ada)["player_leave_result"]).content.decode()
    assert 'id="undo-leave" disabled aria-describedby="undo-why"' in page
    assert "Round 1 has started since: play went on without Lucky Thimble" in page
    response = client.post(urls(event, ada)["player_leave_undo"], follow=True)
    assert "Round 1 has started since" in response.content.decode()
    ada.refresh_from_db()
    assert ada.status == Player.Status.WITHDRAWN


def test_refused_once_the_seat_went_to_an_alternate(db):
    event = make_event(starts=timezone.now() - AN_HOUR_AGO, places=8)  # one alternate
    ada = by_alias("Lucky Thimble")
    player_withdraw(player=ada)
    assert leave_undo_refusal(player=by_alias("Lucky Thimble")) is None
    assert alternate_fill_seat(event=event).alias == "Lucky Boot"
    ada.refresh_from_db()
    assert "has been given to an alternate" in leave_undo_refusal(player=ada)
    with pytest.raises(ValidationError, match="given to an alternate"):
        player_undo_leave(player=ada)


def test_refused_once_the_tables_score_sheet_was_written_since(event):
    preseat_event(event=event, only_checked_in=False, seed=1, time_limit=2)
    ada = by_alias("Lucky Thimble")
    player_eject(player=ada, reason="Hid money under the board")
    table = Seat.objects.filter(player=ada).order_by("round__number").first().table
    TableSheet.objects.create(table=table, version=1, data={})
    ada.refresh_from_db()
    assert "score sheet" in leave_undo_refusal(player=ada)


def test_a_judge_undoes_an_ejection_but_not_a_withdrawal(event, client):
    client = _client_for(client, "Judge", "jules")
    ship, boot = by_alias("Green Ship"), by_alias("Lucky Boot")
    response = client.post(urls(event, ship)["player_eject"], {"reason": "Wrong person"})
    assert response.url == urls(event, ship)["player_leave_result"]
    assert 'id="undo-leave"' in client.get(response.url).content.decode()
    client.post(urls(event, ship)["player_leave_undo"])
    ship.refresh_from_db()
    assert ship.status == Player.Status.ALTERNATE

    player_withdraw(player=boot)
    page = client.get(urls(event, boot)["player_leave_result"]).content.decode()
    assert "Only the organizer can undo a withdrawal." in page
    client.post(urls(event, boot)["player_leave_undo"])
    boot.refresh_from_db()
    assert boot.status == Player.Status.WITHDRAWN


def test_nothing_to_undo_for_a_no_show_or_a_seated_player(event, client):
    client = _client_for(client, "Organizer", "olive")
    ada = by_alias("Lucky Thimble")
    assert "no withdrawal or ejection" in leave_undo_refusal(player=ada)
    response = client.post(urls(event, ada)["player_leave_undo"], follow=True)
    assert response.status_code == 200
    assert "no withdrawal or ejection of Lucky Thimble to undo" in response.content.decode()
