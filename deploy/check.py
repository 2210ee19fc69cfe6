"""`make deploy-check`: the README's production recipe, followed on this machine and proved.

What it does, in the README's order and with the README's commands:

1. the source as a clone has it (the checkout's files, uncommitted changes included), and
   ``python3 -m venv`` + ``pip install`` of it into a fresh virtual environment; then checks
   that the installed copy, not the source folder, is what runs, and that it holds every
   app, template, static file, catalog and edition the source has;
2. a PostgreSQL role that owns its database (``CREATE ROLE ... LOGIN PASSWORD``,
   ``createdb -O``), an environment file from ``boardwalk write_env`` (a fresh secret key),
   read by ``set -a; . env`` before every command;
3. ``migrate``, ``collectstatic``, ``check --deploy --fail-level WARNING``, the first account
   (``createsuperuser``) and a small played event;
4. two gunicorn instances (``-c python:config.gunicorn``, each with its own control socket)
   and a background worker; each instance's /health/ before any proxy;
5. the shipped nginx site (deploy/nginx/boardwalk.conf, ports and paths swapped) through
   ``nginx -t``, then serving, when nginx is installed;
6. the smoke test (deploy/smoke.py): sign in, a change through one instance that both show,
   a PDF built by the worker, the proxy;
7. the backup drill: ``pg_dump -Fc`` while everything runs, ``pg_restore`` into a new
   database, every table's row count compared with the dump's own snapshot;
8. the clean-up, also after a failure or Ctrl-C: processes, databases, role, Redis, files.

It needs PostgreSQL (a superuser at ``DEPLOY_CHECK_ADMIN_URL``, default
postgres://postgres@127.0.0.1:5432/postgres), Redis (``DEPLOY_CHECK_REDIS_URL``, default
redis://127.0.0.1:6379/13, emptied before and after), ``python3 -m venv`` with a package index,
and the ports ``DEPLOY_CHECK_PORTS`` (8110,8111) and ``DEPLOY_CHECK_NGINX_PORTS`` (8130,8129:
HTTPS, plain HTTP). Its databases and role are ``bw_deploy*``, and nothing else is touched.
``--keep`` leaves the folder (and prints where) for a look after the run.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

import smoke
from machine import DATABASE, HOST, ROLE, CheckError, Deployment, port_free, step
from recipe import (
    backup_drill,
    database_create,
    databases_drop,
    install,
    nginx_check_and_start,
    redis_flush,
    servers_start,
    site_prepare,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the folder after the run")
    options = parser.parse_args()
    # A CI job's stop is SIGTERM: clean up as after Ctrl-C.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="bw-deploy-"))
    deploy = Deployment(work)
    busy = [p for p in (*deploy.app_ports, deploy.https_port, deploy.http_port) if not port_free(p)]
    if busy:
        shutil.rmtree(work)
        print(
            f"deploy-check: ports {busy} are in use; set DEPLOY_CHECK_PORTS and "
            "DEPLOY_CHECK_NGINX_PORTS",
            file=sys.stderr,
        )
        return 2
    try:
        run_recipe(deploy)
    except (CheckError, smoke.SmokeError) as error:
        print(f"\ndeploy-check FAILED: {error}\n\n{deploy.logs_tail()}", file=sys.stderr)
        return 1
    finally:
        with step("Clean-up: processes, databases, role, Redis, files"):
            deploy.stop_all()
            for what, clean in (("databases and role", databases_drop), ("Redis", redis_flush)):
                begun = time.monotonic()
                try:
                    clean(deploy)
                except Exception as error:
                    print(f"   could not clean up the {what}: {error}", file=sys.stderr)
                else:
                    print(f"   {what} removed in {time.monotonic() - begun:.1f} s")
            if options.keep:
                print(f"   kept {work}")
            else:
                shutil.rmtree(work, ignore_errors=True)
    print(f"\ndeploy-check passed in {time.monotonic() - started:.0f} s")
    return 0


def run_recipe(deploy: Deployment) -> None:
    with step("Install: python3 -m venv, pip install of the source; the installed copy runs"):
        install(deploy)
    with step(f"PostgreSQL: role {ROLE} owning database {DATABASE}; Redis emptied"):
        databases_drop(deploy)
        database_create(deploy)
        redis_flush(deploy)
    with step("write_env, migrate, collectstatic, check --deploy, createsuperuser, an event"):
        event_pk, admin = site_prepare(deploy)
    with step(f"Two gunicorn instances ({deploy.app_ports}) and a worker; /health/ on each"):
        bases = servers_start(deploy)
    client = smoke.Client(HOST)
    smoke.health(client, bases)
    with step("nginx: the shipped site through nginx -t, then serving"):
        proxy = nginx_check_and_start(deploy)
    a, b = bases
    with step("Smoke: sign in on one instance, the session on the other"):
        smoke.sign_in(client, a, admin, deploy.admin_password, other=b)
    with step("Smoke: the event renamed through one instance, both public pages agree"):
        name = smoke.public_pages_agree(client, a, b, event_pk)
    with step("Smoke: a PDF asked for on one instance, built by the worker, served by the other"):
        size = smoke.worker_builds_a_pdf(client, a, b, event_pk, timeout_s=120)
        print(f"   {size} bytes")
    if proxy:
        with step("Smoke: through nginx (TLS, static files, the public page, the redirect)"):
            css = (deploy.work / "static" / "css" / "boardwalk.css").read_bytes()
            smoke.through_the_proxy(client, *proxy, event_pk=event_pk, name=name, css=css)
    with step("Backup drill: pg_dump -Fc while serving, pg_restore, every table's rows"):
        backup_drill(deploy)


if __name__ == "__main__":
    sys.exit(main())
