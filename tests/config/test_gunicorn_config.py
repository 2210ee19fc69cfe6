"""config/gunicorn.py, the settings every gunicorn instance of the README starts with.

gunicorn 25.1+ opens a control socket at one path per user, so the README's two instances
(boardwalk@8001, boardwalk@8002, same user) took it from each other. Here gunicorn's own
Config is filled as its command line would fill it and the start hook runs on it; the real
instances and their sockets are started by `make deploy-check` (deploy/recipe.py).
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

from gunicorn.config import Config

from config import gunicorn as settings


def instance(*args: str) -> SimpleNamespace:
    """An arbiter's view of its settings after `gunicorn -c python:config.gunicorn ARGS`."""
    cfg = Config()
    for name in ("wsgi_app", "bind", "workers", "threads", "graceful_timeout", "proc_name"):
        cfg.set(name, getattr(settings, name))
    parsed = cfg.parser().parse_args(list(args))
    for name, value in vars(parsed).items():
        if value is not None and name in cfg.settings:
            cfg.set(name, value)
    return SimpleNamespace(cfg=cfg)


def started(*args: str) -> SimpleNamespace:
    server = instance(*args)
    settings.on_starting(server)
    return server


def test_two_instances_of_one_user_get_two_control_sockets(monkeypatch, tmp_path):
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(tmp_path))
    first = started("--bind", "127.0.0.1:8001")
    second = started("--bind", "127.0.0.1:8002")
    assert first.cfg.control_socket != second.cfg.control_socket
    assert Path(first.cfg.control_socket) == tmp_path / "boardwalk-127.0.0.1-8001.ctl"
    assert Path(second.cfg.control_socket).parent == tmp_path


def test_without_systemds_runtime_directory_they_sit_where_gunicorn_puts_its_own(monkeypatch):
    monkeypatch.delenv("RUNTIME_DIRECTORY", raising=False)
    default = Config().control_socket
    server = started("--bind", "127.0.0.1:8001")
    assert os.path.dirname(server.cfg.control_socket) == os.path.dirname(default)
    assert server.cfg.control_socket != default


def test_a_socket_chosen_on_the_command_line_or_none_is_left_alone(tmp_path):
    chosen = str(tmp_path / "mine.ctl")
    assert started("--control-socket", chosen).cfg.control_socket == chosen
    off = started("--no-control-socket")
    assert off.cfg.control_socket_disable
    assert off.cfg.control_socket == Config().control_socket  # untouched: none is opened


def test_the_instance_serves_boardwalk_with_threads():
    server = instance("--bind", "127.0.0.1:8001")
    assert server.cfg.wsgi_app == "config.wsgi:application"
    assert server.cfg.threads == 4 and server.cfg.worker_class_str == "gthread"
    assert instance("--workers", "3").cfg.workers == 3  # the command line wins
