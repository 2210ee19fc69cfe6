"""The whole day as a benchmark: a 2,000-player championship, every step over HTTP.

gunicorn serves the app on PostgreSQL with production settings, a ``jobs_worker`` runs the
background jobs, and the officials do what their pages offer, one request per tap: the
organizer creates the event, uploads a CSV of the players (a background job past 300
lines), checks everyone in at the desk (four desks at once, a tap per player), pre-seats
the three rounds, releases the public pages and publishes each round; the head judge
starts the round and its clock and calls time; the organizer issues each table's private
link; the bankers, one thread per table, tap last turn and game over, enter and sign the
sheet (``bankers.banker``); four judges approve the sheets, the head judge orders any tie
by player id and posts the round. After three rounds the organizer seats the final (the
head judge orders a tie at the cut first), it is played the same way, and the public
winner page must name the recount's winner. Simulated phones poll the public pages with
If-None-Match all day.

Each stage's wall time, the CPU time of gunicorn's processes and of the jobs worker
(PostgreSQL's is not counted) and the p95 of every request made in the stage go into
docs/benchmarks.md (``python benchmarks/run.py --only day``). Afterwards the database is
read: every table must have exactly one sheet, and the standings must equal the points
recounted from the simulator's games with the seeds' points table (``bankers``).

The games are the simulator's (``bankers.table_plan``, read in a child process once a
round is seated): that is what happened at the tables; no step of the day is done in
the database. ``BENCH_DAY_DATABASE_URL`` [postgres://postgres@127.0.0.1:5432/
boardwalk_day] is dropped and created afresh; ``BENCH_DAY_PLAYERS`` [2000];
``BENCH_DAY_PORT`` [8232]; ``BENCH_DAY_PHONES`` [a quarter of the players] phones with a
public page open (polled from 4 threads); ``BENCH_DAY_ARRIVAL`` [60] seconds over which
the bankers reach their tablets once time is called; gunicorn gets
``BENCH_GUNICORN_WORKERS`` [2] workers of ``BENCH_DAY_THREADS`` [8] threads.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import html
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import bankers, servers  # noqa: E402
from benchmarks.bankers import Tablet, percentile  # noqa: E402
from benchmarks.officials import Official, form_on, multipart  # noqa: E402

Row = tuple[str, str, str]
PASSWORD = "a long Boardwalk bench passphrase"
OFFICIALS = {"olive": "Organizer", "hedda": "Head judge", "jules": "Judge"}
DESKS = 4  # check-in desks and judges working at once
# Bankers reach their tablets over this long once time is called (as the bankers bench).
ARRIVAL_S = servers.env_int("BENCH_DAY_ARRIVAL", 60)

NOTES = [
    "<!-- day notes -->",
    "Day rows (`benchmarks/day.py`; `python benchmarks/run.py --only day`): a whole",
    "championship day through gunicorn (production settings, PostgreSQL) and a jobs worker,",
    "every step an HTTP request as the officials' pages make it: the CSV upload (a background",
    "job), a check-in tap per player at four desks, pre-seating, publishing, the round and",
    "clock starts, a private link per table, the bankers' tablets (last turn, game over,",
    "sheet, draft, submit, one initial per player and the banker's; one thread per table,",
    "arriving over 60 s, no pause between taps), four judges approving, ties ordered,",
    "posting, the final seated from the standings and played the same way. All day, one",
    "phone per four players keeps a public page open (home, tables, results or standings)",
    "and asks for it every 15 s with its ETag, as the page's htmx does. *CPU* is gunicorn's",
    "processes' and the jobs worker's user + system time in the stage (PostgreSQL's is not",
    "counted); *p95* is over every request of the stage, the phones' included. The wall",
    "time of the day also holds the bench's own work between stages (simulating each",
    "round's games). The machine is shared with other work (load average in the rows).",
    "",
    "- **Everything was stored once and adds up:** every table of the three rounds and the",
    "  final has exactly one sheet, all 2,000 players' standings equal the recount, and the",
    "  public winner page names the recount's winner, in both full runs.",
    "- **The bankers are the day's bottleneck, and the only stage whose p95 is seconds.**",
    "  500 tablets tapping without a pause (13 requests each) against 16 server threads on 2",
    "  cores queue behind one another: gunicorn alone burns 245-295 s of CPU per round's",
    "  bankers (about 40 ms a request), so the stage cannot take less than about 130 s on two",
    "  cores, and every request waits behind the others in flight. Real bankers pause minutes",
    "  between taps while they count and fill in the sheet, so their tablets queue far less;",
    "  the stage's wall time (all 500 tables entered and signed) is the figure to watch.",
    "- **Everything else is quick:** the 2,000 check-in taps, the 500 private links, the",
    "  approvals and postings answer with a p95 under half a second even with the phones'",
    "  polling on top (about 1 s for seating the final and its link, 20-90 requests); the",
    "  upload of 2,000 lines runs as a job, 8-33 s with the event's creation.",
    "- **First full run, for comparison** (2026-12-05 16:42-16:59 UTC, load average 6-10):",
    "  bankers arriving over 30 s and 4 phones each polling the four pages back to back",
    "  (about 3 requests a second in all): 1,003 s for the day; the bankers' stages 197, 265",
    "  and 201 s (p95 30, 38 and 25 s), check-in 21 s, each round's links 40-60 s and",
    "  approvals 39-47 s. The rows above (one phone per four players, about 33 requests a",
    "  second: 19,681 polls) took 1,933 s at a load average of 9-19 from other work, which",
    "  slowed every stage (wall well above gunicorn's CPU outside the bankers' stages).",
    "<!-- /day notes -->",
]


# --- Measuring -----------------------------------------------------------------------------


class Clock:
    """Every answer's end and length, and the CPU of the server's processes."""

    def __init__(self, process_groups: list[int]) -> None:
        self.groups = process_groups
        self.answers: list[tuple[float, float]] = []
        self.lock = threading.Lock()
        self.stages: list[dict] = []

    def answer(self, ended: float, seconds: float) -> None:
        with self.lock:
            self.answers.append((ended, seconds))

    def cpu(self) -> float:
        """User + system seconds of every live process in the groups (workers included)."""
        tick = os.sysconf("SC_CLK_TCK")
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) in self.groups:  # pgrp
                    total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / tick

    @contextlib.contextmanager
    def stage(self, name: str, note: str = "") -> Iterator[dict]:
        print(f"  stage: {name} ...", flush=True)
        extra: dict = {"note": note}
        cpu, start = self.cpu(), time.perf_counter()
        yield extra
        end = time.perf_counter()
        with self.lock:
            seconds = [s for ended, s in self.answers if start <= ended <= end]
        self.stages.append(
            {
                "name": name,
                "wall": end - start,
                "cpu": self.cpu() - cpu,
                "requests": len(seconds),
                "p95": percentile(seconds, 0.95),
                **extra,
            }
        )
        print(f"    {self.stages[-1]}", flush=True)


PHONE_PAGES = ("live/home/", "live/rounds/{n}/tables/", "live/rounds/{n}/results/")
PHONE_PAGES += ("live/standings/",)
PHONE_THREADS = 4
POLL_S = 15  # settings.BOARDWALK_LIVE_POLL_SECONDS: how often an open public page asks


def phones(base: str, event: int, state: dict, stop: threading.Event, seen: list, *, count: int):
    """``count`` spectators' phones, each with one public page open (the four in turn), each
    asking for it every POLL_S seconds with the ETag it last got, as the page's htmx does."""
    tablet = Tablet(base)
    etags: list[str | None] = [None] * count
    while True:
        for index in range(count):
            page = PHONE_PAGES[index % len(PHONE_PAGES)]
            if "{n}" in page and not state["round"]:
                page = PHONE_PAGES[0]  # a round's pages exist once its tables are published
            path = f"/events/{event}/" + page.format(n=state["round"])
            headers = {"If-None-Match": etags[index]} if etags[index] else {}
            status, answer, _ = tablet.call(path, headers=headers)
            etags[index] = answer.get("ETag") or etags[index]
            seen.append(status if status < 400 else f"{status} {page}")
            if stop.wait(POLL_S / count):
                return


