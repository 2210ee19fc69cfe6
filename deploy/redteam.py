"""The red team's reproductions, re-run against the README's production set-up.

`python deploy/redteam.py` deploys as `make deploy-check` does (deploy/recipe.py: a fresh
virtual environment with ``pip install`` of this checkout, its own PostgreSQL role and
database, an environment file from ``write_env``, ``migrate``, ``collectstatic``, two
gunicorn instances with ``config/gunicorn.py``, a background worker, and the shipped nginx
site in front with TLS), then sends every reproduction through nginx, as browsers would:
threads released together by a barrier for the races. Each reproduction says what a secure
site does and what this one did; the run fails if any differs, if any answer was a 5xx, or
if a server log holds a traceback. Everything it made is removed at the end.

Names: role and database ``REDTEAM_DATABASE`` (boardwalk_redteam), Redis
``DEPLOY_CHECK_REDIS_URL`` (redis://127.0.0.1:6379/12, emptied), ports
``DEPLOY_CHECK_PORTS`` (8170,8171) and ``DEPLOY_CHECK_NGINX_PORTS`` (8180,8179).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("DEPLOY_CHECK_PORTS", "8170,8171")
os.environ.setdefault("DEPLOY_CHECK_NGINX_PORTS", "8180,8179")
os.environ.setdefault("DEPLOY_CHECK_REDIS_URL", "redis://127.0.0.1:6379/12")

import machine
import recipe
import redteam_cases as cases
import redteam_probes as probes
from machine import CheckError, Deployment, step

NAME = os.environ.get("REDTEAM_DATABASE", "boardwalk_redteam")
# The recipe's functions name the role and database through these module names.
machine.ROLE = recipe.ROLE = recipe.DATABASE = NAME
HERE = Path(__file__).resolve().parent


def drop(deploy: Deployment) -> None:
    recipe.psql(deploy, f'DROP DATABASE IF EXISTS "{NAME}" WITH (FORCE)')
    recipe.psql(deploy, f"DROP ROLE IF EXISTS {NAME}")


def in_site(deploy: Deployment, mode: str, **env: str) -> dict:
    """deploy/redteam_state.py run by the installed site's ``boardwalk shell``."""
    code = (HERE / "redteam_state.py").read_text()
    out = deploy.boardwalk("shell", "-c", code, REDTEAM_MODE=mode, **env)
    line = next(line for line in out.splitlines() if line.startswith("REDTEAM "))
    return json.loads(line.removeprefix("REDTEAM "))


def access_log_on(deploy: Deployment) -> Path:
    """The recipe's nginx runs without an access log; one is wanted to count 5xx."""
    conf = deploy.work / "nginx" / "nginx.conf"
    log = deploy.logs / "nginx-access.log"
    conf.write_text(conf.read_text().replace("access_log off;", f"access_log {log};"))
    os.kill(deploy.processes["nginx"].pid, signal.SIGHUP)
    time.sleep(1.0)
    return log


def server_errors(deploy: Deployment, access_log: Path) -> dict[str, int]:
    statuses = re.findall(r'" (\d{3}) ', access_log.read_text()) if access_log.exists() else []
    tracebacks = 0
    for log in deploy.logs.glob("gunicorn-*.log"):
        text = log.read_text(errors="replace")
        tracebacks += text.count("Traceback") + text.count("Internal Server Error")
    return {
        "nginx_requests": len(statuses),
        "nginx_5xx": sum(1 for s in statuses if s.startswith("5")),
        "gunicorn_tracebacks": tracebacks,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    parser.add_argument("--trials", type=int, default=30, help="alternates races (30)")
    parser.add_argument("--keep", action="store_true", help="keep the folder after the run")
    options = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = Path(tempfile.mkdtemp(prefix="bw-redteam-"))
    deploy = Deployment(work)
    results: list[dict] = []
    started = time.monotonic()
    try:
        with step("Install: python3 -m venv, pip install of the source"):
            recipe.install(deploy)
        with step(f"PostgreSQL: role {NAME} owning database {NAME}; Redis emptied"):
            drop(deploy)
            recipe.database_create(deploy)
            recipe.redis_flush(deploy)
        with step("write_env, migrate, collectstatic, check --deploy, createsuperuser"):
            recipe.site_prepare(deploy)
        with step("The red team's events and accounts"):
            password = "rt-" + os.urandom(12).hex()
            ids = in_site(deploy, "setup", REDTEAM_PASSWORD=password)
        with step(f"Two gunicorn instances {deploy.app_ports}, a worker, nginx"):
            recipe.servers_start(deploy)
            proxy = recipe.nginx_check_and_start(deploy)
            if proxy is None:
                raise CheckError("nginx is not installed")
            access_log = access_log_on(deploy)
        site = cases.Site(base=proxy[0], password=password, ids=ids)
        for case in [*cases.CASES, *probes.CASES]:
            with step(case.__doc__.splitlines()[0]):
                result = case(site, trials=options.trials)
                print("   " + json.dumps(result["observed"], default=str)[:600])
                results.append(result)
        with step("What the database says, and the servers' logs"):
            facts = in_site(deploy, "facts", REDTEAM_IDS=json.dumps(ids))
            results += probes.judged_by_facts(site, facts)
            errors = server_errors(deploy, access_log)
            errors["client_5xx"] = site.five_hundreds()
            results.append(probes.no_server_errors(errors))
    except CheckError as error:
        print(f"\nredteam: the set-up failed: {error}\n\n{deploy.logs_tail()}", file=sys.stderr)
        return 2
    finally:
        with step("Clean-up: processes, database, role, Redis, files"):
            deploy.stop_all()
            try:
                drop(deploy)
                recipe.redis_flush(deploy)
            except Exception as error:  # the run's result stands; say what was left
                print(f"   could not clean up: {error}", file=sys.stderr)
            if options.keep:
                print(f"   kept {work}")
            else:
                shutil.rmtree(work, ignore_errors=True)
    failed = [r for r in results if not r["ok"]]
    print(f"\n{len(results) - len(failed)} of {len(results)} reproductions held, ", end="")
    print(f"in {time.monotonic() - started:.0f} s")
    for result in results:
        print(f"  [{'ok' if result['ok'] else 'FAILED'}] {result['name']}: {result['expected']}")
    if options.out:
        options.out.write_text(json.dumps(results, indent=1, default=str))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
