"""Redis as a cache that may go away: when it is unreachable, Boardwalk runs without it.

Everything Boardwalk keeps in the cache can be rebuilt (public pages, their versions,
throttle counts), so an unreachable Redis must not turn pages into 500s. This backend is
Django's RedisCache whose every call, when Redis cannot be reached, answers as an empty
cache would: a read finds nothing, a write keeps nothing, ``incr`` finds no key. It then
leaves Redis alone for ``RETRY_S`` (a closed port answers quickly, a dead host only after
the socket timeout, which the settings keep short) and tries again. ``degraded`` says
whether it is in that state, for the throttles (they count in this process's memory
meanwhile) and ``/health/``.

A write that was lost may leave an old value in Redis (a public version that should have
changed), so the keys written while Redis was away are deleted once it answers again, or,
if too many to remember, the whole cache is cleared. Both are always safe for a cache.

The outage and the recovery are logged once each, not once per request.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("boardwalk.cache")

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
_MISSED_MAX = 1000


_MISSING = object()


def _no_key(args: tuple, kwargs: dict) -> Any:
    raise ValueError("The cache is unreachable, so it holds no key to increment.")


def _guarded(name: str, default: Callable[[tuple, dict], Any], *, writes: str = ""):
    """RedisCache.<name>, answering ``default(args, kwargs)`` while Redis is away.

    ``writes``: "key" when the first argument is the key written, "keys" when it holds the
    keys written (a list, or a dict's keys), "all" for clear().
    """
    parent = getattr(RedisCache, name)

    def method(self: ResilientRedisCache, *args: Any, **kwargs: Any) -> Any:
        version = kwargs.get("version")
        written: list[str] = []
        if writes == "key":
            written = [self.make_and_validate_key(args[0], version=version)]
        elif writes == "keys":
            written = [self.make_and_validate_key(key, version=version) for key in args[0]]
        result = self._call(lambda: parent(self, *args, **kwargs), _MISSING, written)
        if result is not _MISSING:
            return result
        if writes == "all":
            self._miss_everything()
        return default(args, kwargs)

    method.__name__ = name
    return method


class ResilientRedisCache(RedisCache):
    RETRY_S = 5.0
    # RedisCache's client (a cached property Django keeps private, absent from its stubs).
    _cache: RedisCacheClient

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._lock = threading.Lock()
        self._down_until = 0.0  # time.monotonic(); 0 while Redis answers
        self._down = False
        self._answered_at = -float("inf")  # time.monotonic() of the last call Redis answered
        self._missed: set[str] = set()
        self._missed_overflow = False

    @property
    def degraded(self) -> bool:
        return self._down

    def available(self) -> bool:
        """Whether Redis answers: known from the last call when it was recent, else one PING.

        A health check polled in a tight loop thus costs Redis one PING per RETRY_S.
        """
        if self._down:
            return False
        if time.monotonic() - self._answered_at < self.RETRY_S:
            return True
        return self._call(lambda: bool(self._cache.get_client(write=False).ping()), False, ())

    # --- the guard around every call ---------------------------------------------------------

    def _call(self, do: Callable[[], Any], default: Any, written: Iterable[Any]) -> Any:
        if self._down and time.monotonic() < self._down_until:
            self._miss(written)
            return default
        try:
            result = do()
        except UNREACHABLE as error:
            self._went_away(error)
            self._miss(written)
            return default
        self._answered_at = time.monotonic()
        if self._down:
            self._came_back()
        return result

    def _went_away(self, error: Exception) -> None:
        with self._lock:
            first = not self._down
            self._down, self._down_until = True, time.monotonic() + self.RETRY_S
        if first:
            logger.warning(
                "The cache (Redis) is unreachable: %s. Serving without it, retrying every %ss.",
                error,
                self.RETRY_S,
            )

    def _miss(self, keys: Iterable[Any]) -> None:
        with self._lock:
            for key in keys:
                if len(self._missed) >= _MISSED_MAX:
                    self._missed_overflow = True
                    break
                self._missed.add(key)

    def _miss_everything(self) -> None:
        with self._lock:
            self._missed_overflow = True

    def _came_back(self) -> None:
        with self._lock:
            if not self._down:
                return
            missed, overflow = list(self._missed), self._missed_overflow
            self._down, self._missed, self._missed_overflow = False, set(), False
        logger.warning("The cache (Redis) answers again; forgetting what was written meanwhile.")
        if overflow:
            self.clear()
        elif missed:
            # Keys as stored (prefixed and versioned), so straight to the client.
            self._call(lambda: self._cache.delete_many(missed), None, missed)

    # Django's cache API, each call guarded; get_or_set() and decr() are built on these.
    get = _guarded("get", lambda args, kwargs: kwargs.get("default", (*args, None)[1]))
    get_many = _guarded("get_many", lambda args, kwargs: {})
    has_key = _guarded("has_key", lambda args, kwargs: False)
    add = _guarded("add", lambda args, kwargs: False, writes="key")
    set = _guarded("set", lambda args, kwargs: None, writes="key")
    touch = _guarded("touch", lambda args, kwargs: False, writes="key")
    delete = _guarded("delete", lambda args, kwargs: False, writes="key")
    incr = _guarded("incr", _no_key, writes="key")
    set_many = _guarded("set_many", lambda args, kwargs: list(args[0]), writes="keys")
    delete_many = _guarded("delete_many", lambda args, kwargs: None, writes="keys")
    clear = _guarded("clear", lambda args, kwargs: None, writes="all")
