"""The banker tablet offline: its service worker, its manifest, its heartbeat.

The service worker is ``static/js/tablet-sw.js``, served from ``/bank/sw.js`` so that its
scope is ``/bank/``: the clock page, the score sheet and the table card's link of every
table. Served by a view, it starts with the list of static files to keep (their URLs as
the static storage names them) and the version that makes a new deployment replace the
old caches. The manifest offers the banker pages as an app on the tablet's home screen.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from banker.access import banker_required, holds_table
from banker.table_rules import table_rules as table_rules_for
from banker.tablet_services import heartbeat_record
from tournament.formats import event_edition, event_is_knockout
from tournament.lookups import table_or_404

# What a banker page needs, kept by the service worker when it installs.
PRECACHE = (
    "css/tokens.css",
    "css/boardwalk.css",
    "css/clock.css",
    "css/sheet.css",
    "css/tablet.css",
    "js/clock.js",
    "js/sheet.js",
    "js/tablet.js",
    "js/rules.js",
    "img/tablet-icon.svg",
)
SCOPE = "/bank/"


def _worker_source() -> str:
    found = finders.find("js/tablet-sw.js")
    if not found:  # pragma: no cover - the file ships with the app
        return ""
    return Path(found).read_text(encoding="utf-8")


def _precache() -> list[str]:
    """Our own files; the page hands over the rest it loaded (htmx) once the worker runs."""
    return [static(name) for name in PRECACHE]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, its settings first (public: it holds no one's data)."""
    source = _worker_source()
    precache = _precache()
    version = hashlib.sha256((source + json.dumps(precache)).encode()).hexdigest()[:12]
    head = "self.BOARDWALK = " + json.dumps(
        {"version": version, "precache": precache, "scope": SCOPE, "static": static("")}
    )
    response = HttpResponse(head + ";\n" + source, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = SCOPE
    # The browser checks for a new worker on every visit; never keep an old one.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the banker's pages, full screen on the tablet."""
    data = {
        "name": _("Boardwalk banker"),
        "short_name": _("Banker"),
        "description": _("The table's clock and score sheet, online or not."),
        "start_url": reverse("banker:banker_tables"),
        "scope": SCOPE,
        "display": "standalone",
        "orientation": "any",
        "background_color": "#ffffff",
        "theme_color": "#1b5e20",
        "icons": [
            {
                "src": static("img/tablet-icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "any",
            }
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


def _since(raw: str) -> datetime.datetime | None:
    try:
        value = parse_datetime(raw[:40]) if raw else None
    except ValueError:
        return None
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, datetime.UTC)
    return value


def _own_tablet(view):
    """Only the table's own tablet (its link, or its banker signed in): a judge who opens
    the table's pages to help is not its tablet, and does not speak for it."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, table_pk: int) -> HttpResponse:
        if not holds_table(request, table_or_404(table_pk)):
            refusal = _("Only the table’s own tablet sends its heartbeat.")
            return JsonResponse({"status": "refused", "messages": [refusal]}, status=403)
        return view(request, table_pk)

    return wrapped


@banker_required
@_own_tablet
@require_POST
def tablet_heartbeat(request: HttpRequest, table_pk: int) -> JsonResponse:
    """A tablet says it is here, with its queue's length; answered with the server's time."""
    table = table_or_404(table_pk)
    device = request.POST.get("device", "").strip()
    queued = request.POST.get("queued", "")
    if not device or not (queued.isascii() and queued.isdigit() and len(queued) <= 6):
        return JsonResponse(
            {"status": "refused", "messages": [_("A heartbeat names its tablet and queue.")]},
            status=400,
        )
    heartbeat_record(
        table=table,
        device=device,
        queued=int(queued),
        offline_since=_since(request.POST.get("offline_since", "")),
    )
    now = timezone.now()
    return JsonResponse({"status": "ok", "server_ms": int(now.timestamp() * 1000)})


@banker_required
@require_GET
def table_rules(request: HttpRequest, table_pk: int) -> HttpResponse:
    """Championship Rules, BANKERS: the banker "will also have a copy of the rules": the event
    edition's rules and the tournament's clarifications, in the table's language (its game language,
    else the event's), searchable on the page and kept offline by the service worker."""
    table = table_or_404(table_pk)
    event = table.round.event
    language = table.language or event.language
    with translation.override(language):
        edition = event_edition(event=event)
        sections = table_rules_for(edition=edition, knockout=event_is_knockout(event=event))
        return render(
            request,
            "banker/rules.html",
            {
                "event": event,
                "table": table,
                "edition": edition,
                "sections": sections,
                "rules_language": language,
            },
        )


# Narrower than banker_required's table pages: the judges may open them, but only the
# table's own tablet beats (the permission walk in tests/project reads this).
tablet_heartbeat.own_tablet_only = True