# --- In a child process with Django: the officials' accounts, the games, the checks -------


def setup() -> dict:
    bankers._django()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    for name, group in OFFICIALS.items():
        user = User.objects.create_user(name, password=PASSWORD)
        user.groups.add(Group.objects.get(name=group))
    return {}


def plan(event_pk: int, number: int) -> dict:
    """Round ``number``'s tables (0: the newest round), their games and the clock's waves."""
    bankers._django()
    from tournament.models import Round

    rounds = Round.objects.filter(event_id=event_pk).order_by("-number")
    round_ = rounds.get(number=number) if number else rounds.first()
    tables = round_.tables.order_by("number").select_related("round__event")
    return {
        "number": round_.number,
        "kind": round_.kind,
        "waves": list(round_.waves.order_by("number").values_list("pk", flat=True)),
        "tables": [bankers.table_plan(table) for table in tables],
        "aliases": dict(
            (str(pk), alias)
            for pk, alias in round_.event.players.values_list("pk", "alias").iterator()
        ),
    }


def check(event_pk: int) -> dict:
    """What the database holds at the end: sheets per table, standings, the final."""
    bankers._django()
    from scoring.models import TableSheet
    from scoring.selectors import standings
    from tournament.models import Event, Player, Table

    event = Event.objects.get(pk=event_pk)
    tables = Table.objects.filter(round__event=event)
    per_table = bankers.Counter_of(TableSheet.objects.filter(table__in=tables), "table_id")
    return {
        "tables": tables.count(),
        "one_sheet": sum(1 for pk in tables.values_list("pk", flat=True) if per_table.get(pk) == 1),
        "players": Player.objects.filter(event=event).count(),
        "checked_in": Player.objects.filter(event=event, checked_in_at__isnull=False).count(),
        "standings": {
            str(row.player_id): str(row.points)
            for row in standings(event=event, only_posted=True, with_players=False)
        },
    }


