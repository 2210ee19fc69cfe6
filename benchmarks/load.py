"""Load bench: the public standings page under load, against a trivial view.

Two gunicorn instances share one PostgreSQL database and one Redis cache, as several
application servers would behind a balancer; wrk drives 200 connections for 30 s spread
over both at /health/ (the cheapest Django view: the ceiling this stack can reach on this
machine), at the standings page, and at the standings page with If-None-Match, the three
taking turns in slices. The ratio of the throughputs says what the page itself costs,
which stays meaningful on a noisy shared machine where absolute numbers do not.

Called by benchmarks/run.py (``bench_load``) for ``make bench``; also runs alone,
printing its rows without touching docs/benchmarks.md:

    .venv/bin/python benchmarks/load.py
    BENCH_LOAD_DURATION=5 BENCH_LOAD_CONNECTIONS=50 .venv/bin/python benchmarks/load.py

Environment (defaults in brackets):

``BENCH_LOAD_DURATION``     measured seconds per kind of request [30]
``BENCH_LOAD_SLICES``       ... cut into this many interleaved runs [3]
``BENCH_LOAD_CONNECTIONS``  concurrent connections, split over the servers [200]
``BENCH_LOAD_WARMUP``       unmeasured seconds per kind of request, before the slices [3]
``BENCH_GUNICORN_WORKERS``  worker processes per instance [2]
``BENCH_GUNICORN_THREADS``  threads per worker [4]
``BENCH_GUNICORN_CLASS``    worker class [gthread]
``BENCH_PORTS``             the instances' ports [8201,8202]
``BENCH_DATABASE_URL``      [postgres://postgres@127.0.0.1:5432/boardwalk_bench], dropped
                            and recreated on every run so each run sees the same data
``BENCH_REDIS_URL``         [redis://127.0.0.1:6379/2], flushed before the run; when
                            nothing answers there, a private redis-server on port 8290

Every process started here (gunicorn, a private redis-server) is stopped in ``finally``
blocks, also on errors, Ctrl-C and SIGTERM.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

ROOT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT_DIR))

from benchmarks import servers  # noqa: E402

LUA = Path(__file__).resolve().parent / "load.lua"
Row = tuple[str, str, str]
P95_TARGET_MS = 50.0
RATIO_TARGET = 0.5


def prepare_event() -> tuple[int, str]:
    """The demo event: played, posted and its public pages released (demo/event.py).

    Returns the event's pk and the leader's alias, which the probe then looks for on the
    page: an unreleased page answers 200 too ("nothing posted yet"), and benching that
    would flatter the page. It runs inside Django (``load.py --prepare``) against the
    freshly migrated bench database.
    """
    from demo.event import DEMO_EVENT_NAME, load_demo_event
    from scoring import selectors
    from tournament.models import Event

    event = load_demo_event() or Event.objects.get(name=DEMO_EVENT_NAME)
    rows = selectors.standings(event=event, only_posted=True, with_players=False)
    if not rows:
        sys.exit("the demo event has no posted round: nothing for the standings page to show")
    return event.pk, rows[0].alias


# --- Services: PostgreSQL, Redis, gunicorn -------------------------------------------------


@dataclass(frozen=True)
class Result:
    requests_per_s: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    errors: int
    detail: str


@dataclass(frozen=True)
class Target:
    """One kind of request to measure, and the status that counts as success."""

    path: str
    headers: dict[str, str]
    expect: int


def _wrk(config: servers.Config, target: Target, *, seconds: int) -> dict:
    """One wrk run; the Lua script's JSON (counts, errors, statuses, latency quantiles)."""
    command = ["wrk", "-t", str(len(config.ports)), "-c", str(config.connections)]
    command += ["-d", f"{seconds}s", "--timeout", "2s", "-s", str(LUA)]
    for name, value in {**servers.PROXY_HEADERS, **target.headers}.items():
        command += ["-H", f"{name}: {value}"]
    command.append(f"http://127.0.0.1:{config.ports[0]}{target.path}")
    env = {**os.environ, "BENCH_PORTS": " ".join(str(p) for p in config.ports)}
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=seconds + 60)
    line = next((x for x in run.stdout.splitlines() if x.startswith("BENCH_JSON ")), None)
    if run.returncode != 0 or line is None:
        raise servers.BenchError(f"wrk failed ({run.returncode}):\n{run.stdout}\n{run.stderr}")
    return json.loads(line.removeprefix("BENCH_JSON "))


