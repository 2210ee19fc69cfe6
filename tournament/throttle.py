"""Fixed-window limits counted in Django's cache: one mechanism for every guessable door.

Three places let a stranger try again and again without an account, and each has a
limit here:

* the public registration form (per IP and event) keeps a script from filling an event
  with invented people or exhausting the alias list, while a family registering several
  children from one laptop stays well under it;
* the login form (failed attempts per IP and per username) stops password guessing;
* the banker's private link ``bank/k/<key>/`` (wrong keys per IP) stops key guessing.

The cache is per process unless REDIS_URL is set (see settings), so behind several
processes each limit is per process. The client's address is ``REMOTE_ADDR`` unless
``settings.BOARDWALK_CLIENT_IP_HEADER`` names the header a trusted proxy sets; otherwise,
behind a proxy, every visitor would share the proxy's address and one limit.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


@dataclass(frozen=True)
class Limit:
    """At most ``count`` hits per ``window_seconds`` for one subject (an IP, a username)."""

    name: str
    count: int
    window_seconds: int


REGISTRATION_POSTS_PER_WINDOW = 10
REGISTRATION_WINDOW_SECONDS = 10 * 60
REGISTRATION = Limit("registration", REGISTRATION_POSTS_PER_WINDOW, REGISTRATION_WINDOW_SECONDS)

# A volunteer who forgot a password gets several tries; a guesser gets almost none. The
# per-IP limit is higher because a venue's tablets may share one address.
LOGIN_FAILURES_PER_IP = Limit("login-ip", 20, 15 * 60)
LOGIN_FAILURES_PER_USERNAME = Limit("login-username", 8, 15 * 60)
# Keys are 32+ random characters, so guessing is hopeless anyway; the limit keeps a
# scanner from hammering the database. A tablet scanning an old (revoked) card counts
# once per scan, far below the limit.
BANKER_LINK_MISSES_PER_IP = Limit("banker-link", 20, 10 * 60)

_KEY = "boardwalk:throttle:{name}:{subject}:{window}"


def _key(limit: Limit, subject: str, now: float | None) -> str:
    now = time.time() if now is None else now
    window = int(now // limit.window_seconds)
    # Hashed: a typed username may hold anything, and cache keys must stay short and plain.
    digest = hashlib.sha256((subject or "unknown").encode()).hexdigest()[:32]
    return _KEY.format(name=limit.name, subject=digest, window=window)


def throttle_hit(*, limit: Limit, subject: str, now: float | None = None) -> bool:
    """Count one hit for ``subject``; True once it is over the limit.

    The window is fixed (it restarts every ``window_seconds``) rather than sliding,
    because a fixed window needs one cache key and one atomic increment.
    """
    key = _key(limit, subject, now)
    # add() only sets a missing key, so concurrent first hits do not reset each other.
    cache.add(key, 0, timeout=limit.window_seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between add() and incr()
        cache.set(key, 1, timeout=limit.window_seconds)
        count = 1
    return count > limit.count


def throttle_exceeded(*, limit: Limit, subject: str, now: float | None = None) -> bool:
    """Whether ``subject`` is already over the limit, without counting a hit.

    The login form asks this before checking a password, so once the limit is reached
    even the right password is refused: otherwise the answer would still tell a guesser
    when they hit it.
    """
    return (cache.get(_key(limit, subject, now)) or 0) >= limit.count


def throttle_reset(*, limit: Limit, subject: str, now: float | None = None) -> None:
    """Forget this window's hits (a successful login clears its username's failures)."""
    cache.delete(_key(limit, subject, now))


def client_ip(request: HttpRequest) -> str:
    """The visitor's address as the throttles see it (see the module docstring)."""
    header = getattr(settings, "BOARDWALK_CLIENT_IP_HEADER", "")
    if header and request.META.get(header):
        # X-Forwarded-For may list several hops; the proxy appends the client last.
        return request.META[header].split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "")


def registration_post_throttled(*, event_id: int, ip: str, now: float | None = None) -> bool:
    """Count one POST from ``ip`` to ``event_id``'s form; True once over the limit."""
    return throttle_hit(limit=REGISTRATION, subject=f"{event_id}:{ip}", now=now)
