"""Every banker write is applied at most once per idempotency key.

A tablet replaying its offline queue, or retrying after a lost answer, sends the same key
again: the second request must change nothing and get the first one's answer back. The
writes are driven through the pages with Django's test client, as the tablet sends them.
"""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse

from clock import services as clock_services
from scoring.models import SheetRevision, SheetSignature, TableSheet
from scoring.selectors import banker_table_players
from tests.banker.banker_setup import BANKER, finished_tables, user_with
from tests.banker.offline_helpers import playing_table
from tournament.models import Bankruptcy, Table, TabletWrite

JSON = {"Accept": "application/json"}


def banker_of(client, table: Table):
    banker = user_with(BANKER, f"banker{table.pk}")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    return client


def keyed(key: uuid.UUID | str) -> dict[str, str]:
    return {**JSON, "Idempotency-Key": str(key)}


def sheet_form(table: Table, *, version: int = 0) -> dict[str, str]:
    data = {"version": str(version), "submission_key": str(uuid.uuid4())}
    for player in banker_table_players(table=table):
        data[f"cash_{player.pk}"] = "1500"
    return data


# --- The clock page's buttons ---------------------------------------------------------------


@pytest.mark.django_db
def test_game_over_sent_twice_with_one_key_is_applied_once_with_the_same_answer(client):
    table = playing_table()
    banker_of(client, table)
    url = reverse("banker:table_finished", kwargs={"table_pk": table.pk})
    key = uuid.uuid4()
    first = client.post(url, headers=keyed(key))
    table.refresh_from_db()
    changed_at = table.status_changed_at
    second = client.post(url, headers=keyed(key))
    assert first.status_code == second.status_code == 200
    assert first.json()["status"] == "done"
    assert second.content == first.content
    assert second["Idempotent-Replay"] == "true"
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.status_changed_at == changed_at
    assert TabletWrite.objects.filter(table=table, key=key).count() == 1


@pytest.mark.django_db
def test_a_new_key_is_a_new_write_and_the_server_says_why_it_refuses_it(client):
    table = playing_table()
    banker_of(client, table)
    url = reverse("banker:table_finished", kwargs={"table_pk": table.pk})
    client.post(url, headers=keyed(uuid.uuid4()))
    again = client.post(url, headers=keyed(uuid.uuid4()))
    assert again.json()["status"] == "refused"
    assert again.json()["messages"]
    assert TabletWrite.objects.filter(table=table).count() == 2


@pytest.mark.django_db
def test_last_turn_with_one_key_is_applied_once(client):
    table = playing_table(time_up=True)
    banker_of(client, table)
    url = reverse("banker:table_last_turn", kwargs={"table_pk": table.pk})
    key = uuid.uuid4()
    first = client.post(url, headers=keyed(key))
    second = client.post(url, headers=keyed(key))
    assert first.json()["status"] == "done"
    assert second.content == first.content
    table.refresh_from_db()
    assert table.status == Table.Status.LAST_TURN


@pytest.mark.django_db
def test_a_key_reused_for_another_action_applies_it_and_does_not_replay(client):
    """Last turn, then game over under the same key: the game is over, and the answer is
    game over's own, not the last turn's stored one."""
    table = playing_table(time_up=True)
    banker_of(client, table)
    key = uuid.uuid4()
    last_turn = reverse("banker:table_last_turn", kwargs={"table_pk": table.pk})
    game_over = reverse("banker:table_finished", kwargs={"table_pk": table.pk})
    assert client.post(last_turn, headers=keyed(key)).json()["status"] == "done"
    answer = client.post(game_over, headers=keyed(key))
    assert answer.get("Idempotent-Replay") is None
    assert answer.json()["status"] == "done"
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert TabletWrite.objects.filter(table=table, key=key).count() == 2


@pytest.mark.django_db
def test_a_key_from_a_form_field_counts_like_the_header(client):
    """Without JavaScript's queue, the page's own form carries the key (``idempotency_key``)."""
    table = playing_table()
    banker_of(client, table)
    url = reverse("banker:table_finished", kwargs={"table_pk": table.pk})
    key = str(uuid.uuid4())
    first = client.post(url, {"idempotency_key": key})
    second = client.post(url, {"idempotency_key": key})
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert TabletWrite.objects.get(table=table).status_code == 302


@pytest.mark.django_db
def test_a_key_that_is_not_a_uuid_is_refused_and_nothing_changes(client):
    table = playing_table()
    banker_of(client, table)
    url = reverse("banker:table_finished", kwargs={"table_pk": table.pk})
    response = client.post(url, headers=keyed("not-a-uuid"))
    assert response.status_code == 400
    assert response.json() == {
        "status": "refused",
        "messages": ["The idempotency key is not a UUID."],
    }
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