# --- The day -------------------------------------------------------------------------------


def players_csv(players: int) -> bytes:
    lines = ["first_name,last_name,date_of_birth,email,eligibility_declared,citizenship_declared"]
    rng = random.Random(bankers.SEED)
    for i in range(players):
        born = datetime.date(1950, 1, 1) + datetime.timedelta(days=rng.randrange(19_000))
        lines.append(f"Player{i:04d},Benchfield{i:04d},{born},p{i}@example.org,yes,yes")
    return ("\n".join(lines) + "\n").encode()


def create_and_import(day: Day) -> None:
    olive = day.officials["olive"]
    with day.clock.stage("create the event, upload the CSV of players"):
        date = datetime.date.today().isoformat()
        status, location = olive.submit(
            "/organizer/events/new/?format=championship",
            "/organizer/events/new/",
            name=f"Day bench ({day.players} players)",
            organization="Bench Club",
            venue="Bench Hall",
            date=date,
            start_time="00:00",
            expected_players=str(day.players),
            alternates="0",
        )
        found = re.search(r"/organizer/events/(\d+)/", location)
        if status != 302 or not found:
            raise servers.BenchError(f"the event was not created ({status} {location})")
        day.event = int(found.group(1))
        page = f"/organizer/events/{day.event}/players/import/"
        bankers._csrf_from(olive, olive.call(page)[2])
        body, kind = multipart({}, "file", "players.csv", players_csv(day.players))
        status, headers, _ = olive.call(page, body, headers={"Content-Type": kind})
        job = headers.get("Location", "")
        while "job=" in job:  # the page polls the job until it is finished
            answer = olive.call(job, headers={"HX-Request": "true"})[1]
            if answer.get("HX-Refresh"):
                break
            time.sleep(1)


