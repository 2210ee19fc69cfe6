"""A real SMTP server on this machine for the email tests (aiosmtpd), not a mocked backend.

The server listens on a socket bound to port 0 (a free port the system picks), so tests in
parallel processes never collide. Django sends to it over SMTP as in production
(``EmailBackend`` with ``EMAIL_HOST``/``EMAIL_PORT``), and every message it accepts is
parsed into a standard-library ``EmailMessage`` for the test to read: subject, headers,
plain text, HTML alternative, links. ``refuse_next`` makes it answer the next messages
with a temporary failure (451) or a refusal (550), to see the retries.
"""

from __future__ import annotations

import re
import socket
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller
from django.test import override_settings

LINK = re.compile(r"https?://[^\s\"'<>]+")


@dataclass
class Received:
    envelope_to: list[str]
    message: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def to(self) -> list[str]:
        return [a.strip() for a in str(self.message["To"]).split(",")]

    @property
    def text(self) -> str:
        return self.message.get_body(preferencelist=("plain",)).get_content()

    @property
    def html(self) -> str:
        return self.message.get_body(preferencelist=("html",)).get_content()

    def links(self, containing: str = "") -> list[str]:
        return [link for link in LINK.findall(self.text) if containing in link]


@dataclass
class Inbox:
    received: list[Received] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def refuse_next(self, count: int, *, reply: str = "451 4.3.0 Try again later") -> None:
        with self.lock:
            self.refusals.extend([reply] * count)

    def to(self, address: str) -> list[Received]:
        with self.lock:
            return [r for r in self.received if address in r.envelope_to]

    def __len__(self) -> int:
        with self.lock:
            return len(self.received)

    # aiosmtpd's handler hook
    async def handle_DATA(self, server, session, envelope) -> str:
        with self.lock:
            if self.refusals:
                return self.refusals.pop(0)
            message = message_from_bytes(envelope.content, policy=policy.default)
            self.received.append(Received(envelope_to=list(envelope.rcpt_tos), message=message))
        return "250 Message accepted for delivery"


class _BoundController(Controller):
    """aiosmtpd's controller serving a socket already bound (to port 0)."""

    def __init__(self, handler, sock: socket.socket) -> None:
        self._sock = sock
        super().__init__(handler, hostname="127.0.0.1", port=sock.getsockname()[1])

    def _create_server(self):
        return self.loop.create_server(self._factory_invoker, sock=self._sock)


@contextmanager
def smtp_server(*, site_url: str = "http://testserver"):
    """An SMTP server for the block, and Django's settings pointing at it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    inbox = Inbox()
    controller = _BoundController(inbox, sock)
    controller.start()
    try:
        with override_settings(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=controller.port,
            EMAIL_USE_TLS=False,
            EMAIL_USE_SSL=False,
            EMAIL_HOST_USER="",
            EMAIL_HOST_PASSWORD="",
            EMAIL_TIMEOUT=10,
            DEFAULT_FROM_EMAIL="Boardwalk <boardwalk@example.org>",
            BOARDWALK_SITE_URL=site_url,
        ):
            yield inbox
    finally:
        controller.stop()