@pytest.mark.django_db
def test_a_write_that_fails_keeps_no_key_so_the_retry_applies_it(client, monkeypatch):
    table = playing_table()
    banker_of(client, table)
    url = reverse("banker:table_finished", kwargs={"table_pk": table.pk})
    key = uuid.uuid4()

    def broken(**kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(clock_services, "table_mark_finished", broken)
    with pytest.raises(RuntimeError):
        client.post(url, headers=keyed(key))
    assert not TabletWrite.objects.exists()
    monkeypatch.undo()
    assert client.post(url, headers=keyed(key)).json()["status"] == "done"
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


@pytest.mark.django_db
def test_the_key_is_unique_per_table_and_action():
    first, second = finished_tables(players=8)[:2]
    key = uuid.uuid4()
    TabletWrite.objects.create(table=first, key=key, action="table_finished", status_code=200)
    TabletWrite.objects.create(table=second, key=key, action="table_finished", status_code=200)
    TabletWrite.objects.create(table=first, key=key, action="sheet_sign", status_code=200)
    with pytest.raises(IntegrityError), transaction.atomic():
        TabletWrite.objects.create(table=first, key=key, action="table_finished", status_code=200)


@pytest.mark.django_db
def test_a_stored_answer_is_only_replayed_at_its_own_table(client):
    first, second = finished_tables(players=8)[:2]
    banker_of(client, first)
    key = uuid.uuid4()
    submit = reverse("banker:sheet_submit", kwargs={"table_pk": first.pk})
    assert client.post(submit, sheet_form(first), headers=keyed(key)).status_code == 200
    # The same key at a table this banker does not hold gets the access check, not a replay.
    other = reverse("banker:sheet_submit", kwargs={"table_pk": second.pk})
    response = client.post(other, sheet_form(second), headers=keyed(key))
    assert response.status_code == 403
    assert not TableSheet.objects.filter(table=second).exists()


# --- Bankruptcies -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_bankruptcy_sent_twice_with_one_key_is_recorded_once(client):
    table = playing_table()
    banker_of(client, table)
    dog = banker_table_players(table=table)[3]
    url = reverse("banker:bankruptcy_record", kwargs={"table_pk": table.pk})
    form = {"player": str(dog.pk), "creditor": "bank", "initials": "DG"}
    key = uuid.uuid4()
    first = client.post(url, form, headers=keyed(key))
    second = client.post(url, form, headers=keyed(key))
    assert first.json()["status"] == "done"
    assert second.content == first.content
    assert Bankruptcy.objects.filter(table=table).count() == 1
    # Without the key, the same form again is a new write, refused: Dog is out already.
    third = client.post(url, form, headers=JSON)
    assert third.status_code == 422
    assert Bankruptcy.objects.filter(table=table).count() == 1


# --- The sheet and its signatures -----------------------------------------------------------


@pytest.mark.django_db
def test_a_sheet_submitted_twice_with_one_key_is_one_submission(client):
    table = finished_tables(players=4)[0]
    banker_of(client, table)
    url = reverse("banker:sheet_submit", kwargs={"table_pk": table.pk})
    form = sheet_form(table)
    key = form["submission_key"]
    first = client.post(url, form, headers=keyed(key))
    second = client.post(url, form, headers=keyed(key))
    assert first.json()["status"] == "submitted"
    assert second.content == first.content
    sheet = TableSheet.objects.get(table=table)
    assert sheet.version == 1
    assert sheet.revisions.filter(kind=SheetRevision.Kind.SUBMISSION).count() == 1


@pytest.mark.django_db
def test_a_refused_sheet_gets_the_same_refusal_back(client):
    table = finished_tables(players=4)[0]
    banker_of(client, table)
    url = reverse("banker:sheet_submit", kwargs={"table_pk": table.pk})
    form = sheet_form(table)
    form["buildings_39"] = "1"
    form["owner_39"] = str(banker_table_players(table=table)[0].pk)
    key = uuid.uuid4()
    first = client.post(url, form, headers=keyed(key))
    second = client.post(url, form, headers=keyed(key))
    assert first.status_code == second.status_code == 422
    assert second.content == first.content
    assert TableSheet.objects.get(table=table).version == 1


@pytest.mark.django_db
def test_each_signature_is_applied_once_and_in_order(client):
    table = finished_tables(players=4)[0]
    banker_of(client, table)
    submit = reverse("banker:sheet_submit", kwargs={"table_pk": table.pk})
    sign = reverse("banker:sheet_sign", kwargs={"table_pk": table.pk})
    client.post(submit, sheet_form(table), headers=JSON)
    players = banker_table_players(table=table)
    keys = [uuid.uuid4() for _ in players]
    for player, key in zip(players, keys, strict=True):
        first = client.post(sign, {"player": player.pk, "initials": "XY"}, headers=keyed(key))
        assert first.json()["status"] == "done", first.json()
    # The whole queue replayed after a lost answer: nothing new, the same answers.
    for player, key in zip(players, keys, strict=True):
        again = client.post(sign, {"player": player.pk, "initials": "XY"}, headers=keyed(key))
        assert again["Idempotent-Replay"] == "true"
        assert again.json()["status"] == "done"
    sheet = TableSheet.objects.get(table=table)
    signed = list(sheet.signatures.order_by("pk").values_list("player_id", flat=True))
    assert signed == [p.pk for p in players]
    banker_key = uuid.uuid4()
    client.post(sign, {"initials": "BK"}, headers=keyed(banker_key))
    client.post(sign, {"initials": "BK"}, headers=keyed(banker_key))
    assert SheetSignature.objects.filter(sheet=sheet, role="banker").count() == 1
    sheet.refresh_from_db()
    assert sheet.status == TableSheet.Status.SIGNED


@pytest.mark.django_db(transaction=True)
def test_one_key_sent_twice_at_the_same_moment_is_applied_once():
    """A tablet's retry racing its first try: the second waits on the unique key, then gets
    the first one's answer. Real concurrency needs PostgreSQL (SQLite locks the file)."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite serialises whole transactions and cannot race")
    table = playing_table()
    banker = user_with(BANKER, "racer")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    url = reverse("banker:table_finished", kwargs={"table_pk": table.pk})
    key = uuid.uuid4()
    barrier = threading.Barrier(2)
    answers: list[object] = [None, None]

    def send(index: int) -> None:
        client = Client()
        client.force_login(banker)
        try:
            barrier.wait(timeout=10)
            answers[index] = client.post(url, headers=keyed(key))
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    first, second = answers
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert first.json()["status"] == "done"
    assert TabletWrite.objects.filter(table=table, key=key).count() == 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
