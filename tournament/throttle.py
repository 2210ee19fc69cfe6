"""A small per-IP, per-event limit on registration POSTs.

The public form is the one page anyone can submit without an account; a fixed window
counted in Django's cache keeps a script from filling an event with invented people or
exhausting the alias list, while a family registering several children from one laptop
stays well under the limit. The cache is per process unless REDIS_URL is set (see
settings), so behind several processes the limit is per process.
"""

from __future__ import annotations

import time

from django.core.cache import cache

REGISTRATION_POSTS_PER_WINDOW = 10
REGISTRATION_WINDOW_SECONDS = 10 * 60

_KEY = "boardwalk:registration-throttle:{event_id}:{ip}:{window}"


def registration_post_throttled(*, event_id: int, ip: str, now: float | None = None) -> bool:
    """Count one POST from ``ip`` to ``event_id``'s form; True once over the limit.

    The window is fixed (it restarts every ``REGISTRATION_WINDOW_SECONDS``) rather than
    sliding, because a fixed window needs one cache key and one atomic increment.
    """
    now = time.time() if now is None else now
    window = int(now // REGISTRATION_WINDOW_SECONDS)
    key = _KEY.format(event_id=event_id, ip=ip or "unknown", window=window)
    # add() only sets a missing key, so concurrent first POSTs do not reset each other.
    cache.add(key, 0, timeout=REGISTRATION_WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between add() and incr()
        cache.set(key, 1, timeout=REGISTRATION_WINDOW_SECONDS)
        count = 1
    return count > REGISTRATION_POSTS_PER_WINDOW