def check_in_everyone(day: Day) -> None:
    desk = f"/organizer/events/{day.event}/check-in/"
    with day.clock.stage("check-in: a tap per player at 4 desks"):
        olive, pks, number = day.officials["olive"], [], 1
        while True:  # the desk's pages of 50
            page = olive.call(f"{desk}?page={number}")[2].decode()
            found = re.findall(r'id="check-in-(\d+)"', page)
            if not found or found[0] in pks:
                break
            pks.extend(found)
            number += 1
        desks = [day.signed_in("olive") for _ in range(DESKS)]
        for official in desks:
            bankers._csrf_from(official, official.call(desk)[2])
        path = f"/organizer/events/{day.event}/players/{{}}/check-in/"

        def tap(index: int) -> int:
            official = desks[index % DESKS]
            return official.call(
                path.format(pks[index]), {"next": desk}, headers={"HX-Request": "true"}
            )[0]

        with ThreadPoolExecutor(DESKS) as pool:
            statuses = list(pool.map(tap, range(len(pks))))
        day.problems += [f"check-in {s}" for s in statuses if s != 200][:5]


def preseat_and_release(day: Day) -> None:
    olive = day.officials["olive"]
    seating = f"/organizer/events/{day.event}/seating/"
    with day.clock.stage("pre-seat 3 rounds, release the public pages, publish round 1"):
        olive.submit(seating, "seating/preseat/")
        public = f"/organizer/events/{day.event}/public/"
        switches = ("home", "tables", "results", "standings", "final", "winner")
        olive.submit(public, "/public/", **dict.fromkeys(switches, "on"))
        olive.submit(f"{seating}?round=1", "seating/1/publish/", published="1")
    day.state["round"] = 1


def play_round(day: Day, number: int) -> None:
    """A round from its start to its posting, in three stages."""
    head, olive = day.officials["hedda"], day.officials["olive"]
    event = f"/organizer/events/{day.event}/"
    planned = bankers._child("--plan", str(day.event), str(number), env=day.env, script=__file__)
    number, tables = planned["number"], planned["tables"]
    day.rounds.append(planned)
    label = "final" if planned["kind"] == "final" else f"round {number}"
    with day.clock.stage(f"{label}: start, clock, time called, the tables' links"):
        if number > 1 and planned["kind"] == "preliminary":
            olive.submit(f"{event}seating/?round={number}", f"seating/{number}/publish/")
        day.state["round"] = number  # the phones turn to the round's pages
        if planned["kind"] == "preliminary":
            olive.submit(f"{event}seating/?round={number}", f"seating/{number}/start/")
        for wave in planned["waves"]:
            head.submit(f"{event}clock/", f"waves/{wave}/clock/start/")
        for wave in planned["waves"]:
            head.submit(f"{event}clock/", f"waves/{wave}/clock/end/", reason="Time.")
        for table in tables:
            link = f"/organizer/tables/{table['pk']}/banker-link/"
            olive.submit(link, "banker-link/issue/")
            page = olive.call(link)[2].decode()
            table["key"] = re.search(r"/bank/k/([^/\"<\s]+)/", page).group(1)
    count = f"{len(tables)} table" + ("s" if len(tables) > 1 else "")
    with day.clock.stage(f"{label}: the bankers enter and sign ({count})") as extra:
        rng = random.Random(number)
        with ThreadPoolExecutor(len(tables)) as pool:
            done = list(
                pool.map(
                    lambda t: bankers.banker(
                        day.base, t, rng.uniform(0, ARRIVAL_S), game_over=True
                    ),
                    tables,
                )
            )
        problems = [p for r in done for p in r["problems"]]
        extra["note"] = f"{len(tables) - sum(1 for r in done if r['problems'])} without a problem"
        day.problems += problems[:5]
    with day.clock.stage(f"{label}: 4 judges approve, ties ordered, posted"):
        results = f"{event}results/{number}/"
        judges = [day.signed_in("jules") for _ in range(DESKS)]

        def approve(index: int) -> None:
            judge, table = judges[index % DESKS], tables[index]
            page = f"{results}tables/{table['number']}/"
            judge.submit(page, "/approve/")
            tie = form_on(judge.call(page)[2], "/tie/")
            if tie is not None and tie.get("players"):
                order = sorted(tie["players"].split(","), key=int)
                places = {f"place_{i}": pk for i, pk in enumerate(order, start=1)}
                head.submit(page, "/tie/", mode="order", reason="bench: by id", **places)

        with ThreadPoolExecutor(DESKS) as pool:
            list(pool.map(approve, range(len(tables))))
        head.submit(results, f"results/{number}/post/")


