"""Every banker write, and every official's form post, applied at most once.

A tablet names each write with a UUID, its idempotency key: the ``Idempotency-Key``
header (the offline queue of ``static/js/tablet.js``) or an ``idempotency_key`` form
field. ``idempotent`` runs the view in one transaction that first claims the key for the
table and the action (``TabletWrite``, unique per table, key and view), and keeps the
answer: status, type,
body, redirect. The same key again gets that answer back, marked ``Idempotent-Replay:
true``, and the view does not run. Two requests with one key at the same moment: the
second waits on the unique key, then gets the first one's answer.

A view that fails (an exception, a 500) rolls back its key with its work, so the tablet
may try again. Requests without a key run as before. A request that asks for JSON and is
answered with a redirect (the clock's buttons, the signatures) gets the redirect and its
messages as JSON instead, so the tablet can show what was refused.

A key sent to another action (or another table) is not a repeat: it claims its own
record, so the new write is applied and no other action's answer is shown. Stored
answers are kept a day (``KEEP``), long enough for any retry or offline queue of the
day, and pruned as new ones are written (and by ``manage.py prune_idempotency``).

Officials' forms (every write of the alternates, check-in, seating, the bracket, the
clock, posting and ties, the judges' calls; tests/tournament/test_official_forms_idempotent.py
lists them from the URL modules) use the same mechanism through ``official_idempotent``,
bound to the signed-in official and the action (URL name and arguments) instead of a
table. To give a form it:

1. put ``{% load idempotency %}`` and ``{% idempotency_key %}`` inside the ``<form>``
   (a fresh UUID each time the form is rendered, so a page drawn again gets a new key);
2. wrap the view: ``@official_idempotent`` below the access check and ``require_POST``::

       @organizer_required
       @require_POST
       @official_idempotent
       def my_write(request, pk): ...

A double tap, or the browser sending the form again, then gets the first answer back
(marked ``Idempotent-Replay: true``) and the write happens once; a redirect comes back with
the messages the first answer left (``said``), since the browser may never have shown that
answer's page. A post without a key runs as before. The mark left on the view,
``idempotent``, says what the key is bound to: ``"table"`` or ``"official"``.
"""

from __future__ import annotations

import datetime
import functools
import uuid
from typing import Any

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseRedirectBase
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import KeptAnswer, OfficialWrite, TabletWrite
from tournament.requests import mark_view

HEADER = "Idempotency-Key"
FIELD = "idempotency_key"
# Set on an answer given again instead of running the write again.
REPLAY_HEADER = "Idempotent-Replay"
_MAX_BODY = 2_000_000
# How long a stored answer is replayed: a tournament day and its offline queues.
KEEP = datetime.timedelta(hours=24)


def request_key(request: HttpRequest) -> uuid.UUID | None | bool:
    """The request's key; None without one, False for one that is not a UUID."""
    raw = request.headers.get(HEADER) or request.POST.get(FIELD)
    if not raw:
        return None
    try:
        return uuid.UUID(raw)
    except ValueError:
        return False


def _table_pk(args: tuple[Any, ...], kwargs: dict[str, Any]) -> int | None:
    table = next((a for a in args if hasattr(a, "round_id") and hasattr(a, "wave_id")), None)
    if table is not None:
        return table.pk
    pk = kwargs.get("table_pk")
    return pk if isinstance(pk, int) else None


def _redirect_to(response: HttpResponse) -> str:
    """Where a redirect leads; "" for any other answer."""
    return response.url if isinstance(response, HttpResponseRedirectBase) else ""


def _fitted(model: type[Model], field: str, text: str) -> str:
    """``text`` cut to the length ``model``'s ``field`` (a ``CharField``) holds."""
    return text[: model._meta.get_field(field).max_length]  # type: ignore[union-attr]


