"""Tournament Kit, TIMEKEEPING: "The exact starting time of play must be announced for each round."

The hall display and the public event home show when the head judge actually started the
running round's clock, whatever the schedule said; the banker's clock page shows the
table's order of play. Times are UTC here (settings.TIME_ZONE) in English format.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from clock import services as clock_services
from spectator.services import release_set
from tournament.models import Player, Round, Seat, Table, Wave
from tournament.play_order import table_record_play_order

STARTED = datetime.datetime(2030, 4, 20, 9, 32, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def clean_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def table(event) -> Table:
    round_ = Round.objects.create(event=event, number=1, assignments_published=True)
    wave = Wave.objects.create(
        round=round_,
        number=1,
        scheduled_start=datetime.datetime(2030, 4, 20, 9, 30, tzinfo=datetime.UTC),
    )
    table = Table.objects.create(round=round_, wave=wave, number=1)
    for position, alias in enumerate(["Thimble", "Hat", "Car", "Boot"], start=1):
        player = Player.objects.create(
            event=event,
            first_name=alias,
            last_name="Realname",
            date_of_birth=datetime.date(1990, 1, 1),
            signature=alias,
            signed_at=timezone.now(),
            alias=alias,
        )
        Seat.objects.create(round=round_, table=table, player=player, position=position)
    return table


def test_the_hall_and_the_event_home_show_when_play_actually_started(client, event, table):
    release_set(event=event, pages={"home": True}, by=None)
    hall = reverse("spectator:hall_display", kwargs={"pk": event.pk})
    state = reverse("spectator:hall_state", kwargs={"pk": event.pk})
    home = reverse("spectator:event_home", kwargs={"pk": event.pk})
    assert "Play started" not in client.get(hall).content.decode()
    assert client.get(state).json()["texts"]["started"] == ""
    assert "Play has not started yet." in client.get(home).content.decode()

    # Scheduled for 9:30, started two minutes late: the hall says 9:32.
    clock_services.clock_start(wave=table.wave, now=STARTED)
    assert "Play started at 9:32 AM" in client.get(hall).content.decode()
    assert client.get(state).json()["texts"]["started"] == "Play started at 9:32 AM"
    body = client.get(home).content.decode()
    assert "Play started at 9:32 AM<" in body and "started 9:32 AM<" in body


def test_the_bankers_clock_page_shows_the_order_of_play(client, event, table):
    from django.contrib.auth.models import Group, User

    banker = User.objects.create_user("bert", password="pw")
    banker.groups.add(Group.objects.get(name="Banker"))
    table.banker = banker
    table.save(update_fields=["banker"])
    client.force_login(banker)
    page = reverse("banker:banker_table", kwargs={"table_pk": table.pk})
    assert "Not rolled yet." in client.get(page).content.decode()
    seated = list(table.seats.order_by("position").values_list("player_id", flat=True))
    # Car (seat 3) rolled highest: Car, Boot, Thimble, Hat (Championship Rules: "play then continues
    # to the left of the first person").
    table_record_play_order(table=table, token_order=seated, starter=seated[2])
    body = client.get(page).content.decode()
    order = body[body.index("Order of play") :]
    positions = [order.index(alias) for alias in ("Car", "Boot", "Thimble", "Hat")]
    assert positions == sorted(positions) and "starts" in order
