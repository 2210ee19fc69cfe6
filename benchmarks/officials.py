"""The officials' browser for the day bench (benchmarks/day.py): signed in, it opens a page
and sends one of its forms as a browser would, with the values the form shows (hidden
fields such as ``seen`` and the CSRF token included) and those the official types.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from benchmarks import bankers, servers
from benchmarks.bankers import Tablet

ROOT = Path(__file__).resolve().parent.parent


class _Forms(HTMLParser):
    """Every form on a page: its action and the values a browser would send as it stands."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append((a.get("action", ""), {}))
        elif not self.forms or "name" not in a:  # an option has no name: its select's value
            if tag == "option" and self._select and "selected" in a:
                self.forms[-1][1][self._select] = a.get("value", "")
            return
        fields = self.forms[-1][1]
        if tag == "input" and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") not in ("checkbox", "radio"):
                fields[a["name"]] = a.get("value", "")
            elif "checked" in a:
                fields[a["name"]] = a.get("value", "on")
        elif tag == "textarea":
            fields.setdefault(a["name"], "")
        elif tag == "select":
            self._select = a["name"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def form_on(page: bytes, action_end: str) -> dict[str, str] | None:
    """The fields of the first form whose action ends with ``action_end``, if any."""
    found = _form(page, action_end, "")
    return found[1] if found else None


def _form(page: bytes, action_end: str, page_path: str) -> tuple[str, dict[str, str]] | None:
    """The action (a form without one posts to its page) and fields of the first form whose
    action ends with ``action_end``."""
    parser = _Forms()
    parser.feed(page.decode("utf-8", "replace"))
    for action, fields in parser.forms:
        action = action.replace("&amp;", "&") or page_path
        if action.split("?")[0].endswith(action_end):
            return action, fields
    return None


class Official(Tablet):
    """An official's browser: signed in, submitting the forms their pages show."""

    def sign_in(self, username: str, password: str) -> None:
        page = self.call("/accounts/login/")[2]
        bankers._csrf_from(self, page)
        status = self.call("/accounts/login/", {"username": username, "password": password})[0]
        if status != 302:
            raise servers.BenchError(f"{username} could not sign in ({status})")

    def submit(self, page_path: str, action_end: str, **values: str) -> tuple[int, str]:
        """Open ``page_path`` and send its form posting to ``action_end``, with ``values``."""
        page = self.call(page_path)[2]
        bankers._csrf_from(self, page)
        found = _form(page, action_end, page_path)
        if found is None:
            (ROOT / "artifacts" / "bench-day-refused.html").write_bytes(page)
            raise servers.BenchError(f"no form for {action_end} on {page_path}")
        status, headers, answer = self.call(found[0], {**found[1], **values})
        if status != 302:  # a form shown again: keep it to see why
            (ROOT / "artifacts" / "bench-day-refused.html").write_bytes(answer)
        return status, headers.get("Location", "")

    def post(self, path: str, data: dict[str, str] | None = None) -> int:
        return self.call(path, data or {})[0]


def multipart(fields: dict[str, str], name: str, filename: str, content: bytes):
    """A browser's file upload: the body and its content type."""
    boundary = "----boardwalk-day-bench"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
        f'filename="{filename}"\r\nContent-Type: text/csv\r\n\r\n'.encode()
        + content
        + b"\r\n"
    )
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), (
        f"multipart/form-data; boundary={boundary}"
    )
