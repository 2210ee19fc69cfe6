"""The per-event public version, and the cached, conditional responses built on it.

Every public page of an event is a function of the database and of that event's *public
version*: a random token in Django's cache (local memory by default, Redis when
``REDIS_URL`` is set, so every application server sees the same token). Whenever anything
a spectator may see changes, ``bump`` replaces the token (see ``signals``). A page is then
cached under (event, page, args, version, language) and carries an ETag made of the same
parts, so:

* a phone polling a page that has not changed sends ``If-None-Match`` and gets a 304
  after one cache read, without touching the database;
* a page that is the same for everyone is rendered once per version, whichever server
  the request lands on;
* nothing needs deleting when something changes: the old keys are simply never asked
  for again and expire.

The token is random rather than a counter so that a cache that was flushed or restarted
can never hand out an old number again and turn a stale browser copy into a 304.
"""

from __future__ import annotations

import hashlib
import threading
import uuid
from collections.abc import Callable
from typing import TypeVar, cast

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

# Pages stay cached this long at most; a version bump makes them unreachable at once.
PAGE_TIMEOUT_S = 10 * 60
_VERSION_KEY = "spectator:version:{pk}"

_Value = TypeVar("_Value")


def cached_value(key: str, find: Callable[[], _Value], *, timeout: float) -> _Value:
    """What ``find()`` gives, kept under ``key``: Django's ``cache.get_or_set``, whose answer
    is the value ``find`` gave now or before (its stubs say any value or None)."""
    return cast(_Value, cache.get_or_set(key, find, timeout=timeout))


def public_version(*, event_pk: int) -> str:
    """The event's current public version, created on first use."""
    key = _VERSION_KEY.format(pk=event_pk)
    version = cache.get(key)
    if version is None:
        # add(): two servers racing to create it agree on whichever token landed first.
        cache.add(key, uuid.uuid4().hex, timeout=None)
        # A cache that cannot keep the token (Redis unreachable, config/cache.py) gets a new
        # one per request: every page is built afresh and no ETag can match a stale copy.
        version = cache.get(key) or uuid.uuid4().hex
    return version


def bump(*, event_pk: int) -> str:
    """Give the event a new public version: every cached page and ETag of it goes stale."""
    version = uuid.uuid4().hex
    cache.set(_VERSION_KEY.format(pk=event_pk), version, timeout=None)
    return version


def _digest(*parts: object) -> str:
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:32]


def cached_public_response(
    request: HttpRequest,
    *,
    event_pk: int,
    page: str,
    args: tuple = (),
    render: Callable[[], str],
) -> HttpResponse:
    """The page from cache (or ``render()``d and cached), as 304 when the browser has it.

    ``args`` must hold everything besides the event, the language and the database that
    the page depends on (round number, followed alias, projector mode); ``render`` may
    raise ``Http404``, which is not cached.
    """
    version = public_version(event_pk=event_pk)
    language = get_language() or ""
    digest = _digest(event_pk, page, args, version, language)
    # Weak: the page's gzipped and plain bodies differ in bytes, not in meaning, so a phone
    # that had either gets its 304 (GZipMiddleware would weaken a strong one on the 200
    # only, and the 304 would then carry a different tag).
    etag = f'W/"{digest}"'
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return _headers(not_modified, etag)
    content = _recent_pages.get(digest)
    if content is None:
        key = f"spectator:page:{digest}"
        content = cache.get(key)
        if content is None:
            content = render()
            cache.set(key, content, timeout=PAGE_TIMEOUT_S)
        _remember(digest, content)
    return _headers(HttpResponse(content), etag)


# The last pages this process served, by digest. A digest names one version of a page, so
# a copy here can never be stale; it saves the shared cache a round trip and the transfer
# of the page on every request but the first per process and version.
_RECENT_PAGES_MAX = 256
_recent_pages: dict[str, str] = {}
_recent_lock = threading.Lock()  # gunicorn's threads share the dict


def _remember(digest: str, content: str) -> None:
    with _recent_lock:
        while len(_recent_pages) >= _RECENT_PAGES_MAX:
            # Oldest first (dicts keep insertion order): old versions are the ones to go.
            del _recent_pages[next(iter(_recent_pages))]
        _recent_pages[digest] = content


def _headers(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    # no-cache: keep a copy but ask every time; the answer is usually a cheap 304.
    patch_cache_control(response, no_cache=True, max_age=0)
    # The language comes from Accept-Language or the language cookie; the body is gzipped
    # for a browser that accepts it (views._respond), and the 304 says so as the 200 does.
    patch_vary_headers(response, ("Accept-Language", "Cookie", "Accept-Encoding"))
    return response
