"""The README's production recipe, step by step, on a ``Deployment`` (deploy/machine.py).

Each function is one part of README "Production" with its commands; `deploy/check.py`
calls them in order. What the README does as root with ``sudo -u postgres`` is done here
through the superuser connection the check was given.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from machine import (
    APPS,
    DATA,
    DATABASE,
    HOST,
    RESTORED,
    ROLE,
    ROOT,
    CheckError,
    Deployment,
    run,
    wait_listening,
)

# --- Install ------------------------------------------------------------------------------


def source_files() -> list[str]:
    """What a clone of the checkout holds, with this checkout's changes: tracked files and
    new ones not ignored (never .venv, db.sqlite3, staticfiles/ or build leftovers)."""
    out = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT)
    return sorted(name for name in set(out.split("\0")) if name and (ROOT / name).is_file())


def install(deploy: Deployment) -> None:
    """`python3 -m venv .venv && .venv/bin/pip install src`, then the installed copy is the
    one that runs, and it holds every app module and data file of the source."""
    files = source_files()
    for name in files:
        target = deploy.src / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    python3 = shutil.which("python3") or sys.executable
    run([python3, "-m", "venv", str(deploy.venv)])
    # --no-compile: Python writes the bytecode on first import anyway; compiling every
    # dependency ahead (Django's thousands of files) would double the step and the clean-up.
    pip = [str(deploy.venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check"]
    pip.append("--no-compile")
    run([*pip, str(deploy.src)], cwd=deploy.work)
    site = run(
        [
            str(deploy.venv / "bin" / "python"),
            "-c",
            "import config, pathlib; print(pathlib.Path(config.__file__).parent.parent)",
        ],
        cwd=deploy.work,
        env=deploy.clean_env(),
    ).strip()
    site_packages = Path(site)
    if not site_packages.is_relative_to(deploy.venv):
        raise CheckError(f"config was imported from {site}, not from the virtual environment")
    wanted = [
        name
        for name in files
        if (name.startswith(DATA) and not name.endswith(".md"))
        or (name.split("/")[0] in APPS and name.endswith(".py"))
    ]
    missing = [name for name in wanted if not (site_packages / name).is_file()]
    if missing:
        raise CheckError(f"pip install left out {len(missing)} files, e.g. {missing[:8]}")
    print(f"   {len(wanted)} app modules and data files installed in {site_packages}")


# --- PostgreSQL and Redis -----------------------------------------------------------------


def psql(deploy: Deployment, sql: str, database: str = "postgres") -> str:
    return run(
        ["psql", "-X", "-v", "ON_ERROR_STOP=1", "-qAt", "-d", database, "-c", sql],
        env=deploy.pg_env,
    )


def database_create(deploy: Deployment) -> None:
    """README: CREATE ROLE boardwalk LOGIN PASSWORD '...'; createdb -O boardwalk boardwalk."""
    psql(deploy, f"CREATE ROLE {ROLE} LOGIN PASSWORD '{deploy.password}'")
    run(["createdb", "-O", ROLE, DATABASE], env=deploy.pg_env)


def databases_drop(deploy: Deployment) -> None:
    """What a run (this one, or one killed before its clean-up) left: only bw_deploy*."""
    for name in (DATABASE, RESTORED):
        assert name.startswith("bw_deploy")
        psql(deploy, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    psql(deploy, f"DROP ROLE IF EXISTS {ROLE}")


def redis_flush(deploy: Deployment) -> None:
    """Its own Redis database, emptied: a public version left by an earlier run would
    otherwise name that run's cached pages (event 1 again) as current."""
    import redis

    try:
        redis.Redis.from_url(deploy.redis, socket_connect_timeout=2).flushdb()
    except redis.RedisError as error:
        raise CheckError(
            f"Redis at {deploy.redis}: {error}. Start Redis, or set DEPLOY_CHECK_REDIS_URL."
        ) from None


# --- The site -------------------------------------------------------------------------------


