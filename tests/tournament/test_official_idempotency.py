"""Officials' forms carry an idempotency key: a repeat of one key is answered, not applied.

The key is bound to the official and the action (URL name and arguments): the same key
sent to another action, or by another official, is a new write, and never gets another
action's answer. Stored answers are forgotten after a day.
"""

from __future__ import annotations

import datetime
import re
import uuid

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from tests.clock import test_clock_pages
from tests.clock.test_clock_pages import control_url, login
from tournament.idempotency import prune, replayed
from tournament.models import Announcement, ClockAction, OfficialWrite
from tournament.roles import HEAD_JUDGE, ORGANIZER

# The clock pages' wave of one table, every public page released.
wave = test_clock_pages.wave
KEY = re.compile(r'name="idempotency_key" value="([0-9a-f-]{36})"')


def add_five(client, wave, key, **headers):
    form = {"minutes": "5", "direction": "add", "reason": "Late start", "idempotency_key": key}
    return client.post(control_url(wave, "adjust"), form, **headers)


def test_every_control_of_the_card_carries_a_fresh_key_and_the_version(client, wave):
    login(client, ORGANIZER)
    page = reverse("clock:clock_control", kwargs={"pk": wave.round.event_id})
    body = client.get(page).content.decode()
    # Start, and the two announcement forms' add (no announcement to remove yet).
    first = KEY.findall(body)
    assert len(first) == 2 and len(set(first)) == 2
    assert 'name="version" value="0"' in body
    client.post(control_url(wave, "start"))
    body = client.get(page).content.decode()
    # Pause, adjust, end and the announcement: four forms, four new keys.
    again = KEY.findall(body)
    assert len(again) == 4 and not set(again) & set(first)
    assert 'name="version" value="1"' in body


def test_a_double_tapped_adjustment_is_applied_once(client, wave):
    login(client, HEAD_JUDGE)
    client.post(control_url(wave, "start"))
    key = str(uuid.uuid4())
    first = add_five(client, wave, key)
    second = add_five(client, wave, key)
    assert first.status_code == second.status_code == 302
    assert second["Location"] == first["Location"]
    assert not replayed(first) and replayed(second)
    assert list(ClockAction.objects.filter(kind="adjust").values_list("seconds", flat=True)) == [
        300
    ]
    # With htmx the card comes back, and its repeat is the same card.
    key = str(uuid.uuid4())
    card = add_five(client, wave, key, HTTP_HX_REQUEST="true")
    repeat = add_five(client, wave, key, HTTP_HX_REQUEST="true")
    assert card.status_code == repeat.status_code == 200
    assert repeat.content == card.content and replayed(repeat)
    assert ClockAction.objects.filter(kind="adjust").count() == 2


def test_a_key_used_for_another_action_is_a_new_write(client, wave):
    login(client, HEAD_JUDGE)
    client.post(control_url(wave, "start"))
    key = str(uuid.uuid4())
    add_five(client, wave, key)
    paused = client.post(control_url(wave, "pause"), {"reason": "Dispute", "idempotency_key": key})
    assert not replayed(paused)
    assert [k for k in ClockAction.objects.order_by("pk").values_list("kind", flat=True)] == [
        "start",
        "adjust",
        "pause",
    ]
    assert OfficialWrite.objects.filter(key=key).count() == 2


def test_a_key_sent_by_another_official_is_not_their_answer(client, wave):
    login(client, HEAD_JUDGE)
    client.post(control_url(wave, "start"))
    key = str(uuid.uuid4())
    add_five(client, wave, key)
    client.logout()
    other = login(client, ORGANIZER)
    response = add_five(client, wave, key)
    assert not replayed(response)
    assert ClockAction.objects.filter(kind="adjust", by=other).count() == 1


def test_a_key_that_is_not_a_uuid_is_refused(client, wave):
    login(client, HEAD_JUDGE)
    client.post(control_url(wave, "start"))
    refused = add_five(client, wave, "not-a-key")
    assert refused.status_code == 400
    assert refused.content.decode() == "The idempotency key is not a UUID."
    assert not ClockAction.objects.filter(kind="adjust").exists()


def test_a_double_tapped_announcement_is_posted_once(client, wave):
    login(client, ORGANIZER)
    round_ = wave.round
    url = reverse("clock:announcement_add", kwargs={"pk": round_.event_id, "round_pk": round_.pk})
    form = {"minutes_remaining": "45", "text": "Raffle", "idempotency_key": str(uuid.uuid4())}
    client.post(url, form)
    assert replayed(client.post(url, form))
    # Sent again without its key (an older page), it is still posted once.
    del form["idempotency_key"]
    response = client.post(url, form, follow=True)
    assert "Already done" in [str(m) for m in response.context["messages"]][-1]
    announcement = Announcement.objects.get()
    remove = reverse(
        "clock:announcement_delete",
        kwargs={"pk": round_.event_id, "announcement_pk": announcement.pk},
    )
    client.post(remove)
    response = client.post(remove, follow=True)
    assert response.status_code == 200
    assert "Already done" in [str(m) for m in response.context["messages"]][-1]


def test_answers_older_than_a_day_are_pruned(client, wave):
    user = login(client, HEAD_JUDGE)
    now = timezone.now()
    old = OfficialWrite.objects.create(user=user, key=uuid.uuid4(), action="x", status_code=302)
    recent = OfficialWrite.objects.create(user=user, key=uuid.uuid4(), action="x", status_code=302)
    OfficialWrite.objects.filter(pk=old.pk).update(at=now - datetime.timedelta(hours=25))
    OfficialWrite.objects.filter(pk=recent.pk).update(at=now - datetime.timedelta(hours=23))
    assert prune(model=OfficialWrite, now=now) == 1
    assert list(OfficialWrite.objects.values_list("pk", flat=True)) == [recent.pk]
    # A new write prunes too, as does the management command.
    OfficialWrite.objects.filter(pk=recent.pk).update(at=now - datetime.timedelta(hours=30))
    client.post(control_url(wave, "start"), {"idempotency_key": str(uuid.uuid4())})
    assert not OfficialWrite.objects.filter(pk=recent.pk).exists()
    assert OfficialWrite.objects.count() == 1
    OfficialWrite.objects.update(at=now - datetime.timedelta(days=2))
    call_command("prune_idempotency", stdout=open("/dev/null", "w"))
    assert not OfficialWrite.objects.exists()


@pytest.mark.parametrize("direction", ["add", "remove"])
def test_the_version_shown_turns_a_second_officials_same_change_into_already_done(
    client, wave, direction
):
    login(client, HEAD_JUDGE)
    client.post(control_url(wave, "start"))
    form = {"minutes": "5", "direction": direction, "reason": "x", "version": "1"}
    client.post(control_url(wave, "adjust"), form)
    response = client.post(control_url(wave, "adjust"), form, follow=True)
    assert "Already done" in [str(m) for m in response.context["messages"]][-1]
    assert ClockAction.objects.filter(kind="adjust").count() == 1
