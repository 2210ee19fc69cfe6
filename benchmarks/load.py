"""Load bench (issue #8): the public standings page under load, against a trivial view.

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
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
LUA = Path(__file__).resolve().parent / "load.lua"
Row = tuple[str, str, str]

P95_TARGET_MS = 50.0
RATIO_TARGET = 0.5
# What a TLS-terminating proxy adds: production settings redirect plain HTTP to HTTPS and
# trust this header, so the bench talks to gunicorn the way the proxy would.
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}
# The reverse proxy of the README's deployment, in front of both instances (if nginx is
# installed; make bench installs it).
NGINX_PORT = int(os.environ.get("BENCH_NGINX_PORT", "8203"))
# How long nginx may answer a public page from its own copy before asking a server again.
MICRO_CACHE_S = 1
# The spectator app's routes (spectator/urls.py), as the README's nginx site matches them.
PUBLIC_PAGES = (
    r'"^/events/[0-9]+/(live/home/|(live/)?(standings|final|winner|follow'
    r'|rounds/[0-9]+/(tables|results))/)?$"'
)


class BenchError(RuntimeError):
    """The bench could not measure what it claims to; never reported as a number."""


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, "") or default)


@dataclass(frozen=True)
class Config:
    duration: int
    slices: int
    connections: int
    warmup: int
    workers: int
    threads: int
    worker_class: str
    ports: tuple[int, ...]
    database_url: str
    redis_url: str

    @classmethod
    def from_env(cls) -> Config:
        ports = os.environ.get("BENCH_PORTS", "8201,8202")
        return cls(
            duration=_env_int("BENCH_LOAD_DURATION", 30),
            slices=_env_int("BENCH_LOAD_SLICES", 3),
            connections=_env_int("BENCH_LOAD_CONNECTIONS", 200),
            warmup=_env_int("BENCH_LOAD_WARMUP", 3),
            # 2 instances x 2 workers = 4 processes for 2 cores: one per core plus one to run
            # while another waits on PostgreSQL or Redis. More would only add context
            # switches and memory on a machine where wrk, PostgreSQL and Redis need the same
            # cores. Threads (gthread) overlap the I/O waits inside a worker, and gthread keeps
            # wrk's connections alive the way a balancer's pool does; the GIL makes more
            # than a few threads per worker pointless for CPU-bound rendering.
            workers=_env_int("BENCH_GUNICORN_WORKERS", 2),
            threads=_env_int("BENCH_GUNICORN_THREADS", 4),
            worker_class=os.environ.get("BENCH_GUNICORN_CLASS", "gthread"),
            ports=tuple(int(p) for p in ports.replace(" ", ",").split(",") if p),
            database_url=os.environ.get(
                "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/boardwalk_bench"
            ),
            redis_url=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2"),
        )


# --- The event under test ----------------------------------------------------------------


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


def _port_open(host: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def _ensure_postgres(url: str) -> None:
    """Start the local cluster the way .ci/run does, when the bench's server is not up."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 5432
    if _port_open(host, port):
        return
    clusters = sorted(
        Path("/etc/postgresql").glob("*"), key=lambda p: [int(x) for x in p.name.split(".")]
    )
    if host not in ("127.0.0.1", "localhost") or not clusters or not shutil.which("pg_ctlcluster"):
        raise BenchError(f"no PostgreSQL at {host}:{port}; start one or set BENCH_DATABASE_URL")
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", clusters[-1].name, "main", "start"],
        check=True,
    )
    for _ in range(30):
        if _port_open(host, port):
            return
        time.sleep(1)
    raise BenchError("PostgreSQL did not come up")