def site_prepare(deploy: Deployment) -> tuple[int, str]:
    """The README's commands from write_env to createsuperuser, and a small played event
    for the smoke test. Returns the event's id and the first account's username."""
    write_env = [str(deploy.venv / "bin" / "boardwalk"), "write_env", str(deploy.env)]
    run(
        [
            *write_env,
            f"--host={HOST}",
            f"--database-url={deploy.database_url(DATABASE)}",
            f"--redis-url={deploy.redis}",
            "--set=EMAIL_HOST=smtp.example.org",
            "--set=DEFAULT_FROM_EMAIL=Boardwalk <boardwalk@example.org>",
        ],
        cwd=deploy.work,
        env=deploy.clean_env(),
    )
    deploy.boardwalk("migrate", "--noinput")
    deploy.boardwalk("collectstatic", "--noinput")
    if not (deploy.work / "static" / "css" / "boardwalk.css").is_file():
        raise CheckError("collectstatic did not fill DJANGO_STATIC_ROOT (static/ beside env)")
    deploy.boardwalk("check", "--deploy", "--fail-level", "WARNING")
    admin = "deploy-check"
    deploy.boardwalk(
        "createsuperuser",
        "--noinput",
        f"--username={admin}",
        "--email=deploy-check@example.org",
        DJANGO_SUPERUSER_PASSWORD=deploy.admin_password,
    )
    out = deploy.boardwalk("simulate_event", "--players=8", "--rounds=1", "--no-final", "--seed=1")
    match = re.search(r"\(event (\d+)\)", out)
    if match is None:
        raise CheckError(f"simulate_event said: {out}")
    print(f"   event {match[1]}: {out.splitlines()[0]}")
    return int(match[1]), admin


def servers_start(deploy: Deployment) -> list[str]:
    """`gunicorn -c python:config.gunicorn --bind 127.0.0.1:PORT` twice, from the
    deployment's folder (not the source), two workers each; `boardwalk jobs_worker`."""
    runtime = deploy.work / "run"
    runtime.mkdir()
    for port in deploy.app_ports:
        deploy.start(
            f"gunicorn-{port}",
            "gunicorn",
            "-c",
            "python:config.gunicorn",
            "--bind",
            f"127.0.0.1:{port}",
            RUNTIME_DIRECTORY=str(runtime),
            WEB_CONCURRENCY="2",
        )
    deploy.start("worker", "boardwalk", "jobs_worker", "--no-reload", "--worker-id=deploy-1")
    for port in deploy.app_ports:
        wait_listening(deploy, f"gunicorn-{port}", port)
    # Each instance opens its control socket once its workers are up.
    expected = sorted(f"boardwalk-127.0.0.1-{port}.ctl" for port in deploy.app_ports)
    deadline = time.monotonic() + 30
    while (sockets := sorted(p.name for p in runtime.glob("*.ctl"))) != expected:
        if time.monotonic() > deadline:
            break
        time.sleep(0.2)
    if sockets != expected:
        raise CheckError(f"control sockets {sockets}, expected one per instance: {expected}")
    print(f"   control sockets: {', '.join(sockets)}")
    return [f"http://127.0.0.1:{port}" for port in deploy.app_ports]


# --- nginx ---------------------------------------------------------------------------------


def nginx_site(deploy: Deployment, folder: Path) -> str:
    """deploy/nginx/boardwalk.conf with this machine's ports, paths and a throwaway
    certificate: every swapped line must be found, so the file cannot drift from here."""
    text = (ROOT / "deploy" / "nginx" / "boardwalk.conf").read_text()
    a, b = deploy.app_ports
    swaps = {
        # Not made beforehand: nginx must make it, as it must make the real one.
        "/var/cache/nginx-boardwalk": str(folder / "cache"),
        "server 127.0.0.1:8001;": f"server 127.0.0.1:{a};",
        "server 127.0.0.1:8002;": f"server 127.0.0.1:{b};",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{deploy.https_port} ssl http2;",
        "listen 80;": f"listen 127.0.0.1:{deploy.http_port};",
        f"/etc/letsencrypt/live/{HOST}/fullchain.pem": str(folder / "cert.pem"),
        f"/etc/letsencrypt/live/{HOST}/privkey.pem": str(folder / "key.pem"),
        "alias /srv/boardwalk/static/;": f"alias {deploy.work / 'static'}/;",
    }
    for old, new in swaps.items():
        if old not in text:
            raise CheckError(f"deploy/nginx/boardwalk.conf no longer says {old!r}; update here")
        text = text.replace(old, new)
    return text


