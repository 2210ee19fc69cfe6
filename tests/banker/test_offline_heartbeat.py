"""Tablets report a heartbeat; the judges' results page marks the ones gone quiet.

The tablet posts its heartbeat while online, with the number of actions it still has
waiting. "Last heard" is the server's own record of the time, never the tablet's clock.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from banker.tablet_services import heartbeat_record
from scoring.tablet_selectors import SILENT_AFTER, round_tablet_worries
from tests.banker.banker_setup import BANKER, JUDGE, finished_tables, user_with
from tests.resilience.resilience_setup import banker_links
from tournament.models import Table, TabletHeartbeat


@pytest.fixture
def tables(db) -> list[Table]:
    return finished_tables(players=8)


def beat_url(table: Table) -> str:
    return reverse("banker:tablet_heartbeat", kwargs={"table_pk": table.pk})


def test_a_tablet_heartbeat_is_kept_with_the_servers_time(client, tables):
    table = tables[0]
    banker = user_with(BANKER, "banker")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    before = timezone.now()
    response = client.post(
        beat_url(table),
        {"device": "tablet-1", "queued": "3", "offline_since": "2031-03-01T10:05:00Z"},
    )
    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    beat = TabletHeartbeat.objects.get(table=table)
    assert (beat.device, beat.queued) == ("tablet-1", 3)
    assert beat.last_heard >= before
    client.post(beat_url(table), {"device": "tablet-1", "queued": "0"})
    beat.refresh_from_db()
    assert beat.queued == 0 and beat.offline_since is None
    assert TabletHeartbeat.objects.filter(table=table).count() == 1


@pytest.mark.parametrize(
    "form", [{}, {"device": "t"}, {"device": "t", "queued": "-1"}, {"device": "t", "queued": "²"}]
)
def test_a_heartbeat_that_cannot_be_read_is_a_400(client, tables, form):
    banker = user_with(BANKER, "banker")
    Table.objects.filter(pk=tables[0].pk).update(banker=banker)
    client.force_login(banker)
    response = client.post(beat_url(tables[0]), form)
    assert response.status_code == 400
    assert not TabletHeartbeat.objects.exists()


def test_another_tables_banker_cannot_beat_for_it(client, tables):
    client.force_login(user_with(BANKER, "banker"))
    response = client.post(beat_url(tables[0]), {"device": "t", "queued": "0"})
    assert response.status_code == 403


def test_a_judge_helping_at_the_table_does_not_beat_for_its_tablet(client, tables):
    """The judge may open the table's pages, but is not its tablet: no heartbeat of theirs
    can stand in for the tablet's."""
    client.force_login(user_with(JUDGE, "judge"))
    response = client.post(beat_url(tables[0]), {"device": "judge-phone", "queued": "0"})
    assert response.status_code == 403
    assert not TabletHeartbeat.objects.exists()


def test_the_table_cards_link_holder_beats_for_its_table(client, tables):
    table = tables[0]
    key = banker_links([table])[table.pk]
    client.get(reverse("banker:banker_link_open", kwargs={"key": key}))
    response = client.post(beat_url(table), {"device": "tablet-1", "queued": "2"})
    assert response.status_code == 200
    assert TabletHeartbeat.objects.get(table=table).queued == 2


def test_an_empty_queue_from_another_tablet_does_not_hide_waiting_actions(tables):
    table = tables[0]
    now = timezone.now()
    heartbeat_record(table=table, device="real", queued=3, now=now - datetime.timedelta(seconds=30))
    heartbeat_record(table=table, device="other", queued=0, now=now)
    worries = round_tablet_worries(round_=table.round, now=now)
    assert [(w.table.pk, w.queued, w.offline) for w in worries] == [(table.pk, 3, False)]
    # Once the tablet that had them says they went through, nothing is waiting.
    heartbeat_record(table=table, device="real", queued=0, now=now)
    assert round_tablet_worries(round_=table.round, now=now) == []


def test_silent_tablets_and_waiting_actions_are_the_judges_worries(tables):
    first, second = tables[:2]
    now = timezone.now()
    heartbeat_record(table=first, device="a", queued=2, now=now - datetime.timedelta(minutes=4))
    heartbeat_record(table=second, device="b", queued=0, now=now - datetime.timedelta(seconds=5))
    worries = round_tablet_worries(round_=first.round, now=now)
    assert [w.table.pk for w in worries] == [first.pk]
    assert worries[0].offline and worries[0].queued == 2 and worries[0].minutes_silent == 4
    # A tablet heard just now that still has actions waiting is listed, online.
    heartbeat_record(table=second, device="b", queued=1, now=now)
    worries = round_tablet_worries(round_=first.round, now=now)
    assert [(w.table.pk, w.offline) for w in worries] == [(first.pk, True), (second.pk, False)]


def test_the_freshest_tablet_of_a_table_counts_and_scored_tables_are_done(tables):
    table = tables[0]
    now = timezone.now()
    heartbeat_record(table=table, device="old", queued=0, now=now - SILENT_AFTER * 5)
    heartbeat_record(table=table, device="new", queued=0, now=now)
    assert round_tablet_worries(round_=table.round, now=now) == []
    heartbeat_record(table=table, device="new", queued=0, now=now - SILENT_AFTER * 2)
    assert len(round_tablet_worries(round_=table.round, now=now)) == 1
    Table.objects.filter(pk=table.pk).update(status=Table.Status.SCORED)
    assert round_tablet_worries(round_=table.round, now=now) == []


def test_the_results_page_marks_the_offline_tablet(client, tables):
    table = tables[0]
    heartbeat_record(
        table=table,
        device="a",
        queued=3,
        now=timezone.now() - datetime.timedelta(minutes=7, seconds=10),
    )
    client.force_login(user_with(JUDGE, "judge"))
    event = table.round.event
    page = client.get(
        reverse("scoring:results_round", kwargs={"pk": event.pk, "round_number": 1})
    ).content.decode()
    assert f'data-tablet-worry="{table.number}"' in page
    assert "tablet offline" in page
    assert "last heard from 7 minutes ago" in page
    assert "3 actions waiting to be sent." in page
    # The table's own row carries the mark too; the other table's does not.
    assert page.count("data-tablet-flag") == 1


def test_the_waiting_actions_of_every_tablet_of_a_table_add_up(tables):
    # Two tablets at one table each still hold actions: the judges must expect all of them.
    table = tables[0]
    now = timezone.now()
    heartbeat_record(table=table, device="a", queued=2, now=now - datetime.timedelta(seconds=10))
    heartbeat_record(table=table, device="b", queued=3, now=now)
    worries = round_tablet_worries(round_=table.round, now=now)
    assert [(w.table.pk, w.queued) for w in worries] == [(table.pk, 5)]


def test_a_worry_says_when_the_tablet_was_last_heard_and_since_when_it_was_offline(tables):
    table = tables[0]
    now = timezone.now()
    heard = now - datetime.timedelta(minutes=3)
    went_offline = now - datetime.timedelta(minutes=5)
    heartbeat_record(table=table, device="a", queued=1, offline_since=went_offline, now=heard)
    (worry,) = round_tablet_worries(round_=table.round, now=now)
    assert (worry.last_heard, worry.offline_since) == (heard, went_offline)
    assert worry.offline and worry.minutes_silent == 3
