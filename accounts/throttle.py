"""Limits on every door a stranger can knock at, counted in Django's cache.

Two kinds of limit, one mechanism each:

* ``Limit``, a rate: at most ``count`` hits in any ``window_seconds``. The public
  registration form (per address and event), wrong banker-link keys (per address) and
  password-reset requests (per address and per email) use it. The window slides: each
  subject keeps the times of its last ``count`` hits in a ring of cache keys, and a hit is
  over the limit when the hit ``count`` places before it is younger than the window. There
  is no boundary at which the count starts again, so no burst of twice the limit across
  one, and a test cannot fail by running across one.
* ``Backoff``, for passwords: failed logins are not locked out but slowed down. Each
  username, each address and each known device (below) has a few free failures; after
  them every attempt must wait twice as long as the one before (1 s, 2 s, 4 s... up to
  15 minutes) since the previous one, and an attempt that comes too early is refused
  without checking the password. A right password resets its username. A device that has
  logged in as that username before is counted apart (``device``), so a stranger guessing
  ``headjudge`` from the venue's address slows down the stranger and new devices, never
  the head judge's own tablet.

Both take an attempt *before* deciding, with the cache's atomic ``incr``, so a burst of
parallel requests cannot all pass a check that none of them has counted yet.

Usernames are counted the way the authentication backend reads them (``login_subject``):
Django's login form folds compatibility characters (NFKC), so ``ｊｕｄｇｅ２`` signs in as
``judge2`` and must count as ``judge2``; case is folded too, so ``Judge2`` shares the count.

The time is ``now()`` and nothing else, so a test fixes the clock by patching that one
function. The cache is the shared one (Redis when REDIS_URL is set); while it is
unreachable (``degraded``, config/cache.py) the counts fall back to this process's
memory: the limits hold per process instead of failing or vanishing.

The client's address is ``REMOTE_ADDR``, unless the request comes from one of
``settings.BOARDWALK_TRUSTED_PROXIES``: only then is ``BOARDWALK_CLIENT_IP_HEADER`` (the
header that proxy sets) believed, so a visitor cannot pick their own address by sending it.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import math
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest

T = TypeVar("T")


def now() -> float:
    """The throttles' clock (seconds since the epoch); tests patch this one function."""
    return time.time()


# While the shared cache is unreachable: this process's own counts.
_FALLBACK = LocMemCache("boardwalk-throttle-fallback", {"OPTIONS": {"MAX_ENTRIES": 20_000}})


def _degraded() -> bool:
    return bool(getattr(cache, "degraded", False))


def _counted(operation: Callable[[BaseCache], T]) -> T:
    """``operation`` on the shared cache, or on this process's while that one is away; when
    it goes away in the middle (the call that finds out), the count is made again here."""
    if _degraded():
        return operation(_FALLBACK)
    result = operation(cache)
    return operation(_FALLBACK) if _degraded() else result


def fallback_clear() -> None:
    """Forget the per-process counts (tests; the shared cache is cleared with cache.clear())."""
    _FALLBACK.clear()


def _key(kind: str, name: str, subject: str, *parts: object) -> str:
    # Hashed: a typed username may hold anything, and cache keys must stay short and plain.
    digest = hashlib.sha256((subject or "unknown").encode()).hexdigest()[:32]
    return ":".join(["boardwalk:throttle", kind, name, digest, *map(str, parts)])


def _incr(store: BaseCache, key: str, timeout: float) -> int:
    # add() only sets a missing key, so concurrent first hits do not reset each other.
    store.add(key, 0, timeout=timeout)
    try:
        return store.incr(key)
    except ValueError:  # evicted (or the cache went away) between add() and incr()
        store.set(key, 1, timeout=timeout)
        return 1


# --- Rates: at most `count` hits in any window ------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """At most ``count`` hits per ``window_seconds`` for one subject (an address, an email)."""

    name: str
    count: int
    window_seconds: int


REGISTRATION_POSTS_PER_WINDOW = 10
REGISTRATION_WINDOW_SECONDS = 10 * 60
REGISTRATION = Limit("registration", REGISTRATION_POSTS_PER_WINDOW, REGISTRATION_WINDOW_SECONDS)

# Keys are 32+ random characters, so guessing is hopeless anyway; the limit answers a
# scanner with 429. A right key always opens (banker/views.py looks it up first), so
# guesses from the venue's shared address never lock a tablet out of its table.
BANKER_LINK_MISSES_PER_IP = Limit("banker-link", 20, 10 * 60)