def _recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        # FORCE: a server left over from an interrupted run must not block the drop.
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _redis(url: str, stack: contextlib.ExitStack) -> str:
    """The shared cache, emptied so no page cached by an earlier run is served."""
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except (redis.ConnectionError, redis.TimeoutError):
        if not shutil.which("redis-server"):
            raise BenchError(f"no Redis at {url} and no redis-server to start") from None
        port = 8290
        proc = subprocess.Popen(
            ["redis-server", *f"--port {port} --bind 127.0.0.1 --appendonly no".split()]
            + ["--save", ""],
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        stack.callback(_stop, proc)
        url = f"redis://127.0.0.1:{port}/0"
        for _ in range(50):
            if _port_open("127.0.0.1", port):
                break
            time.sleep(0.1)
    redis.Redis.from_url(url).flushdb()
    return url


def _stop(proc: subprocess.Popen) -> None:
    """Graceful first (gunicorn finishes its requests), then the whole process group."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


def _server_env(config: Config, redis_url: str) -> dict[str, str]:
    """Production settings: DEBUG off and everything it then requires."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "BENCH_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=config.database_url,
        REDIS_URL=redis_url,
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def _start_gunicorn(port: int, config: Config, env: dict[str, str], log: Path) -> subprocess.Popen:
    if _port_open("127.0.0.1", port):
        raise BenchError(f"port {port} is already in use; set BENCH_PORTS")
    return subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "config.wsgi:application",
            "--bind", f"127.0.0.1:{port}",
            "--worker-class", config.worker_class,
            "--workers", str(config.workers),
            "--threads", str(config.threads),
            "--error-logfile", str(log),
            "--log-level", "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={**PROXY_HEADERS, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _wait_ready(port: int, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BenchError(f"gunicorn on {port} exited:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(OSError):
            if _get(f"http://127.0.0.1:{port}/health/")[0] == 200:
                return
        time.sleep(0.3)
    raise BenchError(f"gunicorn on {port} did not answer /health/ within 60 s")


# --- The reverse proxy -------------------------------------------------------------------


def _nginx_conf(config: Config, workdir: Path) -> Path:
    """One nginx balancing both instances, with a micro-cache for the public pages only.

    The application marks public pages ``no-cache`` (browsers revalidate every poll);
    the proxy may still keep each for ``MICRO_CACHE_S``: a page is at most that much
    older than the database, and however many phones poll, each server renders or checks
    it about once a second. Everything else (``/health/`` here) goes to the servers
    every time. nginx answers If-None-Match from its copy with a 304 itself.
    """
    servers = "\n".join(f"    server 127.0.0.1:{port};" for port in config.ports)
    conf = workdir / "nginx.conf"
    conf.write_text(
        f"""
daemon off;
user root;
worker_processes auto;
pid {workdir}/nginx.pid;
error_log {workdir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  proxy_cache_path {workdir}/cache levels=1:2 keys_zone=public:10m max_size=100m
                   inactive=60s use_temp_path=off;
  upstream boardwalk {{
{servers}
    keepalive 64;
  }}
  server {{
    listen 127.0.0.1:{NGINX_PORT};
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $host;
    # The spectator pages only (the README's pattern): never the registration form (its CSRF
    # token is per visitor) nor the hall display's state (it carries the server's time).
    location ~ {PUBLIC_PAGES} {{
      proxy_pass http://boardwalk;
      proxy_cache public;
      proxy_ignore_headers Cache-Control;
      proxy_cache_valid 200 {MICRO_CACHE_S}s;
      proxy_cache_lock on;
      proxy_cache_use_stale updating;
      proxy_cache_key $scheme$host$request_uri$http_accept_language;
      add_header X-Cache $upstream_cache_status;
    }}
    location / {{
      proxy_pass http://boardwalk;
    }}
  }}
}}
"""
    )
    return conf


def _check_proxy_caches_only_public_pages(pk: int, public_path: str) -> None:
    """The micro-cache must hold the public page and nothing personal or clock-bound."""
    base = f"http://127.0.0.1:{NGINX_PORT}"
    for private in (f"/events/{pk}/register/", f"/events/{pk}/hall/state/", "/health/"):
        if "X-Cache" in _get(base + private)[1]:
            raise BenchError(f"nginx's micro-cache would keep {private}; fix PUBLIC_PAGES")
    if "X-Cache" not in _get(base + public_path)[1]:
        raise BenchError(f"nginx's micro-cache does not hold {public_path}; fix PUBLIC_PAGES")


def _start_nginx(config: Config, workdir: Path) -> subprocess.Popen:
    if _port_open("127.0.0.1", NGINX_PORT):
        raise BenchError(f"port {NGINX_PORT} is already in use; set BENCH_NGINX_PORT")
    conf = _nginx_conf(config, workdir)
    proc = subprocess.Popen(
        ["nginx", "-c", str(conf), "-p", str(workdir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log = workdir / "error.log"
            raise BenchError(f"nginx exited: {log.read_text()[-2000:] if log.exists() else ''}")
        if _port_open("127.0.0.1", NGINX_PORT):
            return proc
        time.sleep(0.2)
    raise BenchError("nginx did not listen within 15 s")


# --- Measuring -------------------------------------------------------------------------


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


def _wrk(config: Config, target: Target, *, seconds: int) -> dict:
    """One wrk run; the Lua script's JSON (counts, errors, statuses, latency quantiles)."""
    command = ["wrk", "-t", str(len(config.ports)), "-c", str(config.connections)]
    command += ["-d", f"{seconds}s", "--timeout", "2s", "-s", str(LUA)]
    for name, value in {**PROXY_HEADERS, **target.headers}.items():
        command += ["-H", f"{name}: {value}"]
    command.append(f"http://127.0.0.1:{config.ports[0]}{target.path}")
    env = {**os.environ, "BENCH_PORTS": " ".join(str(p) for p in config.ports)}
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=seconds + 60)
    line = next((x for x in run.stdout.splitlines() if x.startswith("BENCH_JSON ")), None)
    if run.returncode != 0 or line is None:
        raise BenchError(f"wrk failed ({run.returncode}):\n{run.stdout}\n{run.stderr}")
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


def _measure_interleaved(config: Config, targets: dict[str, Target]) -> dict[str, Result]:
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
    config: Config, path: str, headers: dict[str, str], expect: int, showing: str = ""
) -> dict[str, str]:
    """Each instance must answer what we mean to measure, or the numbers mean nothing."""
    for port in config.ports:
        status, response_headers, body = _get(f"http://127.0.0.1:{port}{path}", headers)
        if status != expect or showing.encode() not in body:
            raise BenchError(
                f"{path} on port {port} answered {status} (expected {expect})"
                + (f" without {showing!r}" if showing else "")
                + ": are the standings public? Adjust prepare_event() in benchmarks/load.py."
            )
    return response_headers


def _run_django(args: list[str], env: dict[str, str]) -> str:
    run = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        raise BenchError(f"{' '.join(args)} failed:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}")
    return run.stdout


@contextlib.contextmanager
def _stop_on_sigterm() -> Iterator[None]:
    """Turn SIGTERM into SystemExit so the finally blocks stop every server we started."""

    def _exit(signum, frame):  # noqa: ARG001
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


def measure(config: Config) -> Measured:
    if not shutil.which("wrk"):
        raise BenchError("wrk is missing: apt-get install -y wrk (make bench does)")
    # Before anything of ours runs: how busy the machine already is with other work.
    machine_load = os.getloadavg()[0]
    _ensure_postgres(config.database_url)
    _recreate_database(config.database_url)
    with _stop_on_sigterm(), contextlib.ExitStack() as stack:
        redis_url = _redis(config.redis_url, stack)
        env = _server_env(config, redis_url)
        _run_django(["manage.py", "migrate", "--noinput"], env)
        prepared = _run_django([str(Path(__file__).resolve()), "--prepare"], env)
        pk, leader = json.loads(prepared.splitlines()[-1])
        logs = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="boardwalk-load-")))
        servers = []
        for port in config.ports:
            log = logs / f"gunicorn-{port}.log"
            proc = _start_gunicorn(port, config, env, log)
            stack.callback(_stop, proc)
            servers.append((port, proc, log))
        for port, proc, log in servers:
            _wait_ready(port, proc, log)

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
            proc = _start_nginx(config, logs)
            stack.callback(_stop, proc)
            via = replace(config, ports=(NGINX_PORT,))
            _check_proxy_caches_only_public_pages(pk, path)
            _probe(via, "/health/", {}, 200)
            _probe(via, path, {}, 200, leader)
            if "conditional" in targets:
                _probe(via, path, targets["conditional"].headers, 304)
            proxied = _measure_interleaved(via, targets)
        for port, proc, log in servers:
            if proc.poll() is not None:
                raise BenchError(
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


def rows(config: Config, results: Measured) -> list[Row]:
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
            "standings": f"load via nginx: standings page, {MICRO_CACHE_S} s micro-cache (200)",
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
    "Load rows (`benchmarks/load.py`, issue #8): two gunicorn instances on loopback share one",
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
    config = Config.from_env()
    try:
        return rows(config, measure(config))
    except BenchError as error:
        return [
            ("load: standings page against /health/", "NOT measured", str(error).splitlines()[0])
        ]


def main() -> None:
    if sys.argv[1:] == ["--prepare"]:
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        print(json.dumps(prepare_event()))
        return
    config = Config.from_env()
    try:
        result_rows = rows(config, measure(config))
    except BenchError as error:
        sys.exit(f"load bench: {error}")
    print("| benchmark | result | how |")
    print("|---|---|---|")
    for name, result, how in result_rows:
        print(f"| {name} | {result} | {how} |")
    print()
    print("\n".join(NOTES))


if __name__ == "__main__":
    main()
