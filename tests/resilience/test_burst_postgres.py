"""Fifty bankers submit at the same moment: every sheet is stored once, exactly as sent.

Fifty tables of four (200 seated players, one round, every game finished), one thread per
tablet: fewer when the server has fewer than fifty connections free (another process, or
the other test process, may hold many of them), so the burst never meets "too many
clients"; below MIN_TABLES free it is no burst worth the name and the test says so.
Each thread opened its table's private link with its own client (so its own session and,
being its own thread, its own database connection), then all of them post the sheet
through the submit view at once (a barrier), asking for JSON as sheet.js does.
Ten of them then retry with the same submission key, again all at once, as a tablet
whose answer was lost does: the retries change nothing.

Like tests/scoring/test_scoring_concurrency.py this needs PostgreSQL (row locks, real
concurrent connections); SQLite serialises every write on the file. CI runs it on PG.
"""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring.models import SheetRevision, TableSheet
from tests.resilience.resilience_setup import banker_links, finish_round_one, seated_event
from tests.resilience.together import run_together
from tournament.models import Seat

TABLES = 50
RETRIES = 10
MIN_TABLES = 10
# Connections left for whatever else starts meanwhile (the other test process, a psql).
HEADROOM = 10
JSON = "application/json"


def free_connections() -> int:
    """Connections this server would still accept from an ordinary role: max_connections
    less the superuser-reserved ones and those open now (this test's own among them)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('max_connections')::int"
            " - current_setting('superuser_reserved_connections')::int"
            " - (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')"
        )
        return cursor.fetchone()[0]


def burst_size() -> int:
    """One connection per tablet thread, as many as are free (less the headroom), at most
    TABLES."""
    tables = min(TABLES, free_connections() - HEADROOM)
    if tables < MIN_TABLES:
        pytest.skip(
            f"only {tables + HEADROOM} PostgreSQL connections free: too few for a burst"
            f" of {MIN_TABLES} tablets (max_connections or another process)"
        )
    return tables


@pytest.mark.django_db(transaction=True)
def test_fifty_simultaneous_submissions_lose_nothing():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: concurrent connections and row locks; SQLite serialises")
    burst = burst_size()
    retries = min(RETRIES, burst)
    event = seated_event(players=4 * burst, name="Burst Cup")
    tables = finish_round_one(event)
    assert len(tables) == burst
    keys = banker_links(tables)

    # Each tablet: its own client holding its table's link, and the sheet it will send.
    tablets = []
    for index, table in enumerate(tables):
        client = Client(raise_request_exception=False)
        opened = client.get(reverse("banker:banker_link_open", kwargs={"key": keys[table.pk]}))
        assert opened.status_code == 302
        players = list(
            Seat.objects.filter(table=table).order_by("position").values_list("player", flat=True)
        )
        cash = {pid: 1000 + 10 * index + seat for seat, pid in enumerate(players)}
        form = {f"cash_{pid}": str(amount) for pid, amount in cash.items()}
        key = str(uuid.uuid4())
        form.update(version="0", submission_key=key, submit="1")
        tablets.append(
            {
                "table": table,
                "client": client,
                "form": form,
                "cash": cash,
                "key": key,
                "url": reverse("banker:sheet_submit", kwargs={"table_pk": table.pk}),
            }
        )

    def submit(tablet):
        answer = tablet["client"].post(tablet["url"], tablet["form"], HTTP_ACCEPT=JSON)
        return answer.status_code, answer.json()

    outcomes = run_together(submit, tablets)
    for tablet, outcome in zip(tablets, outcomes, strict=True):
        assert not isinstance(outcome, Exception), outcome
        status, body = outcome
        assert (status, body["status"], body["key"]) == (200, "submitted", tablet["key"])

    def stored() -> dict[int, tuple]:
        return {
            s.table_id: (s.status, s.version, str(s.last_submission_key), s.data)
            for s in TableSheet.objects.all()
        }

    sheets = stored()
    assert len(sheets) == burst == TableSheet.objects.count()
    for tablet in tablets:
        status, version, key, data = sheets[tablet["table"].pk]
        assert (status, version, key) == ("submitted", 1, tablet["key"])
        assert {int(p["id"]): p["cash"] for p in data["players"]} == tablet["cash"]
        assert not any(p["bankrupt"] for p in data["players"])
        assert data["properties"] == []
    # One submission revision per sheet: nothing was applied twice.
    assert SheetRevision.objects.filter(kind=SheetRevision.Kind.SUBMISSION).count() == burst
    assert SheetRevision.objects.values("sheet").distinct().count() == burst

    # Ten tablets never heard back and send the same submission again, all at once.
    retried = run_together(submit, tablets[:retries])
    for tablet, outcome in zip(tablets[:retries], retried, strict=True):
        assert not isinstance(outcome, Exception), outcome
        status, body = outcome
        assert (status, body["status"], body["key"]) == (200, "submitted", tablet["key"])
    assert stored() == sheets
    assert SheetRevision.objects.count() == burst
