"""The smoke test of a deployed Boardwalk, over HTTP only, as an organizer and a spectator.

`deploy/check.py` runs it against the two gunicorn instances it started from the README's
recipe (and nginx in front of them when nginx is installed): health, a sign-in, a change
the organizer makes through one instance that the public pages of both show at once, and
a PDF that only the background worker can have built. Nothing here imports Boardwalk: it
sees what a browser sees.

Each instance is spoken to as nginx speaks to it: ``X-Forwarded-Proto: https`` (production
redirects plain HTTP and marks its cookies Secure) and the site's host name.
"""

from __future__ import annotations

import http.client
import re
import ssl
import time
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urljoin, urlsplit


class SmokeError(AssertionError):
    """The deployed site did not do what the README promises."""


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    @property
    def location(self) -> str:
        return self.headers.get("Location", "")


@dataclass
class Client:
    """One browser: its cookies, sent to whichever server it asks (they share sessions)."""

    host: str
    cookies: dict[str, str] = field(default_factory=dict)

    def request(
        self, base: str, path: str, *, method: str = "GET", form: dict | None = None
    ) -> Answer:
        parts = urlsplit(base)
        if parts.scheme == "https":
            context = ssl._create_unverified_context()  # the check's self-signed certificate
            conn = http.client.HTTPSConnection(parts.hostname, parts.port, context=context)
        else:
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        headers = {"Host": self.host, "X-Forwarded-Proto": "https"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            # Django's CSRF check on HTTPS: the request must come from the site itself.
            headers["Origin"] = f"https://{self.host}"
            headers["Referer"] = f"https://{self.host}{path}"
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            answer = Answer(response.status, response.headers, response.read())
        finally:
            conn.close()
        for header in answer.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return answer

    def get(self, base: str, path: str) -> Answer:
        return self.request(base, path)

    def post(self, base: str, path: str, form: dict) -> Answer:
        return self.request(base, path, method="POST", form=form)


class FormReader(HTMLParser):
    """Every field of the page's forms as a browser would submit them, by form action."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: dict[str, dict[str, list[str]]] = {}
        self._form: dict[str, list[str]] | None = None
        self._select: str | None = None
        self._select_first: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form":
            self._form = self.forms.setdefault(a.get("action", ""), {})
        elif self._form is None or "disabled" in a:
            return
        elif tag == "input" and a.get("name"):
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind in ("submit", "button", "image", "file", "reset"):
                return
            default = "on" if kind in ("checkbox", "radio") else ""
            self._form.setdefault(a["name"], []).append(a.get("value", default))
        elif tag == "select" and a.get("name"):
            self._select, self._select_first = a["name"], None
            self._form.setdefault(a["name"], [])
        elif tag == "option" and self._select:
            value = a.get("value", "")
            if self._select_first is None:
                self._select_first = value
            if "selected" in a:
                self._form[self._select].append(value)
        elif tag == "textarea" and a.get("name"):
            self._textarea = a["name"]
            self._form[self._textarea] = [""]

    def handle_data(self, data: str) -> None:
        if self._textarea and self._form is not None:
            self._form[self._textarea][0] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select and self._form is not None:
            if not self._form[self._select] and self._select_first is not None:
                self._form[self._select].append(self._select_first)  # a browser's default
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def page_form(answer: Answer, action: str) -> dict[str, list[str]]:
    reader = FormReader()
    reader.feed(answer.text)
    if action not in reader.forms:
        raise SmokeError(f"no form posting to {action} on the page: {list(reader.forms)}")
    return reader.forms[action]


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise SmokeError(message)


# --- The steps -------------------------------------------------------------------------------


def health(client: Client, bases: list[str]) -> None:
    """Each instance answers before any proxy exists, and reaches the shared cache."""
    for base in bases:
        answer = client.get(base, "/health/")
        expect(answer.status == 200 and answer.text == "ok", f"{base}/health/: {answer.text!r}")


def sign_in(client: Client, base: str, username: str, password: str, other: str) -> None:
    """The login page's form, as a browser posts it; the session then works on the other
    instance too (sessions are in the shared database)."""
    page = client.get(base, "/accounts/login/")
    expect(page.status == 200, f"login page: {page.status}")
    fields = page_form(page, "/accounts/login/")
    fields.update(username=[username], password=[password])
    answer = client.post(base, "/accounts/login/", fields)
    expect(answer.status == 302, f"sign-in refused ({answer.status}): {answer.text[:300]}")
    for server in (base, other):
        organizer = client.get(server, "/organizer/")
        expect(organizer.status == 200, f"{server}/organizer/ after sign-in: {organizer.status}")


def public_pages_agree(client: Client, a: str, b: str, event_pk: int, *, rounds: int = 8) -> str:
    """Rename the event through instance A; every request to either instance's public
    event page shows the new name at once. Each instance has several worker processes, and
    every one of them has already cached the page: a cache that is not shared keeps the
    old name in most of them."""
    public = f"/events/{event_pk}/"
    for _ in range(rounds):
        for base in (a, b):
            expect(client.get(base, public).status == 200, f"{base}{public} before the change")
    edit = f"/organizer/events/{event_pk}/edit/"
    page = client.get(a, edit)
    expect(page.status == 200, f"{edit}: {page.status}")
    fields = page_form(page, edit)
    expect("name" in fields, f"the event form has no name field: {sorted(fields)}")
    new_name = f"{fields['name'][0]} (renamed {time.strftime('%H%M%S')})"
    fields["name"] = [new_name]
    answer = client.post(a, edit, fields)
    expect(answer.status == 302, f"saving the event: {answer.status} {errors_of(answer)}")
    stale = [
        base
        for _ in range(rounds)
        for base in (a, b)
        if escape(new_name) not in client.get(base, public).text
    ]
    expect(not stale, f"{len(stale)} of {2 * rounds} public pages still showed the old name")
    return new_name


def worker_builds_a_pdf(client: Client, a: str, b: str, event_pk: int, timeout_s: float) -> int:
    """A printout asked for on A is queued, not built in the request; the background worker
    builds it; B serves the file (same database, same files folder)."""
    path = f"/organizer/events/{event_pk}/rounds/1/assignments.pdf"
    answer = client.get(a, path)
    expect(answer.status == 302, f"{path}: {answer.status}, expected a job's page")
    match = re.search(r"/printouts/jobs/(\d+)/$", urlsplit(urljoin(a, answer.location)).path)
    expect(match is not None, f"{path} sent to {answer.location}, not a job's page")
    download = f"/organizer/events/{event_pk}/printouts/jobs/{match[1]}/download/"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        answer = client.get(b, download)
        if answer.status == 200:
            expect(answer.body.startswith(b"%PDF-"), f"{download} is not a PDF")
            expect(answer.headers.get("Content-Type") == "application/pdf", f"{download} type")
            return len(answer.body)
        expect(answer.status == 302, f"{download}: {answer.status}")
        time.sleep(0.5)
    raise SmokeError(f"the worker did not build job {match[1]} within {timeout_s:.0f} s")


def through_the_proxy(
    client: Client, proxy: str, redirect: str, *, event_pk: int, name: str, css: bytes
) -> None:
    """nginx (the shipped configuration): TLS, the static files collectstatic gathered
    (``css``: one of them, as on disk), the public page, and the plain-HTTP redirect."""
    expect(client.get(proxy, "/health/").text == "ok", "health through nginx")
    served = client.get(proxy, "/static/css/boardwalk.css")
    expect(served.status == 200 and served.body == css, f"static through nginx: {served.status}")
    page = client.get(proxy, f"/events/{event_pk}/")
    expect(page.status == 200 and escape(name) in page.text, "the public page through nginx")
    moved = client.get(redirect, "/events/")
    expect(
        moved.status == 301 and moved.location.startswith("https://"),
        f"plain HTTP through nginx: {moved.status} {moved.location}",
    )


def errors_of(answer: Answer) -> str:
    return " ".join(re.findall(r'class="[^"]*error[^"]*"[^>]*>(.*?)<', answer.text))[:300]