def _percentile(slices: list[dict], percent: float) -> float:
    """A percentile over every request of several runs, in microseconds.

    Each run reports its latency at dense quantiles (load.lua); a quantile point stands
    for the share of that run's requests between it and the previous point, so pooling
    the points of all runs, weighted by their requests, gives the pooled distribution to
    within one quantile step (0.1 % of requests near the tail).
    """
    points = []
    for data in slices:
        previous = 0.0
        for quantile, value in data["quantiles"]:
            points.append((value, data["requests"] * (quantile - previous) / 100))
            previous = quantile
    points.sort()
    wanted = sum(weight for _, weight in points) * percent / 100
    seen = 0.0
    for value, weight in points:
        seen += weight
        if seen >= wanted * (1 - 1e-9):
            return value
    return points[-1][0]


def _combine(slices: list[dict], expect: int) -> Result:
    requests = sum(d["requests"] for d in slices)
    seconds = sum(d["duration_us"] for d in slices) / 1e6
    statuses: dict[int, int] = {}
    socket_errors = dict.fromkeys(("connect", "read", "write", "timeout"), 0)
    for data in slices:
        for code, count in data["statuses"].items():
            statuses[int(code)] = statuses.get(int(code), 0) + count
        for kind in socket_errors:
            socket_errors[kind] += data["errors"][kind]
    # wrk calls 3xx a success; here only the expected status is one (a 301 to HTTPS is not).
    wrong_status = sum(n for code, n in statuses.items() if code != expect)
    size = sum(d["bytes"] for d in slices) / max(requests, 1)
    return Result(
        requests_per_s=requests / seconds,
        p50_ms=_percentile(slices, 50) / 1e3,
        p95_ms=_percentile(slices, 95) / 1e3,
        p99_ms=_percentile(slices, 99) / 1e3,
        errors=sum(socket_errors.values()) + wrong_status,
        detail=(
            f"{requests:,} requests, {size:,.0f} B each, statuses {dict(sorted(statuses.items()))}"
            f", socket errors {socket_errors}"
        ),
    )


