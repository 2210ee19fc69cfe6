"""The server dies in the middle of a round (SIGKILL) and comes back: nothing is lost.

A real server process on a migrated SQLite file. The head judge starts both waves' clocks
and pauses one through the pages; three tablets, each holding its table's private link,
save drafts through the draft endpoint exactly as sheet.js does. Then the process is
killed without warning and a new one started on the same file, and:

* each clock is in the state it was (running stays running, paused stays paused);
* a running clock lost exactly the wall time between the two readings (both readings
  carry the server's own time, and that time lies between the test's own clock readings
  around each request, so no fixed number of seconds is assumed);
* every tablet's session still works and its sheet page gives back the same fields as
  before the crash (the same JSON sheet.js compares), at the same version.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from tests.resilience.http_tablet import (
    ROOT,
    Server,
    Tablet,
    free_port,
    server_env,
    sheet_page,
    sheet_params,
)

SEED = (
    "import django, json; django.setup(); "
    "from tests.resilience.resilience_setup import seed_restart_event; "
    "print(json.dumps(seed_restart_event()))"
)
JSON = "application/json"


@pytest.fixture
def hall(tmp_path):
    """A migrated database file with the seeded event, and a server to start on it."""
    database_url = f"sqlite:///{tmp_path / 'hall.sqlite3'}"
    env = server_env(database_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    seeded = subprocess.run(
        [sys.executable, "-c", SEED],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        check=True,
        capture_output=True,
        text=True,
    )
    setup = json.loads(seeded.stdout.strip().splitlines()[-1])
    servers: list[Server] = []

    def start() -> Server:
        port = servers[0].port if servers else free_port()
        server = Server(database_url=database_url, port=port, log=tmp_path / "server.log")
        servers.append(server)
        server.start()
        return server

    yield setup, start
    for server in servers:
        server.kill()


def clock_reading(tablet: Tablet, event: int, wave: int) -> dict:
    """The wave's clock JSON, with the test's own clock (ms) just before and after."""
    before = time.time() * 1000
    answer = tablet.get(f"/events/{event}/waves/{wave}/clock/state/", accept=JSON)
    after = time.time() * 1000
    assert answer.status == 200, answer.body[:500]
    return {**answer.json(), "before_ms": before, "after_ms": after}


def type_entries(page, players: list[int], table_index: int) -> dict[str, str | bool]:
    """What a banker types: cash for everyone, some bills, deeds with buildings, a mortgage."""
    fields = dict(page.fields)
    typed: dict[str, str | bool] = {}
    for seat, pid in enumerate(players):
        typed[f"cash_{pid}"] = str(1000 + 100 * table_index + seat)
    first_bill = next(name for name in fields if name.startswith(f"bills_{players[0]}_"))
    typed[first_bill] = str(3 + table_index)
    typed["owner_1"] = str(players[0])
    typed["owner_3"] = str(players[0])
    typed["buildings_3"] = "2"
    typed["owner_5"] = str(players[1])
    typed["mortgaged_5"] = True
    if table_index == 1:
        typed[f"bankrupt_{players[3]}"] = True
        typed[f"out_order_{players[3]}"] = "1"
    for name in typed:
        assert name in fields, f"the sheet has no field {name}"
    fields.update(typed)
    return fields


def save_draft(tablet: Tablet, fields: dict, page) -> dict:
    """sheet.js's saveDraft(): the fields and the version, asking for JSON."""
    pairs = sheet_params(page.csrf_token, fields, {"version": page.version})
    answer = tablet.post(page.draft_url, pairs, accept=JSON)
    assert answer.status == 200, answer.body[:500]
    return answer.json()


def judge_starts_both_waves_and_pauses_the_second(server, setup) -> Tablet:
    """The head judge starts both waves from the clock page and pauses the second one."""
    event, (wave_1, wave_2) = setup["event"], setup["waves"]
    judge = Tablet(server.base)
    signed_in = judge.login(*setup["head_judge"])
    assert signed_in.status == 200 and "/accounts/login/" not in signed_in.url
    for wave in (wave_1, wave_2):
        started = judge.post_form(f"/organizer/events/{event}/waves/{wave}/clock/start/", {})
        # Back on the clock page, at the wave's card (#wave-<pk>: the action keeps its place).
        page_url = started.url.split("#")[0]
        assert started.status == 200 and page_url.endswith(f"/organizer/events/{event}/clock/")
    judge.post_form(
        f"/organizer/events/{event}/waves/{wave_2}/clock/pause/", {"reason": "Rules dispute"}
    )
    return judge


