"""A real server process and a tablet talking to it over HTTP, for the restart test.

``Server`` runs Boardwalk as it runs in a hall (gunicorn when the project has it, else
``manage.py runserver --noreload``) on a database file, and can be killed with SIGKILL
like a pulled plug. ``Tablet`` is one browser: its own cookies (session and CSRF), and
the score sheet's requests built the way ``static/js/sheet.js`` builds them.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
PORTS = range(8500, 8600)

# sheet.js leaves these out of a draft's fields (its SKIP pattern), and every button.
SKIP_NAMES = ("csrfmiddlewaretoken", "version", "submission_key", "version_override")


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 8500-8599")


def server_env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONUNBUFFERED="1",
    )
    return env


class Server:
    """One server process on ``port``; ``kill`` is SIGKILL to its whole process group."""

    def __init__(self, *, database_url: str, port: int, log: Path):
        self.database_url = database_url
        self.port = port
        self.log = log
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        gunicorn = VENV_BIN / "gunicorn"
        if gunicorn.exists():
            return [
                str(gunicorn),
                "config.wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "2",
            ]
        return [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"]

    def start(self, timeout: float = 60.0) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.command(),
                cwd=ROOT,
                env=server_env(self.database_url),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/accounts/login/", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            # Between two knocks, wait on the process itself: if it dies, we know at once.
            try:
                self.process.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                continue
            raise RuntimeError(f"server exited early:\n{self.log.read_text()}")
        raise RuntimeError(f"server did not answer within {timeout}s:\n{self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL, not a clean stop: no shutdown handler runs, as when the power fails."""
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


@dataclass
class Answer:
    status: int
    url: str
    body: str

    def json(self):
        return json.loads(self.body)


class Tablet:
    """One browser: cookies kept between requests (and across a server restart)."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def _open(self, request: urllib.request.Request) -> Answer:
        try:
            with self.opener.open(request, timeout=30) as answer:
                return Answer(answer.status, answer.geturl(), answer.read().decode())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.geturl(), error.read().decode())

    def get(self, path: str, *, accept: str = "text/html") -> Answer:
        return self._open(urllib.request.Request(self.base + path, headers={"Accept": accept}))

    def post(self, path: str, pairs: list[tuple[str, str]], *, accept: str = "text/html"):
        body = urllib.parse.urlencode(pairs).encode()
        request = urllib.request.Request(
            self.base + path,
            data=body,
            method="POST",
            headers={"Accept": accept, "Content-Type": "application/x-www-form-urlencoded"},
        )
        return self._open(request)

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def post_form(self, path: str, fields: dict[str, str]) -> Answer:
        """An ordinary form post from one of the pages (the CSRF token of this browser)."""
        return self.post(path, [("csrfmiddlewaretoken", self.csrf()), *fields.items()])

    def login(self, username: str, password: str) -> Answer:
        self.get("/accounts/login/")
        return self.post_form("/accounts/login/", {"username": username, "password": password})


# --- The score sheet as sheet.js sees it ------------------------------------------------------


@dataclass
class SheetPage:
    """What sheet.js reads from the page: the form's fields, the draft URL, the version."""

    fields: dict[str, str | bool]
    csrf_token: str
    version: str
    draft_url: str
    submit_url: str


class _SheetParser(HTMLParser):
    """The named controls of ``form#sheet-form``, in document order, like ``form.elements``."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.in_form = False
        self.form_attrs: dict[str, str] = {}
        self.controls: list[dict] = []
        self.select: dict | None = None
        self.option: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form" and attrs.get("id") == "sheet-form":
            self.in_form, self.form_attrs = True, attrs
            return
        if not self.in_form:
            return
        if tag == "input":
            self.controls.append(
                {
                    "kind": "input",
                    "name": attrs.get("name", ""),
                    "type": attrs.get("type", "text").lower(),
                    "value": attrs.get("value", ""),
                    "checked": "checked" in attrs,
                }
            )
        elif tag == "select":
            self.select = {"kind": "select", "name": attrs.get("name", ""), "options": []}
            self.controls.append(self.select)
        elif tag == "option" and self.select is not None:
            self.option = {"value": attrs.get("value"), "selected": "selected" in attrs, "text": ""}
            self.select["options"].append(self.option)
        elif tag == "button":
            self.controls.append({"kind": "button", "name": attrs.get("name", "")})

    def handle_data(self, data):
        if self.option is not None:
            self.option["text"] += data

    def handle_endtag(self, tag):
        if tag == "form" and self.in_form:
            self.in_form = False
        elif tag == "select":
            self.select = None
        elif tag == "option":
            self.option = None


def _select_value(control: dict) -> str:
    options = control["options"]
    chosen = next((o for o in options if o["selected"]), options[0] if options else None)
    if chosen is None:
        return ""
    return chosen["value"] if chosen["value"] is not None else chosen["text"]


def sheet_page(html: str) -> SheetPage:
    """sheet.js's ``snapshot()`` of the page's form, plus what it posts with it."""
    parser = _SheetParser()
    parser.feed(html)
    if not parser.form_attrs:
        raise AssertionError("the page has no score-sheet form")
    fields: dict[str, str | bool] = {}
    hidden: dict[str, str] = {}
    for control in parser.controls:
        name = control["name"]
        if control["kind"] == "button" or not name:
            continue
        if control["kind"] == "input" and control["type"] in ("submit", "button"):
            continue
        if name in SKIP_NAMES or (name.startswith("initials_") and name[9:].isdigit()):
            if control["kind"] == "input":
                hidden[name] = control["value"]
            continue
        if control["kind"] == "select":
            fields[name] = _select_value(control)
        elif control["type"] == "checkbox":
            fields[name] = control["checked"]
        else:
            fields[name] = control["value"]
    return SheetPage(
        fields=fields,
        csrf_token=hidden["csrfmiddlewaretoken"],
        version=hidden["version"],
        draft_url=parser.form_attrs["data-draft-url"],
        submit_url=parser.form_attrs["action"],
    )


def sheet_params(csrf_token: str, fields: dict, extra: dict[str, str]) -> list[tuple[str, str]]:
    """sheet.js's ``params()``: the token, then each field (true as "on", false left out)."""
    pairs = [("csrfmiddlewaretoken", csrf_token)]
    for name, value in fields.items():
        if value is True:
            pairs.append((name, "on"))
        elif value is not False:
            pairs.append((name, str(value)))
    pairs.extend(extra.items())
    return pairs
