"""No-shows: refused before the start, confirmed with what will happen, undone
while nothing is built on them.

Championship Rules, PLAYER NO SHOW: "Game starts will not wait on any player. If a player is not
seated at the official start time of any round, the player abdicates his/her seat for the rest
of the tournament to an alternate." (Every round: tests/players/test_no_show_any_round.py.)
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from clock.services import clock_start
from players.no_show_selectors import no_show_preview, no_show_refusal
from players.no_show_services import player_undo_no_show
from players.services import Registration, player_mark_no_show, player_register
from seating.services import preseat_event
from tournament.models import Event, Player, Round, Seat
from tournament.services import event_create

NAMES = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Radia"]
ALIASES = ["Lucky Thimble", "Golden Top Hat", "Swift Boot", "Brave Cat", "Quiet Iron",
           "Red Car", "Blue Dog", "Green Ship", "Lucky Boot"]  # fmt: skip


def make_event(*, starts: datetime.datetime, places: int = 8) -> Event:
    local = timezone.localtime(starts)
    event = event_create(
        name="No-show Cup",
        organization="Club",
        venue="Hall",
        date=local.date(),
        start_time=local.time().replace(second=0, microsecond=0),
        expected_players=places,
    )
    for first, alias in zip(NAMES, ALIASES, strict=True):
        player_register(
            event=event,
            registration=Registration(
                first_name=first,
                last_name="Tester",
                date_of_birth=datetime.date(1980, 1, 1),
                signature=f"{first} Tester",
                eligibility_declared=True,
                citizenship_declared=True,
                alias=alias,
            ),
            source=Player.Source.ON_THE_DAY,
        )
    return event


@pytest.fixture
def started(db) -> Event:
    """Eight seated, Radia ("Lucky Boot") alternate 1; the start was an hour ago."""
    return make_event(starts=timezone.now() - datetime.timedelta(hours=1))


@pytest.fixture
def organizer_client(client, db):
    user = User.objects.create_user("olive")
    user.groups.add(Group.objects.get(name="Organizer"))
    client.force_login(user)
    return client


def ada(event: Event) -> Player:
    return Player.objects.get(event=event, alias="Lucky Thimble")


def test_no_show_is_refused_before_the_start(db, organizer_client):
    event = make_event(starts=timezone.now() + datetime.timedelta(hours=2))
    player = ada(event)
    assert "Not before the start" in no_show_refusal(player=player)
    page = organizer_client.get(
        reverse("players:player_no_show_confirm", kwargs={"pk": event.pk, "player_pk": player.pk})
    ).content.decode()
    # The button is disabled and says why beside it.
    assert 'id="confirm-no-show" disabled aria-describedby="no-show-why"' in page
    response = organizer_client.post(
        reverse("players:player_no_show", kwargs={"pk": event.pk, "player_pk": player.pk}),
        follow=True,
    )
    assert "Not before the start" in response.content.decode()
    player.refresh_from_db()
    assert player.status == Player.Status.PLAYER


def test_the_confirmation_names_the_alternate_who_takes_the_seat(started, organizer_client):
    player = ada(started)
    assert no_show_preview(player=player).consequence == (
        "Alternate 1, Lucky Boot (Radia Tester), takes the seat."
    )
    url = reverse(
        "players:player_no_show_confirm", kwargs={"pk": started.pk, "player_pk": player.pk}
    )
    page = organizer_client.get(url).content.decode()
    assert "Alternate 1, Lucky Boot (Radia Tester), takes the seat." in page
    assert (
        'id="confirm-no-show"' in page
        and "disabled" not in page.split('id="confirm-no-show"')[1][:20]
    )
    # Nothing happened by opening the page.
    player.refresh_from_db()
    assert player.status == Player.Status.PLAYER


def test_no_alternate_means_the_seat_stays_empty(db):
    event = make_event(starts=timezone.now() - datetime.timedelta(hours=1), places=9)
    assert "seat stays empty" in no_show_preview(player=ada(event)).consequence


def test_undo_restores_the_player_and_the_alternates_seat(started, organizer_client):
    player, boot = ada(started), Player.objects.get(alias="Lucky Boot")
    organizer_client.post(
        reverse("players:player_no_show", kwargs={"pk": started.pk, "player_pk": player.pk})
    )
    boot.refresh_from_db()
    assert boot.status == Player.Status.PLAYER and boot.replaces_id == player.pk
    # The rounds are seated after the no-show, so the alternate holds the seats now.
    preseat_event(event=started, only_checked_in=False, seed=1, time_limit=2)
    boot_seats = set(Seat.objects.filter(player=boot).values_list("pk", flat=True))
    assert len(boot_seats) == started.preliminary_rounds
    response = organizer_client.post(
        reverse("players:player_no_show_undo", kwargs={"pk": started.pk, "player_pk": player.pk})
    )
    assert response.status_code == 302
    player.refresh_from_db()
    boot.refresh_from_db()
    assert player.status == Player.Status.PLAYER
    assert (boot.status, boot.alternate_position, boot.replaces) == ("alternate", 1, None)
    assert set(Seat.objects.filter(player=player).values_list("pk", flat=True)) == boot_seats
    assert not Seat.objects.filter(player=boot).exists()


def test_undo_puts_the_alternate_back_ahead_of_the_others(db):
    event = make_event(starts=timezone.now() - datetime.timedelta(hours=1), places=7)
    # Seven seated; John ("Green Ship") alternate 1, Radia ("Lucky Boot") alternate 2.
    player = ada(event)
    player_mark_no_show(player=player)
    assert Player.objects.get(alias="Lucky Boot").alternate_position == 1
    player_undo_no_show(player=player)
    positions = dict(
        Player.objects.filter(event=event, status="alternate").values_list(
            "alias", "alternate_position"
        )
    )
    assert positions == {"Green Ship": 1, "Lucky Boot": 2}


def test_undo_is_refused_once_play_has_started(started):
    player = ada(started)
    player_mark_no_show(player=player)
    preseat_event(event=started, only_checked_in=False, seed=1, time_limit=2)
    wave = Round.objects.get(event=started, number=1).waves.first()
    clock_start(wave=wave)
    with pytest.raises(ValidationError, match="Play has started"):
        player_undo_no_show(player=player)
    player.refresh_from_db()
    assert player.status == Player.Status.NO_SHOW


def test_undo_is_refused_when_the_alternate_has_left_since(started):
    player = ada(started)
    boot = player_mark_no_show(player=player)
    boot.status = Player.Status.WITHDRAWN
    boot.save()
    with pytest.raises(ValidationError, match="no longer in the event"):
        player_undo_no_show(player=player)


def test_the_undo_page_shows_the_refusal_beside_a_disabled_button(started, organizer_client):
    player = ada(started)
    player_mark_no_show(player=player)
    url = reverse(
        "players:player_no_show_confirm", kwargs={"pk": started.pk, "player_pk": player.pk}
    )
    page = organizer_client.get(url).content.decode()
    assert 'id="undo-no-show"' in page and "goes back to alternate 1" in page
    preseat_event(event=started, only_checked_in=False, seed=1, time_limit=2)
    clock_start(wave=Round.objects.get(event=started, number=1).waves.first())
    page = organizer_client.get(url).content.decode()
    assert 'id="undo-no-show" disabled' in page and "Play has started" in page


def test_undo_of_someone_not_a_no_show_is_a_message(started, organizer_client):
    player = ada(started)
    response = organizer_client.post(
        reverse("players:player_no_show_undo", kwargs={"pk": started.pk, "player_pk": player.pk}),
        follow=True,
    )
    assert response.status_code == 200
    assert "is not a no-show" in response.content.decode()