# Each request may send an email: a few per address and per address asked for is plenty
# for someone who lost a message, and keeps the form from mailing a stranger's inbox full.
PASSWORD_RESETS_PER_IP = Limit("password-reset-ip", 5, 60 * 60)
PASSWORD_RESETS_PER_EMAIL = Limit("password-reset-email", 3, 60 * 60)


def _ring(limit: Limit, subject: str) -> tuple[str, int]:
    """The subject's hit counter key, and the ring slots' lifetime in the cache."""
    return _key("rate", limit.name, subject, "seq"), limit.window_seconds + 60


def throttle_hit(*, limit: Limit, subject: str) -> bool:
    """Count one hit for ``subject``; True once it is over the limit (refused hits count too,
    so a script that keeps trying stays refused)."""
    at = now()
    return _counted(lambda store: _hit(store, limit, subject, at))


def _hit(store: BaseCache, limit: Limit, subject: str, at: float) -> bool:
    seq_key, timeout = _ring(limit, subject)
    ticket = _incr(store, seq_key, timeout)
    store.touch(seq_key, timeout)
    slot = _key("rate", limit.name, subject, ticket % limit.count)
    previous = store.get(slot)  # the time of the hit `count` hits ago, if any
    store.set(slot, at, timeout=timeout)
    return previous is not None and at - previous < limit.window_seconds


def throttle_exceeded(*, limit: Limit, subject: str) -> bool:
    """Whether the next hit for ``subject`` would be over the limit, without counting it."""
    at = now()
    seq_key, _timeout = _ring(limit, subject)

    def peek(store: BaseCache) -> bool:
        ticket = (store.get(seq_key) or 0) + 1
        previous = store.get(_key("rate", limit.name, subject, ticket % limit.count))
        return previous is not None and at - previous < limit.window_seconds

    return _counted(peek)


def throttle_reset(*, limit: Limit, subject: str) -> None:
    """Forget ``subject``'s hits."""
    seq_key, _timeout = _ring(limit, subject)
    keys = [seq_key, *(_key("rate", limit.name, subject, n) for n in range(limit.count))]
    _counted(lambda store: store.delete_many(keys))


def registration_post_throttled(*, event_id: int, ip: str) -> bool:
    """Count one POST from ``ip`` to ``event_id``'s form; True once over the limit."""
    return throttle_hit(limit=REGISTRATION, subject=f"{event_id}:{ip}")


# --- Passwords: progressively slower, never locked ----------------------------------------------


@dataclass(frozen=True)
class Backoff:
    """``free`` failures, then a wait of ``first_wait_s`` doubling per failure up to ``max_wait_s``.

    The failures are forgotten ``forget_s`` after the last attempt.
    """

    name: str
    free: int
    first_wait_s: float = 1.0
    max_wait_s: float = 15 * 60
    forget_s: float = 60 * 60

    def wait_after(self, failures: int) -> float:
        """How long after the previous attempt the next one may come."""
        if failures < self.free:
            return 0.0
        return min(self.max_wait_s, self.first_wait_s * 2 ** min(failures - self.free, 32))


# A volunteer who mistypes gets several tries at full speed; a guesser gets a handful an
# hour. The per-address allowance is larger because a venue's tablets share one address.
LOGIN_PER_USERNAME = Backoff("login-username", free=5)
LOGIN_PER_ADDRESS = Backoff("login-address", free=20)
LOGIN_PER_DEVICE = Backoff("login-device", free=5)


@dataclass(frozen=True)
class _Taken:
    backoff: Backoff
    subject: str
    reset_on_success: bool
    # Past the free failures one attempt at a time: this attempt holds the subject's gate.
    gated: bool = False

    def key(self, part: str) -> str:
        return _key("backoff", self.backoff.name, self.subject, part)

    @property
    def timeout(self) -> float:
        return self.backoff.forget_s + 60


# A gate whose attempt never finished (the process died mid-check) opens again by itself.
_GATE_TIMEOUT_S = 60


