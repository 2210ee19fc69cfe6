"""gunicorn's settings for Boardwalk, one file for every instance (README, Production).

    gunicorn -c python:config.gunicorn --bind 127.0.0.1:8001

``python:config.gunicorn`` is this module, found wherever Boardwalk is installed; the
command line (``--bind``, ``--workers``...) wins over anything set here.

* The application and its threads: gthread workers of four threads each, so a worker
  waiting on PostgreSQL for one request serves another meanwhile. One worker per core, and
  the README runs two instances (one can restart while the other serves): two workers per
  core in all, as the load bench runs them (docs/benchmarks.md). ``WEB_CONCURRENCY``
  (gunicorn's own variable) or ``--workers`` sets another number.
* One control socket per instance. gunicorn 25.1 added a control socket for ``gunicornc``
  at one path per user ($XDG_RUNTIME_DIR/gunicorn.ctl, else ~/.gunicorn/gunicorn.ctl): a
  second instance run by the same user took it over from the first, and the first to stop
  deleted it under the other. Here each instance's socket is named after its address, in
  systemd's ``RuntimeDirectory`` when there is one; ``--control-socket PATH`` picks another
  and ``--no-control-socket`` goes without.
"""

from __future__ import annotations

import os
import re

wsgi_app = "config.wsgi:application"
bind = ["127.0.0.1:8001"]
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
threads = 4
# A stop (a deploy, systemctl restart) lets the requests in hand finish first.
graceful_timeout = 30
proc_name = "boardwalk"


def control_socket_for(bind: list[str], directory: str) -> str:
    """The instance's own socket path: its listening addresses, made file-name safe."""
    name = "_".join(re.sub(r"[^A-Za-z0-9.]+", "-", address).strip("-") for address in bind)
    return os.path.join(directory, f"boardwalk-{name}.ctl")


def on_starting(server) -> None:
    """Give this instance its own control socket unless one was chosen (a gunicorn hook:
    the command line has been read by now, so the address is the one it will listen on)."""
    setting = server.cfg.settings.get("control_socket")
    if setting is None or server.cfg.control_socket_disable or setting.value != setting.default:
        return
    runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    directory = runtime or os.path.dirname(setting.default)
    server.cfg.set("control_socket", control_socket_for(server.cfg.bind, directory))