def final_and_winner(day: Day) -> None:
    head, olive = day.officials["hedda"], day.officials["olive"]
    standings = f"/organizer/events/{day.event}/standings/"
    with day.clock.stage("seat the final from the standings"):
        tie = form_on(head.call(standings)[2], "standings/tie/")
        if tie is not None and tie.get("players"):
            order = sorted(tie["players"].split(","), key=int)
            places = {f"place_{i}": pk for i, pk in enumerate(order, start=1)}
            head.submit(standings, "standings/tie/", mode="order", reason="bench", **places)
        olive.submit(standings, "/final/")
    play_round(day, 0)
    with day.clock.stage("the winner on the public page"):
        final = day.rounds[-1]
        points = bankers.expected_points(final["tables"])
        winner = max(points, key=points.get)
        page = olive.call(f"/events/{day.event}/winner/")[2].decode()
        alias = final["aliases"][winner]
        day.winner = (alias, f'<strong class="alias">{html.escape(alias)}</strong>' in page)


@dataclasses.dataclass
class Day:
    base: str
    players: int
    env: dict[str, str]
    clock: Clock
    event: int = 0
    officials: dict[str, Official] = dataclasses.field(default_factory=dict)
    state: dict = dataclasses.field(default_factory=lambda: {"round": 0})
    rounds: list[dict] = dataclasses.field(default_factory=list)
    problems: list[str] = dataclasses.field(default_factory=list)
    winner: tuple[str, bool] = ("", False)
    phones: int = 0

    def signed_in(self, username: str) -> Official:
        official = Official(self.base)
        official.sign_in(username, PASSWORD)
        return official


def _serve(config: servers.Config, port: int) -> tuple[subprocess.Popen, subprocess.Popen]:
    env = servers.server_env(config, "")
    env.pop("REDIS_URL", None)  # each worker's own memory cache, as the bankers bench
    log = ROOT / "artifacts" / "bench-day-gunicorn.log"
    log.parent.mkdir(exist_ok=True)
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "jobs_worker"],
        cwd=ROOT,
        env=env,
        stdout=(ROOT / "artifacts" / "bench-day-jobs.log").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    server = servers.start_gunicorn(port, config, env, log)
    servers.wait_ready(port, server, log)
    return server, worker