def _measure_interleaved(config: servers.Config, targets: dict[str, Target]) -> dict[str, Result]:
    """Run the targets in turn, slice by slice, so all of them see the same machine.

    Run one after the other, a neighbour's burst of work during one run would skew the
    throughput ratio, which is the figure meant to carry over; interleaved, a burst
    spreads over all targets alike. Each target first gets an unmeasured warm-up (caches,
    database connections, lazy imports).
    """
    for target in targets.values():
        if config.warmup:
            _wrk(config, target, seconds=config.warmup)
    slices: dict[str, list[dict]] = {name: [] for name in targets}
    slice_seconds = max(1, config.duration // config.slices)
    for _ in range(config.slices):
        for name, target in targets.items():
            slices[name].append(_wrk(config, target, seconds=slice_seconds))
    return {name: _combine(slices[name], targets[name].expect) for name in targets}


def _probe(
    config: servers.Config, path: str, headers: dict[str, str], expect: int, showing: str = ""
) -> dict[str, str]:
    """Each instance must answer what we mean to measure, or the numbers mean nothing."""
    for port in config.ports:
        status, response_headers, body = servers.get(f"http://127.0.0.1:{port}{path}", headers)
        if status != expect or showing.encode() not in body:
            raise servers.BenchError(
                f"{path} on port {port} answered {status} (expected {expect})"
                + (f" without {showing!r}" if showing else "")
                + ": are the standings public? Adjust prepare_event() in benchmarks/load.py."
            )
    return response_headers


def _run_django(args: list[str], env: dict[str, str]) -> str:
    run = subprocess.run(
        [sys.executable, *args], cwd=servers.ROOT, env=env, capture_output=True, text=True
    )
    if run.returncode != 0:
        raise servers.BenchError(
            f"{' '.join(args)} failed:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
        )
    return run.stdout


@contextlib.contextmanager
def _stop_on_sigterm() -> Iterator[None]:
    """Turn SIGTERM into SystemExit so the finally blocks stop every server we started."""

    def _exit(signum, frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, _exit)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@dataclass(frozen=True)
class Measured:
    """The results, and the machine's load before the bench and around the measurement."""

    path: str
    machine_load: float
    load_during: tuple[float, float]
    health: Result
    standings: Result
    conditional: Result | None
    # The same targets through nginx (name -> result); None when nginx is not installed.
    proxied: dict[str, Result] | None = None


def measure(config: servers.Config) -> Measured:
    if not shutil.which("wrk"):
        raise servers.BenchError("wrk is missing: apt-get install -y wrk (make bench does)")
    # Before anything of ours runs: how busy the machine already is with other work.
    machine_load = os.getloadavg()[0]
    servers.ensure_postgres(config.database_url)
    servers.recreate_database(config.database_url)
    with _stop_on_sigterm(), contextlib.ExitStack() as stack:
        redis_url = servers.shared_redis(config.redis_url, stack)
        env = servers.server_env(config, redis_url)
        _run_django(["manage.py", "migrate", "--noinput"], env)
        prepared = _run_django([str(Path(__file__).resolve()), "--prepare"], env)
        pk, leader = json.loads(prepared.splitlines()[-1])
        logs = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="boardwalk-load-")))
        instances = []
        for port in config.ports:
            log = logs / f"gunicorn-{port}.log"
            proc = servers.start_gunicorn(port, config, env, log)
            stack.callback(servers.stop, proc)
            instances.append((port, proc, log))
        for port, proc, log in instances:
            servers.wait_ready(port, proc, log)

        path = f"/events/{pk}/standings/"
        _probe(config, "/health/", {}, 200)
        page = _probe(config, path, {}, 200, leader)
        targets = {
            "health": Target("/health/", {}, 200),
            "standings": Target(path, {}, 200),
        }
        # Phones polling with htmx send back the ETag they have; most polls change nothing.
        if etag := page.get("ETag"):
            _probe(config, path, {"If-None-Match": etag}, 304)
            targets["conditional"] = Target(path, {"If-None-Match": etag}, 304)
        load_before = os.getloadavg()[0]
        results = _measure_interleaved(config, targets)
        load_after = os.getloadavg()[0]
        proxied = None
        if shutil.which("nginx"):
            proc = servers.start_nginx(config, logs)
            stack.callback(servers.stop, proc)
            via = replace(config, ports=(servers.NGINX_PORT,))
            servers.check_proxy_caches_only_public_pages(pk, path)
            _probe(via, "/health/", {}, 200)
            _probe(via, path, {}, 200, leader)
            if "conditional" in targets:
                _probe(via, path, targets["conditional"].headers, 304)
            proxied = _measure_interleaved(via, targets)
        for port, proc, log in instances:
            if proc.poll() is not None:
                raise servers.BenchError(
                    f"gunicorn on {port} died during the run:\n{log.read_text()[-3000:]}"
                )
    return Measured(
        path=path,
        machine_load=machine_load,
        load_during=(load_before, load_after),
        health=results["health"],
        standings=results["standings"],
        conditional=results.get("conditional"),
        proxied=proxied,
    )


# --- Report ----------------------------------------------------------------------------


def _figures(result: Result) -> str:
    return (
        f"{result.requests_per_s:,.0f} req/s; p50 {result.p50_ms:,.1f} ms, "
        f"p95 {result.p95_ms:,.1f} ms, p99 {result.p99_ms:,.1f} ms; {result.errors:,} errors"
    )


def _verdict(result: Result, baseline: Result) -> str:
    ratio = result.requests_per_s / baseline.requests_per_s
    p95_met = result.p95_ms < P95_TARGET_MS
    ratio_met = ratio >= RATIO_TARGET
    return (
        f"throughput {ratio:.2f} × /health/ (target ≥ {RATIO_TARGET}: "
        f"{'met' if ratio_met else 'NOT met'}); p95 target < {P95_TARGET_MS:g} ms: "
        f"{'met' if p95_met else 'NOT met'}"
    )