def _as_json(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A redirect answered to a JSON request: where it leads, and the page's messages."""
    location = _redirect_to(response)
    if not location or "application/json" not in request.headers.get("Accept", ""):
        return response
    said = [{"level": m.tags, "text": str(m)} for m in messages.get_messages(request)]
    refused = any("error" in m["level"] for m in said)
    return JsonResponse(
        {
            "status": "refused" if refused else "done",
            "redirect": location,
            "messages": [m["text"] for m in said],
        }
    )


# Django's message storage (MessageMiddleware, on every request) keeps the messages added
# during this request apart from those still waiting from the last one; its public API
# reads both and marks them shown, so the two lists are read directly.
def _said(request: HttpRequest) -> list[list[Any]]:
    """The messages this request has queued for the next page."""
    queued = request._messages._queued_messages  # type: ignore[attr-defined]
    return [[m.level, str(m.message), m.extra_tags or ""] for m in queued][:20]


def _replay(record: KeptAnswer, request: HttpRequest) -> HttpResponse:
    if record.location:
        # The first answer's page (and its messages) may never have been shown: the
        # browser dropped it for the repeat's. The repeat leads to the same page, saying
        # the same.
        # Not twice, though, when the first answer's messages still wait to be shown.
        waiting = request._messages._loaded_messages  # type: ignore[attr-defined]
        shown = {(m.level, str(m.message)) for m in waiting}
        for level, text, tags in record.said or []:
            if (level, text) not in shown:
                messages.add_message(request, level, text, extra_tags=tags)
    # Every kept answer has its status and type: they are written with the claim's record,
    # in the same transaction as the write.
    response = HttpResponse(
        bytes(record.body), status=record.status_code, content_type=record.content_type
    )
    if record.location:
        response["Location"] = record.location
    response[REPLAY_HEADER] = "true"
    return response


def _keep(record: KeptAnswer, response: HttpResponse, request: HttpRequest) -> None:
    body = b"" if response.streaming else bytes(response.content)
    record.status_code = response.status_code
    record.content_type = _fitted(type(record), "content_type", response["Content-Type"])
    record.body = body[:_MAX_BODY]
    record.location = _fitted(type(record), "location", _redirect_to(response))
    record.said = _said(request) if record.location else []
    record.save(update_fields=["status_code", "content_type", "body", "location", "said"])


# Runs once, at import, before mutmut switches a mutant on (see benchmarks/mutation.py):
# not mutated. Its mark is held by tests/banker/test_offline_queue_list.py.
def idempotent(view):  # pragma: no mutate block
    """Apply the wrapped banker write once per idempotency key and table (see above).

    Goes inside the access check (``banker_required``, ``sheet_access``), so a stored
    answer is only ever shown to someone who may act at that table.
    """

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return _table_write(view, request, *args, **kwargs)

    # What the key is bound to: a table (the tablet's writes) or an official.
    mark_view(wrapped, idempotent="table")
    return wrapped


# The decorators' work is done per request in functions of their own, not in their
# closures: mutation testing reaches only the code that runs after the modules are imported.
def _table_write(view, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    key = request_key(request)
    table_pk = _table_pk(args, kwargs)
    if key is None or table_pk is None or request.method != "POST":
        return _as_json(request, view(request, *args, **kwargs))
    if key is False:
        return JsonResponse(
            {"status": "refused", "messages": [_("The idempotency key is not a UUID.")]},
            status=400,
        )
    claim = {
        "table_id": table_pk,
        "key": key,
        "action": _fitted(TabletWrite, "action", view.__name__),
    }
    return _once(
        TabletWrite,
        claim,
        lambda: _as_json(request, view(request, *args, **kwargs)),
        request=request,
    )


def _once(
    model: type[TabletWrite] | type[OfficialWrite],
    claim: dict[str, Any],
    run,
    *,
    request: HttpRequest,
) -> HttpResponse:
    """``run()`` once for the record ``claim`` names, or the answer it got the first time."""
    found = model.objects.filter(**claim).first()
    if found is not None and found.status_code:
        return _replay(found, request)
    try:
        with transaction.atomic():
            record = model.objects.create(**claim)
            response = run()
            if response.status_code >= 500:
                raise _Failed(response)
            _keep(record, response, request)
    except _Failed as failed:
        return failed.response
    except IntegrityError:
        # Another request with this key got there first; it has committed by now.
        found = model.objects.filter(**claim).first()
        if found is None:
            raise
        return _replay(found, request)
    prune(model=model)
    return response


def prune(
    *, model: type[TabletWrite] | type[OfficialWrite], now: datetime.datetime | None = None
) -> int:
    """Forget the answers older than ``KEEP``; how many were forgotten."""
    cutoff = (now or timezone.now()) - KEEP
    deleted, _by_model = model.objects.filter(at__lt=cutoff).delete()
    return deleted


def action_of(request: HttpRequest) -> str:
    """The action a key is bound to: the URL's name and its arguments."""
    match = request.resolver_match
    if match is None:
        return _fitted(OfficialWrite, "action", request.path)
    params = [str(a) for a in match.args] + [f"{k}={v}" for k, v in sorted(match.kwargs.items())]
    return _fitted(OfficialWrite, "action", " ".join([match.view_name, *params]))


# Runs once, at import, before mutmut switches a mutant on (see benchmarks/mutation.py):
# not mutated. Its mark is held by tests/tournament/test_official_forms_idempotent.py.
def official_idempotent(view):  # pragma: no mutate block
    """Apply the wrapped official's form post once per key, official and action.

    Goes inside the access check, so an answer is only replayed to the official who got it
    (see the module's text for how a form takes part).
    """

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return _official_write(view, request, *args, **kwargs)

    mark_view(wrapped, idempotent="official")
    return wrapped


def _official_write(view, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    key = request_key(request)
    user = request.user
    if key is None or request.method != "POST" or not user.is_authenticated:
        return view(request, *args, **kwargs)
    if key is False:
        return HttpResponse(_("The idempotency key is not a UUID."), status=400)
    claim = {"user_id": user.pk, "key": key, "action": action_of(request)}
    return _once(OfficialWrite, claim, lambda: view(request, *args, **kwargs), request=request)


class _Failed(Exception):
    """A 5xx answer: the transaction is rolled back, key and all, and the answer sent."""

    def __init__(self, response: HttpResponse):
        super().__init__(response.status_code)
        self.response = response


def replayed(response: HttpResponse) -> bool:
    return response.get(REPLAY_HEADER) == "true"


__all__ = [
    "FIELD",
    "HEADER",
    "KEEP",
    "action_of",
    "idempotent",
    "official_idempotent",
    "prune",
    "replayed",
    "request_key",
]