def run() -> dict:
    url = os.environ.get(
        "BENCH_DAY_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/boardwalk_day"
    )
    players = servers.env_int("BENCH_DAY_PLAYERS", 2000)
    port = servers.env_int("BENCH_DAY_PORT", 8232)
    config = dataclasses.replace(
        servers.Config.from_env(),
        database_url=url,
        threads=servers.env_int("BENCH_DAY_THREADS", 8),
        ports=(port,),
    )
    servers.ensure_postgres(url)
    servers.recreate_database(url)
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.pop("REDIS_URL", None)
    bankers._child("--setup", env=env, script=__file__)
    server, worker = _serve(config, port)
    clock = Clock([server.pid, worker.pid])
    day = Day(f"http://127.0.0.1:{port}", players, env, clock)
    stop, seen, polling = threading.Event(), [], []
    Tablet.on_answer = clock.answer
    started = time.perf_counter()
    try:
        day.officials = {name: day.signed_in(name) for name in OFFICIALS}
        create_and_import(day)
        count = servers.env_int("BENCH_DAY_PHONES", players // 4) // PHONE_THREADS
        day.phones = count * PHONE_THREADS
        for _ in range(PHONE_THREADS):
            args = (day.base, day.event, day.state, stop, seen)
            polling.append(
                threading.Thread(target=phones, args=args, kwargs={"count": count}, daemon=True)
            )
            polling[-1].start()
        check_in_everyone(day)
        preseat_and_release(day)
        for number in (1, 2, 3):
            play_round(day, number)
        final_and_winner(day)
    finally:
        stop.set()
        for thread in polling:
            thread.join(timeout=30)
        Tablet.on_answer = None
        servers.stop(server)
        servers.stop(worker)
    found = bankers._child("--check", str(day.event), env=env, script=__file__)
    return _verdict(day, found, time.perf_counter() - started, seen, config)


def _verdict(day: Day, found: dict, wall: float, seen: list, config) -> dict:
    """The recount against the standings (preliminary rounds: the final does not count)."""
    expected: dict[str, int] = {}
    for planned in day.rounds:
        if planned["kind"] != "preliminary":
            continue
        for pk, points in bankers.expected_points(planned["tables"]).items():
            expected[pk] = expected.get(pk, 0) + points
    standings = {pk: float(points) for pk, points in found.pop("standings").items()}
    return {
        **found,
        "wall": wall,
        "stages": day.clock.stages,
        "wrong_points": sum(1 for pk, p in expected.items() if standings.get(pk) != p),
        "recounted": len(expected),
        "problems": day.problems[:5],
        "winner": day.winner,
        "polls": len(seen),
        "phones": day.phones,
        "not_modified": seen.count(304),
        "poll_errors": Counter(s for s in seen if isinstance(s, str)).most_common(3),
        "config": f"{config.workers} workers x {config.threads} threads",
        "players_asked": day.players,
    }


def bench_day() -> list[Row]:
    try:
        r = run()
    except Exception as error:
        return [("day: a whole championship", "NOT measured", str(error).splitlines()[-1][:300])]
    load = os.getloadavg()[0]
    how = (
        f"gunicorn gthread {r['config']} on PostgreSQL, production settings, a jobs worker; "
        f"shared machine, load average {load:.1f}"
    )
    rows = [
        (
            f"day, {r['players_asked']:,} players: {stage['name']}",
            f"{stage['wall']:.1f} s; CPU {stage['cpu']:.1f} s; {stage['requests']:,} requests, "
            f"p95 {stage['p95'] * 1000:.0f} ms" + (f"; {stage['note']}" if stage["note"] else ""),
            how,
        )
        for stage in r["stages"]
    ]
    right = r["recounted"] - r["wrong_points"]
    rows.append(
        (
            f"day, {r['players_asked']:,} players: what was stored",
            f"{r['wall']:.0f} s for the day; {r['players']} players, {r['checked_in']} checked "
            f"in; {r['one_sheet']}/{r['tables']} tables with exactly one sheet; standings: "
            f"{right}/{r['recounted']} players' points as recounted; winner "
            f"{r['winner'][0]} " + ("on the public page" if r["winner"][1] else "NOT shown"),
            f"checked in the database afterwards; points recounted from the simulator's games "
            f"with the seeds' points table (28; 25-14; 22-12-6; 19-10-5-3; 16-8-4-2-1); "
            f"{r['phones']} phones: {r['polls']:,} polls, {r['not_modified']:,} answered 304, "
            "errors: "
            + (", ".join(f"{n} x {what}" for what, n in r["poll_errors"]) or "none")
            + (f"; first problems: {'; '.join(r['problems'])}" if r["problems"] else ""),
        )
    )
    return rows


if __name__ == "__main__":
    if sys.argv[1:2] == ["--setup"]:
        print(json.dumps(setup()))
    elif sys.argv[1:2] == ["--plan"]:
        print(json.dumps(plan(int(sys.argv[2]), int(sys.argv[3]))))
    elif sys.argv[1:2] == ["--check"]:
        print(json.dumps(check(int(sys.argv[2]))))
    else:
        for row in bench_day():
            print(" | ".join(row))