def three_tablets_save_drafts(server, setup) -> tuple[dict, dict]:
    """Three tablets (two tables of wave 1, one of wave 2) open their table cards' links
    and save drafts; the first saves twice, as a banker who goes on typing."""
    tablets, typed = {}, {}
    for index, table in enumerate(setup["tables"][:3]):
        tablet = Tablet(server.base)
        opened = tablet.get(f"/bank/k/{table['key']}/")
        assert opened.status == 200 and f"/bank/tables/{table['pk']}/" in opened.url
        page = sheet_page(tablet.get(f"/bank/tables/{table['pk']}/sheet/").body)
        fields = type_entries(page, table["players"], index)
        assert save_draft(tablet, fields, page) == {"status": "saved", "version": 1}
        if index == 0:
            page = sheet_page(tablet.get(f"/bank/tables/{table['pk']}/sheet/").body)
            fields[f"cash_{table['players'][2]}"] = "2750"
            assert save_draft(tablet, fields, page) == {"status": "saved", "version": 2}
        tablets[table["pk"]], typed[table["pk"]] = tablet, fields
    return tablets, typed


def test_a_killed_server_keeps_the_clock_and_every_draft(hall):
    setup, start = hall
    server = start()
    event, (wave_1, wave_2) = setup["event"], setup["waves"]

    judge = judge_starts_both_waves_and_pauses_the_second(server, setup)
    tablets, typed = three_tablets_save_drafts(server, setup)

    # What the pages give back before the crash: the typed entries, at the saved version.
    before_pages = {}
    for pk, tablet in tablets.items():
        page = sheet_page(tablet.get(f"/bank/tables/{pk}/sheet/").body)
        for name, value in typed[pk].items():
            assert page.fields[name] == value, (pk, name)
        before_pages[pk] = page
    assert [p.version for p in before_pages.values()] == ["2", "1", "1"]

    hall_view = Tablet(server.base)
    running_before = clock_reading(hall_view, event, wave_1)
    paused_before = clock_reading(hall_view, event, wave_2)
    assert (running_before["status"], paused_before["status"]) == ("running", "paused")

    server.kill()
    assert server.process.returncode == -9
    server = start()

    running_after = clock_reading(hall_view, event, wave_1)
    paused_after = clock_reading(hall_view, event, wave_2)
    assert (running_after["status"], paused_after["status"]) == ("running", "paused")

    # The running clock lost exactly the server time between the two readings, and that
    # time is the wall time of the restart: it lies between the test's own clock readings.
    server_gap = running_after["server_ms"] - running_before["server_ms"]
    lost = running_before["remaining_ms"] - running_after["remaining_ms"]
    assert abs(lost - server_gap) <= 2
    earliest = running_after["before_ms"] - running_before["after_ms"]
    latest = running_after["after_ms"] - running_before["before_ms"]
    assert earliest - 2 <= server_gap <= latest + 2
    assert running_after["allotted_ms"] == running_before["allotted_ms"]
    # The paused clock did not move while the server was down.
    assert paused_after["remaining_ms"] == paused_before["remaining_ms"]
    assert paused_after["server_ms"] > paused_before["server_ms"]

    # Every tablet's session survived, and its sheet comes back exactly as it was.
    for pk, tablet in tablets.items():
        answer = tablet.get(f"/bank/tables/{pk}/sheet/")
        assert answer.status == 200 and answer.url.endswith(f"/bank/tables/{pk}/sheet/")
        page = sheet_page(answer.body)
        assert json.dumps(page.fields) == json.dumps(before_pages[pk].fields), pk
        assert page.version == before_pages[pk].version

    # The head judge's session survived too, and the paused wave goes on from where it was.
    control = judge.get(f"/organizer/events/{event}/clock/")
    assert control.status == 200 and control.url.endswith(f"/organizer/events/{event}/clock/")
    judge.post_form(f"/organizer/events/{event}/waves/{wave_2}/clock/resume/", {})
    resumed = clock_reading(hall_view, event, wave_2)
    assert resumed["status"] == "running"
    assert resumed["remaining_ms"] <= paused_before["remaining_ms"]