def rows(config: servers.Config, results: Measured) -> list[Row]:
    slice_seconds = max(1, config.duration // config.slices)
    setup = (
        f"wrk {config.connections} connections × {slice_seconds * config.slices} s "
        f"({config.slices} slice{'s' if config.slices != 1 else ''} of {slice_seconds} s, "
        f"interleaved with the other rows, "
        f"after {config.warmup} s warm-up) over {len(config.ports)} gunicorn "
        f"({config.workers} workers × "
        f"{config.threads} threads each, {config.worker_class}); load average "
        f"{results.machine_load:.2f} before the bench, {results.load_during[0]:.2f} → "
        f"{results.load_during[1]:.2f} during"
    )
    health, standings = results.health, results.standings
    out = [
        (
            "load: /health/ (trivial view, the baseline)",
            _figures(health),
            f"all load rows: {setup}; {health.detail}",
        ),
        (
            f"load: standings page {results.path}, full page (200)",
            _figures(standings),
            f"{_verdict(standings, health)}; {standings.detail}",
        ),
    ]
    if results.conditional:
        out.append(
            (
                "load: standings page, If-None-Match (304, what polling phones send)",
                _figures(results.conditional),
                f"{_verdict(results.conditional, health)}; {results.conditional.detail}",
            )
        )
    else:
        out.append(
            (
                "load: standings page, If-None-Match",
                "not measured",
                "the page sent no ETag, so there is no conditional request to make",
            )
        )
    if results.proxied:
        via = results.proxied
        names = {
            "health": "load via nginx: /health/ (not cached, the baseline)",
            "standings": (
                f"load via nginx: standings page, {servers.MICRO_CACHE_S} s micro-cache (200)"
            ),
            "conditional": "load via nginx: standings page, If-None-Match (304)",
        }
        for name, label in names.items():
            if name not in via:
                continue
            how = (
                f"the same wrk load on one nginx balancing both instances; {via[name].detail}"
                if name == "health"
                else f"{_verdict(via[name], via['health'])}; {via[name].detail}"
            )
            out.append((label, _figures(via[name]), how))
    else:
        out.append(("load via nginx", "not measured", "nginx is not installed"))
    return out


# Lines of the paragraph run.py writes under the table.
NOTES = [
    "Load rows (`benchmarks/load.py`): two gunicorn instances on loopback share one",
    "PostgreSQL database and one Redis cache (production settings, DEBUG off; requests carry",
    "the `X-Forwarded-Proto: https` a TLS proxy would add). One wrk process gives half its",
    "connections to each instance. wrk, gunicorn, PostgreSQL and Redis share the machine's",
    "cores, so absolute numbers hold for this machine only; the ratio to /health/ (the full",
    'middleware stack answering "ok") is what carries over. The rows\' runs take turns in',
    "slices, so a neighbour's burst of work weighs on every row alike; each row's percentiles",
    "pool all its slices. Load averages during the bench count its own processes; the one",
    "before it is other work's. *Errors* are socket errors, timeouts (2 s) and any status but",
    "the expected one (200, or 304 for the If-None-Match row). wrk is a closed loop: each",
    "connection waits for its answer before sending again, so by Little's law the mean",
    "latency is connections ÷ throughput, and with 200 connections p95 < 50 ms needs at least",
    "4,000 req/s, whatever the page costs. The issue's targets are judged on the full-page",
    "row; the If-None-Match row shows what phones polling with htmx cost when nothing has",
    "changed (before it runs, both servers must answer 304 to the ETag one of them gave,",
    "which holds because they share the page's version through Redis). The *via nginx* rows",
    "put the README's reverse proxy in front of both instances: /health/ still reaches",
    "Django every time, while the public page is kept by nginx for one second (the page's",
    "own no-cache is for browsers), so the servers see about one request per second per",
    "page however many phones poll, as in the deployment the README describes.",
]


def bench_load() -> list[Row]:
    """The standings page under load against the trivial view (``make bench``).

    A bench that cannot run (no wrk, no PostgreSQL) says so in its row rather than
    throwing away the other benchmarks' minutes of results.
    """
    config = servers.Config.from_env()
    try:
        return rows(config, measure(config))
    except servers.BenchError as error:
        return [
            ("load: standings page against /health/", "NOT measured", str(error).splitlines()[0])
        ]


def main() -> None:
    if sys.argv[1:] == ["--prepare"]:
        import django

        django.setup()
        print(json.dumps(prepare_event()))
        return
    config = servers.Config.from_env()
    try:
        result_rows = rows(config, measure(config))
    except servers.BenchError as error:
        sys.exit(f"load bench: {error}")
    print("| benchmark | result | how |")
    print("|---|---|---|")
    for name, result, how in result_rows:
        print(f"| {name} | {result} | {how} |")
    print()
    print("\n".join(NOTES))


if __name__ == "__main__":
    main()