def _take(taken: _Taken, store: BaseCache, at: float) -> tuple[_Taken, float]:
    """Count one attempt for ``taken``'s subject: (the taking, 0) if it may go ahead, else
    (the taking, seconds to wait). An attempt refused here is given back by the caller."""
    backoff = taken.backoff
    earlier = _incr(store, taken.key("n"), taken.timeout) - 1  # failures, attempts under way
    last = store.get(taken.key("last"))
    if last is not None and at - last >= backoff.forget_s:
        store.set(taken.key("n"), 1, timeout=taken.timeout)  # a series long over: start again
        earlier, last = 0, None
    needed = backoff.wait_after(earlier)
    if needed == 0:
        # Within the free failures: the atomic count alone bounds a parallel burst.
        return taken, 0.0
    if last is not None and at < last + needed:
        return taken, last + needed - at
    # Past them, parallel attempts would all read the same time of the last one; the gate
    # lets one through and the others wait for its outcome.
    if not store.add(taken.key("gate"), 1, timeout=_GATE_TIMEOUT_S):
        return taken, 1.0
    return _Taken(backoff, taken.subject, taken.reset_on_success, gated=True), 0.0


def _give_back(taken: _Taken, store: BaseCache) -> None:
    if taken.gated:
        store.delete(taken.key("gate"))
    try:
        store.decr(taken.key("n"))
    except ValueError:  # forgotten meanwhile: nothing to give back
        pass


@dataclass
class LoginAttempt:
    """One password check, let through or refused; ``resolve`` it with the check's outcome."""

    wait_s: float
    taken: tuple[_Taken, ...] = ()
    store: BaseCache | None = None

    @property
    def refused(self) -> bool:
        return self.wait_s > 0

    @property
    def retry_after_s(self) -> int:
        return max(1, math.ceil(self.wait_s))

    def resolve(self, *, succeeded: bool) -> None:
        """A failure stays counted; a success forgets its username's (or device's) failures
        and gives the address back its attempt, since the address may be a shared one."""
        store = self.store
        if store is None:  # nothing was taken: the cache was not there to count in
            return
        for taken in self.taken:
            if not succeeded:
                if taken.gated:
                    store.delete(taken.key("gate"))
            elif taken.reset_on_success:
                store.delete_many([taken.key(part) for part in ("n", "last", "gate")])
            else:
                _give_back(taken, store)


def login_subject(username: str) -> str:
    """The username as the login counts it: the form's NFKC, then folded case."""
    folded = unicodedata.normalize("NFKC", username.strip()).casefold()
    return unicodedata.normalize("NFKC", folded)


def login_attempt(*, username: str, address: str, device: str | None) -> LoginAttempt:
    """Take one password attempt for ``username`` from ``address``.

    ``device`` is given only for a device that has logged in as this username before: its
    attempts count on their own, and a stranger's failures for the same name or address do
    not slow it down.
    """
    subject = login_subject(username)
    takes: tuple[_Taken, ...]
    if device:
        takes = (_Taken(LOGIN_PER_DEVICE, f"{device}:{subject}", reset_on_success=True),)
    else:
        takes = (
            _Taken(LOGIN_PER_USERNAME, subject, reset_on_success=True),
            _Taken(LOGIN_PER_ADDRESS, address, reset_on_success=False),
        )
    at = now()
    return _counted(lambda store: _attempt(takes, store, at))


def _attempt(takes: tuple[_Taken, ...], store: BaseCache, at: float) -> LoginAttempt:
    results = [_take(take, store, at) for take in takes]
    wait = max(wait for _taken, wait in results)
    if wait > 0:
        for taken, _wait in results:
            _give_back(taken, store)
        return LoginAttempt(wait_s=wait)
    for taken, _wait in results:
        # The attempt's own time, so the next one waits from here.
        store.set(taken.key("last"), at, timeout=taken.timeout)
        store.touch(taken.key("n"), taken.timeout)
    return LoginAttempt(wait_s=0.0, taken=tuple(taken for taken, _wait in results), store=store)


# --- The client's address ------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _networks(
    proxies: tuple[str, ...],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def _is_trusted_proxy(address: str) -> bool:
    proxies = tuple(getattr(settings, "BOARDWALK_TRUSTED_PROXIES", ()))
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(proxies))


def client_ip(request: HttpRequest) -> str:
    """The visitor's address as the throttles see it (see the module docstring).

    Behind a trusted proxy, the header's hops are read from the nearest back, skipping the
    trusted proxies themselves (``X-Forwarded-For`` may list several); the first address
    no trusted proxy stands for is the client. Anything that is not an address is ignored.
    """
    remote = request.META.get("REMOTE_ADDR", "")
    header = getattr(settings, "BOARDWALK_CLIENT_IP_HEADER", "")
    if not header or not _is_trusted_proxy(remote):
        return remote
    hops = [hop.strip() for hop in request.META.get(header, "").split(",") if hop.strip()]
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return remote
        if not _is_trusted_proxy(hop):
            return hop
    return hops[0] if hops else remote
