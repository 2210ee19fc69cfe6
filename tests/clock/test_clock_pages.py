"""The clock's pages: the head judge's controls, the hall display, the banker's table.

Refused moves come back as messages and change nothing; the hall display shows aliases,
never real names; the JSON state carries the server's time for the page's offset.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone

from clock import services
from spectator.services import release_set
from tournament.models import Announcement, Clock, ClockAction, Player, Round, Seat, Table, Wave
from tournament.roles import BANKER, HEAD_JUDGE, ORGANIZER


@pytest.fixture
def wave(event) -> Wave:
    # The hall shows only what is released (tests/project/test_personal_data.py): here, everything.
    release_set(event=event, pages={"home": True, "tables": True}, by=None)
    round_ = Round.objects.create(event=event, number=1, assignments_published=True)
    wave = Wave.objects.create(round=round_, number=1)
    table = Table.objects.create(round=round_, wave=wave, number=1)
    for position, (first, alias) in enumerate(
        [("Ada", "Lucky Thimble"), ("Bo", "Top Hat"), ("Cy", "Race Car"), ("Di", "Old Boot")],
        start=1,
    ):
        player = Player.objects.create(
            event=event,
            first_name=first,
            last_name="Realname",
            date_of_birth=datetime.date(1990, 1, 1),
            signature=first,
            signed_at=timezone.now(),
            alias=alias,
        )
        Seat.objects.create(round=round_, table=table, player=player, position=position)
    return wave


def login(client, role: str) -> User:
    user = User.objects.create_user(role.lower().replace(" ", "-"), password="pw")
    user.groups.add(Group.objects.get(name=role))
    client.force_login(user)
    return user


def control_url(wave: Wave, action: str) -> str:
    return reverse(f"clock:clock_{action}", kwargs={"pk": wave.round.event_id, "wave_pk": wave.pk})


def last_message(response) -> str:
    """The newest message (an earlier action's may still be waiting in the session)."""
    return [str(m) for m in response.context["messages"]][-1]


def test_the_head_judge_starts_pauses_and_resumes(client, wave):
    judge = login(client, HEAD_JUDGE)
    page = reverse("clock:clock_control", kwargs={"pk": wave.round.event_id})
    body = client.get(page).content.decode()
    assert "Not started" in body and control_url(wave, "start") in body

    response = client.post(control_url(wave, "start"), follow=True)
    assert "play has started at every table" in last_message(response)
    assert Clock.objects.get().started_at is not None
    assert Round.objects.get().started_at is not None

    response = client.post(control_url(wave, "start"), follow=True)
    assert last_message(response) == "This wave’s clock has already started."
    assert ClockAction.objects.count() == 1

    response = client.post(control_url(wave, "pause"), {"reason": ""}, follow=True)
    assert last_message(response) == "Give a reason for the pause."
    client.post(control_url(wave, "pause"), {"reason": "Dispute at table 1"})
    response = client.post(control_url(wave, "pause"), {"reason": "Again"}, follow=True)
    assert last_message(response) == "The clock is already paused."
    body = response.content.decode()
    assert "Paused" in body and "Dispute at table 1" in body and judge.username in body

    client.post(control_url(wave, "resume"), {"reason": ""})
    response = client.post(control_url(wave, "resume"), follow=True)
    assert last_message(response) == "The clock is not paused, so it cannot be resumed."
    assert list(ClockAction.objects.values_list("kind", flat=True)) == [
        "start",
        "pause",
        "resume",
    ]
    assert set(ClockAction.objects.values_list("by", flat=True)) == {judge.pk}


def test_adjust_and_end(client, wave):
    login(client, HEAD_JUDGE)
    client.post(control_url(wave, "start"))
    response = client.post(
        control_url(wave, "adjust"),
        {"minutes": "5", "direction": "add", "reason": "Late start"},
        follow=True,
    )
    assert last_message(response) == "5 minutes added."
    response = client.post(
        control_url(wave, "adjust"), {"minutes": "x", "direction": "add"}, follow=True
    )
    assert "Enter a number of minutes" in last_message(response)
    client.post(control_url(wave, "end"), {"reason": "All done"})
    response = client.post(control_url(wave, "end"), follow=True)
    assert last_message(response) == "This wave’s clock has ended; it can no longer change."
    assert ClockAction.objects.filter(kind="adjust").get().seconds == 300


def test_the_organizer_adds_and_removes_a_custom_announcement(client, wave):
    login(client, ORGANIZER)
    round_ = wave.round
    url = reverse("clock:announcement_add", kwargs={"pk": round_.event_id, "round_pk": round_.pk})
    client.post(url, {"minutes_remaining": "45", "text": "Raffle draw at the stage"})
    response = client.post(url, {"minutes_remaining": "200", "text": "Too late"}, follow=True)
    assert "between 0 and 90 minutes" in last_message(response)
    announcement = Announcement.objects.get()
    assert announcement.at_remaining_seconds == 45 * 60
    state = client.get(reverse("spectator:hall_state", kwargs={"pk": round_.event_id})).json()
    assert [a["at_ms"] // 60000 for a in state["announcements"]] == [60, 45, 30, 15, 0]
    client.post(
        reverse(
            "clock:announcement_delete",
            kwargs={"pk": round_.event_id, "announcement_pk": announcement.pk},
        )
    )
    assert not Announcement.objects.exists()


def test_a_head_judge_who_is_not_an_organizer_sees_no_announcement_form(client, wave):
    login(client, HEAD_JUDGE)
    body = client.get(
        reverse("clock:clock_control", kwargs={"pk": wave.round.event_id})
    ).content.decode()
    assert "Add announcement" not in body


def test_the_hall_display_is_public_and_shows_aliases_only(client, wave):
    services.clock_start(wave=wave, now=timezone.now() - datetime.timedelta(minutes=10))
    response = client.get(reverse("spectator:hall_display", kwargs={"pk": wave.round.event_id}))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Lucky Thimble" in body and "Realname" not in body and "Ada" not in body
    assert "1:20:00" in body or "1:19:59" in body
    assert "Next: 60 minutes remaining" in body
    assert 'data-status="playing"' in body


def test_the_state_endpoint_gives_server_time_and_remaining(client, wave):
    services.clock_start(wave=wave, now=timezone.now() - datetime.timedelta(minutes=30))
    before = timezone.now().timestamp() * 1000
    data = client.get(reverse("spectator:hall_state", kwargs={"pk": wave.round.event_id})).json()
    after = timezone.now().timestamp() * 1000
    assert before - 1 <= data["server_ms"] <= after + 1
    assert data["status"] == "running" and data["wave"] == wave.pk
    assert abs(data["remaining_ms"] - 60 * 60 * 1000) < 2000
    assert data["tables"] == [
        {"pk": wave.tables.get().pk, "number": 1, "status": "playing", "label": "playing"}
    ]
    # The state must never come from a cache, or the offset would be measured wrongly.
    response = client.get(
        reverse("clock:wave_clock_state", kwargs={"pk": wave.round.event_id, "wave_pk": wave.pk})
    )
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_the_hall_without_any_round(client, event):
    body = client.get(reverse("spectator:hall_display", kwargs={"pk": event.pk})).content
    assert "No round has been scheduled yet." in body.decode()
    data = client.get(reverse("spectator:hall_state", kwargs={"pk": event.pk})).json()
    assert data["wave"] is None


def test_the_banker_calls_the_last_turn_only_once_time_is_up(client, wave):
    banker = login(client, BANKER)
    table = wave.tables.get()
    Table.objects.filter(pk=table.pk).update(banker=banker)  # a banker opens their own table
    page = reverse("banker:banker_table", kwargs={"table_pk": table.pk})
    last_turn = reverse("banker:table_last_turn", kwargs={"table_pk": table.pk})
    game_over = reverse("banker:table_finished", kwargs={"table_pk": table.pk})
    body = client.get(page).content.decode()
    assert "Lucky Thimble" in body and "Realname" not in body

    services.clock_start(wave=wave, now=timezone.now() - datetime.timedelta(minutes=10))
    response = client.post(last_turn, follow=True)
    assert last_message(response) == "The last turn can only be called once time is up."
    assert response.redirect_chain[-1][0] == page

    clock = Clock.objects.get()
    clock.started_at = timezone.now() - datetime.timedelta(minutes=91)
    clock.save()
    response = client.post(last_turn, follow=True)
    assert "last turn" in last_message(response)
    response = client.post(last_turn, follow=True)
    assert last_message(response) == "A table marked “last turn” cannot be marked “last turn”."
    response = client.post(game_over, follow=True)
    assert "Score entry is open for this table." in response.content.decode()
    table.refresh_from_db()
    assert (table.status, table.status_changed_by) == ("finished", banker)
    hall = client.get(reverse("spectator:hall_state", kwargs={"pk": wave.round.event_id}))
    assert hall.json()["tables"][0]["status"] == "finished"


def test_a_club_banker_has_no_last_turn_and_reads_the_kits_end_of_round(client, wave):
    # Tournament Kit, End of Round: "Any player who has thrown the dice completes that move and any
    # transaction that may result."
    event = wave.round.event
    event.format = "club"
    event.save(update_fields=["format"])
    banker = login(client, BANKER)
    table = wave.tables.get()
    Table.objects.filter(pk=table.pk).update(banker=banker)
    services.clock_start(wave=wave, now=timezone.now() - datetime.timedelta(minutes=91))
    body = client.get(reverse("banker:banker_table", kwargs={"table_pk": table.pk}))
    text = body.content.decode()
    assert "Any player who has thrown the dice completes that move" in text
    assert "Game over: time is called, or one player remains" in text
    assert reverse("banker:table_last_turn", kwargs={"table_pk": table.pk}) not in text
    response = client.post(
        reverse("banker:table_last_turn", kwargs={"table_pk": table.pk}), follow=True
    )
    assert "no last turn" in last_message(response)
    client.post(reverse("banker:table_finished", kwargs={"table_pk": table.pk}))
    table.refresh_from_db()
    assert table.status == "finished"


def test_a_banker_cannot_open_the_clock_controls(client, wave):
    login(client, BANKER)
    response = client.get(reverse("clock:clock_control", kwargs={"pk": wave.round.event_id}))
    assert response.status_code == 403
    assert client.post(control_url(wave, "start")).status_code == 403
    assert not Clock.objects.exists()


def test_a_game_over_tapped_by_mistake_reopens_where_it_was_until_the_sheet_is_saved(client, wave):
    # Nothing irreversible on one tap; the undo lasts while nothing is built on it.
    from scoring.services.sheets import sheet_save_draft

    banker = login(client, BANKER)
    table = wave.tables.get()
    Table.objects.filter(pk=table.pk).update(banker=banker)
    page = reverse("banker:banker_table", kwargs={"table_pk": table.pk})
    reopen = reverse("banker:table_reopen", kwargs={"table_pk": table.pk})
    services.clock_start(wave=wave, now=timezone.now() - datetime.timedelta(minutes=91))
    client.post(reverse("banker:table_last_turn", kwargs={"table_pk": table.pk}))
    client.post(reverse("banker:table_finished", kwargs={"table_pk": table.pk}))
    assert reopen in client.get(page).content.decode()

    response = client.post(reopen, follow=True)
    assert last_message(response) == "Table 1: the game is open again. Play goes on."
    table.refresh_from_db()
    # Back in the last turn it was in, not at the start of play.
    assert table.status == "last_turn"
    assert reopen not in response.content.decode()

    client.post(reverse("banker:table_finished", kwargs={"table_pk": table.pk}))
    sheet_save_draft(table=table, data={}, expected_version=0, by=banker)
    assert reopen not in client.get(page).content.decode()
    response = client.post(reopen, follow=True)
    assert "has been saved since the game ended" in last_message(response)
    table.refresh_from_db()
    assert table.status == "finished"


def test_a_game_over_with_one_player_left_reopens_to_playing(client, wave):
    banker = login(client, BANKER)
    table = wave.tables.get()
    Table.objects.filter(pk=table.pk).update(banker=banker)
    services.clock_start(wave=wave, now=timezone.now() - datetime.timedelta(minutes=10))
    client.post(reverse("banker:table_finished", kwargs={"table_pk": table.pk}))
    client.post(reverse("banker:table_reopen", kwargs={"table_pk": table.pk}))
    table.refresh_from_db()
    assert table.status == "playing"
    # A playing table has no game over to undo.
    response = client.post(
        reverse("banker:table_reopen", kwargs={"table_pk": table.pk}), follow=True
    )
    assert last_message(response) == (
        "This table’s game is not marked over, so there is nothing to reopen."
    )
