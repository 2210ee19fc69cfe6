"""The processes the load and bankers benches start: PostgreSQL, Redis, gunicorn, nginx.

Shared by ``benchmarks/load.py`` (two gunicorn instances behind nginx) and
``benchmarks/bankers.py`` (one instance taking 500 tablets). Every function that starts a
process returns it, and ``stop`` ends it and its process group.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent

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


def env_int(name: str, default: int) -> int:
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
            duration=env_int("BENCH_LOAD_DURATION", 30),
            slices=env_int("BENCH_LOAD_SLICES", 3),
            connections=env_int("BENCH_LOAD_CONNECTIONS", 200),
            warmup=env_int("BENCH_LOAD_WARMUP", 3),
            # 2 instances x 2 workers = 4 processes for 2 cores: one per core plus one to run
            # while another waits on PostgreSQL or Redis. More would only add context
            # switches and memory on a machine where wrk, PostgreSQL and Redis need the same
            # cores. Threads (gthread) overlap the I/O waits inside a worker, and gthread keeps
            # wrk's connections alive the way a balancer's pool does; the GIL makes more
            # than a few threads per worker pointless for CPU-bound rendering.
            workers=env_int("BENCH_GUNICORN_WORKERS", 2),
            threads=env_int("BENCH_GUNICORN_THREADS", 4),
            worker_class=os.environ.get("BENCH_GUNICORN_CLASS", "gthread"),
            ports=tuple(int(p) for p in ports.replace(" ", ",").split(",") if p),
            database_url=os.environ.get(
                "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/boardwalk_bench"
            ),
            redis_url=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2"),
        )


# --- The event under test ----------------------------------------------------------------


def port_open(host: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def ensure_postgres(url: str) -> None:
    """Start the local cluster the way .ci/run does, when the bench's server is not up."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 5432
    if port_open(host, port):
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
        if port_open(host, port):
            return
        time.sleep(1)
    raise BenchError("PostgreSQL did not come up")


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        # FORCE: a server left over from an interrupted run must not block the drop.
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def shared_redis(url: str, stack: contextlib.ExitStack) -> str:
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
        stack.callback(stop, proc)
        url = f"redis://127.0.0.1:{port}/0"
        for _ in range(50):
            if port_open("127.0.0.1", port):
                break
            time.sleep(0.1)
    redis.Redis.from_url(url).flushdb()
    return url


def stop(proc: subprocess.Popen) -> None:
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


def server_env(config: Config, redis_url: str) -> dict[str, str]:
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


def start_gunicorn(port: int, config: Config, env: dict[str, str], log: Path) -> subprocess.Popen:
    if port_open("127.0.0.1", port):
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


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={**PROXY_HEADERS, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def wait_ready(port: int, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BenchError(f"gunicorn on {port} exited:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(OSError):
            if get(f"http://127.0.0.1:{port}/health/")[0] == 200:
                return
        time.sleep(0.3)
    raise BenchError(f"gunicorn on {port} did not answer /health/ within 60 s")


# --- The reverse proxy -------------------------------------------------------------------


def nginx_conf(config: Config, workdir: Path) -> Path:
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


def check_proxy_caches_only_public_pages(pk: int, public_path: str) -> None:
    """The micro-cache must hold the public page and nothing personal or clock-bound."""
    base = f"http://127.0.0.1:{NGINX_PORT}"
    for private in (f"/events/{pk}/register/", f"/events/{pk}/hall/state/", "/health/"):
        if "X-Cache" in get(base + private)[1]:
            raise BenchError(f"nginx's micro-cache would keep {private}; fix PUBLIC_PAGES")
    if "X-Cache" not in get(base + public_path)[1]:
        raise BenchError(f"nginx's micro-cache does not hold {public_path}; fix PUBLIC_PAGES")


def start_nginx(config: Config, workdir: Path) -> subprocess.Popen:
    if port_open("127.0.0.1", NGINX_PORT):
        raise BenchError(f"port {NGINX_PORT} is already in use; set BENCH_NGINX_PORT")
    conf = nginx_conf(config, workdir)
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
        if port_open("127.0.0.1", NGINX_PORT):
            return proc
        time.sleep(0.2)
    raise BenchError("nginx did not listen within 15 s")


# --- Measuring -------------------------------------------------------------------------
