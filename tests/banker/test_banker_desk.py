"""The banker's landing page: the current table first, large, with its clock; the
other tables below it by what they need, with their state."""

from __future__ import annotations

import pytest
from django.urls import reverse

from banker.desk import banker_desk
from clock.services import clock_start
from tests.banker.banker_setup import BANKER, finished_tables, user_with
from tournament.models import Round, Table


@pytest.fixture
def banker(db):
    return user_with(BANKER, "banker")


def test_the_earliest_table_needing_the_banker_is_current_until_a_later_game_is_on(client, banker):
    finished = finished_tables(players=8)[0]
    Table.objects.filter(pk=finished.pk).update(banker=banker)
    # Round 2 is pre-seated: the banker's table there waits for its clock.
    later = Round.objects.get(event=finished.round.event, number=2)
    playing = Table.objects.filter(round=later).order_by("number").first()
    Table.objects.filter(pk=playing.pk).update(banker=banker)
    # Round 1's sheet is still to enter: that is the banker's job now.
    assert banker_desk(user=banker).current.table == finished

    clock_start(wave=playing.wave)
    desk = banker_desk(user=banker)
    assert desk.current.table == playing
    assert [v.table for v in desk.waiting] == [finished]

    client.force_login(banker)
    body = client.get(reverse("banker:banker_tables")).content.decode()
    top, below = body.split('data-desk="waiting"')
    assert reverse("banker:banker_table", kwargs={"table_pk": playing.pk}) in top
    assert "data-clock-remaining" in top and "data-primary-action" in top
    assert reverse("banker:banker_sheet", kwargs={"table_pk": finished.pk}) in below
    assert "A score sheet still to finish" in below and "game finished" in below


def test_a_finished_table_without_a_signed_sheet_opens_on_the_sheet(client, banker):
    table = finished_tables(players=4)[0]
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    body = client.get(reverse("banker:banker_tables")).content.decode()
    sheet = reverse("banker:banker_sheet", kwargs={"table_pk": table.pk})
    assert f'data-primary-action href="{sheet}"' in body
    assert "Enter the score sheet" in body and 'data-desk="' not in body


def test_a_banker_without_tables_is_told_why(client, banker):
    client.force_login(banker)
    body = client.get(reverse("banker:banker_tables")).content.decode()
    assert "No table is assigned to you yet" in body