def nginx_check_and_start(deploy: Deployment) -> tuple[str, str] | None:
    """`nginx -t` on the shipped site inside a minimal nginx.conf of its own (pid, logs and
    temporary files in the run's folder), then nginx serving it. None without nginx."""
    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None
    )
    if nginx is None:
        print("   nginx is not installed: skipped (apt-get install nginx to check the site)")
        return None
    folder = deploy.work / "nginx"
    folder.mkdir()
    run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={HOST}", "-keyout", str(folder / "key.pem"),
         "-out", str(folder / "cert.pem")],
    )  # fmt: skip
    (folder / "site.conf").write_text(nginx_site(deploy, folder))
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy"))
    user = "user root;\n" if os.geteuid() == 0 else ""  # to read the run's private folder
    (folder / "nginx.conf").write_text(
        f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\n"
        f"error_log {deploy.logs / 'nginx.log'} warn;\nevents {{ worker_connections 256; }}\n"
        f"http {{\n    access_log off;\n{temp}\n    include /etc/nginx/mime.types;\n"
        f"    include {folder / 'site.conf'};\n}}\n"
    )
    nginx_test_in_debians_http_block(nginx, folder)
    base = [nginx, "-p", str(folder), "-e", str(deploy.logs / "nginx.log")]
    base += ["-c", str(folder / "nginx.conf")]
    result = subprocess.run([*base, "-t"], capture_output=True, text=True)
    print("   " + result.stderr.strip().replace("\n", "\n   "))
    if result.returncode != 0:
        raise CheckError("nginx -t refused the shipped site (deploy/nginx/boardwalk.conf)")
    deploy.start_program("nginx", [*base, "-g", "daemon off;"])
    wait_listening(deploy, "nginx", deploy.https_port, timeout_s=15)
    return f"https://127.0.0.1:{deploy.https_port}", f"http://127.0.0.1:{deploy.http_port}"


def nginx_test_in_debians_http_block(nginx: str, folder: Path) -> None:
    """The site as the README installs it: included by Debian's own nginx.conf (its
    sites-enabled line), next to its SSL, gzip and log settings. Root only: that file
    opens Debian's logs."""
    debian = Path("/etc/nginx/nginx.conf")
    include = "include /etc/nginx/sites-enabled/*;"
    if os.geteuid() != 0 or not debian.is_file() or include not in debian.read_text():
        return
    conf = folder / "debian-nginx.conf"
    conf.write_text(debian.read_text().replace(include, f"include {folder / 'site.conf'};"))
    result = subprocess.run([nginx, "-t", "-c", str(conf)], capture_output=True, text=True)
    print("   in Debian's nginx.conf: " + result.stderr.strip().splitlines()[-1])
    if result.returncode != 0:
        raise CheckError(f"nginx -t refused the site inside {debian}:\n{result.stderr}")


# --- The backup drill -------------------------------------------------------------------------


def row_counts(conn) -> dict[str, int]:
    from psycopg import sql

    tables = conn.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
    ).fetchall()
    query = "SELECT count(*) FROM public.{}"
    return {
        name: conn.execute(sql.SQL(query).format(sql.Identifier(name))).fetchone()[0]
        for (name,) in tables
    }


def backup_drill(deploy: Deployment) -> None:
    """README, Backups: `pg_dump -Fc` while the site serves, `createdb -O` and
    `pg_restore --no-owner --role` into a new database, `migrate --check` on it. The rows
    of every table are counted in the very snapshot pg_dump read (pg_export_snapshot),
    so the site may go on writing meanwhile and the counts must still match exactly."""
    import psycopg

    dump = deploy.work / "backup.dump"
    admin_url = deploy.admin.rsplit("/", 1)[0]
    with psycopg.connect(f"{admin_url}/{DATABASE}", autocommit=True) as conn:
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        snapshot = conn.execute("SELECT pg_export_snapshot()").fetchone()[0]
        run(
            ["pg_dump", "-Fc", f"--snapshot={snapshot}", "-f", str(dump), DATABASE],
            env=deploy.pg_env,
        )
        before = row_counts(conn)
        conn.execute("COMMIT")
    run(["createdb", "-O", ROLE, RESTORED], env=deploy.pg_env)
    run(
        ["pg_restore", "--no-owner", f"--role={ROLE}", "-d", RESTORED, str(dump)],
        env=deploy.pg_env,
    )
    with psycopg.connect(f"{admin_url}/{RESTORED}", autocommit=True) as conn:
        after = row_counts(conn)
        owners = conn.execute(
            "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall()
    if before != after:
        differ = {
            t: (before.get(t), after.get(t))
            for t in before | after
            if before.get(t) != after.get(t)
        }
        raise CheckError(f"the restore lost rows (table: dumped, restored): {differ}")
    if owners != [(ROLE,)]:
        raise CheckError(f"restored tables belong to {owners}, not {ROLE}")
    deploy.boardwalk_on(deploy.database_url(RESTORED), "migrate", "--check")
    rows = sum(before.values())
    print(
        f"   {dump.stat().st_size:,} bytes; {len(before)} tables, {rows:,} rows, "
        "each table's count equal after the restore"
    )
