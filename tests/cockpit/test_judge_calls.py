""" "Judge, please" from the banker's tablet to the judges' desk and back.

Championship Rules, JUDGING: "If a judge is required the contestant must flag this to the Banker who
will raise their arm". The call is a banker write (applied once per idempotency key, queued offline
by static/js/tablet.js), waits on the judges' desk and the head judge's clock page with how
long it has waited, is taken ("on my way") by one judge and closed with an optional ruling
that stays on the table's record.
"""

from __future__ import annotations

import datetime
import re
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from tests.banker.offline_helpers import playing_table
from tests.builders import an_event, user_with
from tests.url_names import qualified
from tournament.models import JudgeCall, Table
from tournament.roles import BANKER, HEAD_JUDGE, JUDGE

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return " ".join(response.content.decode().split())


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.fixture
def table() -> Table:
    return playing_table()


@pytest.fixture
def banker(client, table):
    user = user_with(BANKER, "bea")
    Table.objects.filter(pk=table.pk).update(banker=user)
    client.force_login(user)
    return client


def call_url(table: Table) -> str:
    return reverse("banker:table_judge_please", kwargs={"table_pk": table.pk})


def test_the_banker_calls_a_judge_once_however_often_the_tablet_sends_it(banker, table):
    page = text(banker.get(reverse("banker:banker_table", kwargs={"table_pk": table.pk})))
    assert "Judge, please" in page
    key = str(uuid.uuid4())
    first = banker.post(call_url(table), {"idempotency_key": key}, follow=True)
    assert "a judge is called. Raise your arm" in " ".join(messages_of(first))
    # The offline queue replays the same write: nothing new. A second tap (a new key) while
    # the call waits joins it: still one call.
    banker.post(call_url(table), {"idempotency_key": key})
    banker.post(call_url(table), {"idempotency_key": str(uuid.uuid4())})
    assert JudgeCall.objects.filter(table=table).count() == 1
    page = text(banker.get(reverse("banker:banker_table", kwargs={"table_pk": table.pk})))
    assert "A judge was called at" in page and "Waiting for a judge." in page


def test_the_tablets_offline_queue_lists_the_call_among_its_writes(table):
    # The queue sends only the URLs its WRITES pattern matches; the call's view is one of
    # the banker writes made idempotent (tournament.idempotency).
    from banker.table_views import table_judge_please

    source = (Path(settings.BASE_DIR) / "static" / "js" / "tablet.js").read_text()
    pattern = re.search(r"var WRITES = /(.+)/;", source).group(1).replace("\\/", "/")
    assert re.search(pattern, call_url(table))
    assert getattr(table_judge_please, "idempotent", False)


def test_the_desk_and_clock_page_show_the_wait_one_judge_takes_it_and_closes_it(client, table):
    JudgeCall.objects.create(
        table=table, called_at=timezone.now() - datetime.timedelta(minutes=7, seconds=10)
    )
    call = JudgeCall.objects.get()
    ann, bo = user_with(JUDGE, "ann"), user_with(JUDGE, "bo")
    client.force_login(ann)
    desk = text(client.get(reverse("cockpit:judges_desk")))
    assert "Judge, please: 1 table waiting" in desk and "waiting 7 minutes" in desk
    head = user_with(HEAD_JUDGE, "hal")
    client.force_login(head)
    clock = text(client.get(reverse("clock:clock_control", kwargs={"pk": table.round.event_id})))
    assert "Table 1" in clock and "waiting 7 minutes" in clock

    client.force_login(ann)
    taken = client.post(
        reverse("cockpit:judge_call_take", kwargs={"pk": table.round.event_id, "call_pk": call.pk}),
        {"next": reverse("cockpit:judges_desk")},
        follow=True,
    )
    assert "you are on your way" in " ".join(messages_of(taken))
    assert "ann is on the way" in text(taken)
    # Two judges at once: the second is told who is already going.
    client.force_login(bo)
    second = client.post(
        reverse("cockpit:judge_call_take", kwargs={"pk": table.round.event_id, "call_pk": call.pk}),
        follow=True,
    )
    assert second.status_code == 200
    assert "ann is already on the way to this table." in messages_of(second)
    # The tablet sees the judge coming.
    bea = user_with(BANKER, "bea")
    Table.objects.filter(pk=table.pk).update(banker=bea)
    client.force_login(bea)
    page = text(client.get(reverse("banker:banker_table", kwargs={"table_pk": table.pk})))
    assert "ann is on the way." in page

    client.force_login(ann)
    ruling = "Rent is owed only if claimed before the next roll (long-game rules)."
    closed = client.post(
        reverse(
            "cockpit:judge_call_close", kwargs={"pk": table.round.event_id, "call_pk": call.pk}
        ),
        {"ruling": ruling, "next": "https://evil.example/"},
    )
    # Never sent off the site.
    assert closed.status_code == 302 and closed.url == reverse("cockpit:judges_desk")
    call.refresh_from_db()
    assert call.closed_by == ann and call.ruling == ruling
    again = client.post(
        reverse(
            "cockpit:judge_call_close", kwargs={"pk": table.round.event_id, "call_pk": call.pk}
        ),
        follow=True,
    )
    assert "This call is already closed." in messages_of(again)
    assert "No table is waiting for a judge." in text(client.get(reverse("cockpit:judges_desk")))
    # The ruling stays on the table's record.
    record = text(
        client.get(
            reverse(
                "scoring:results_table",
                kwargs={"pk": table.round.event_id, "round_number": 1, "table_number": 1},
            )
        )
    )
    assert "Judge calls" in record and ruling in record and "taken by ann" in record


def test_the_waiting_list_refreshes_itself_for_one_event_or_all(client, table):
    JudgeCall.objects.create(table=table, called_at=timezone.now() - datetime.timedelta(minutes=12))
    client.force_login(user_with(JUDGE, "ann"))
    url = reverse("cockpit:judge_calls_panel")
    desk = text(client.get(reverse("cockpit:judges_desk")))
    assert f'hx-get="{url}?back=' in desk
    panel = text(client.get(url, {"event": table.round.event_id, "back": "/organizer/judging/"}))
    assert "waiting 12 minutes" in panel and 'value="/organizer/judging/"' in panel
    other = an_event(name="Elsewhere")
    assert "No table is waiting" in text(client.get(url, {"event": other.pk}))
    for bad in ("x", "²", "9" * 30, "999999"):
        assert client.get(url, {"event": bad}).status_code == 404
    assert 'value="https://evil' not in text(client.get(url, {"back": "https://evil.example/"}))


def test_bad_input_never_answers_500(client, table):
    client.force_login(user_with(JUDGE, "ann"))
    for name in ("judge_call_take", "judge_call_close"):
        url = reverse(qualified(name), kwargs={"pk": table.round.event_id, "call_pk": 999999})
        assert client.post(url).status_code == 404
    call = JudgeCall.objects.create(table=table, called_at=timezone.now())
    response = client.post(
        reverse(
            "cockpit:judge_call_close", kwargs={"pk": table.round.event_id, "call_pk": call.pk}
        ),
        {"ruling": "x" * 5000},
    )
    assert response.status_code == 302
    call.refresh_from_db()
    assert call.closed_at is None
