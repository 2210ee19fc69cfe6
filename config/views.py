"""Site-wide views that belong to no app: health, the error pages, the favicon."""

import logging
import re
import sys

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import redirect, render
from django.template import loader
from django.templatetags.static import static
from django.urls import reverse
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.not_saved import not_saved_response
from jobs.database import database_unavailable
from tournament.selectors import event_list

logger = logging.getLogger("boardwalk.errors")

# An event's pages, public (events/<pk>/...) or the officials' (organizer/events/<pk>/...).
EVENT_PATH = re.compile(r"^/(?:organizer/)?events/(\d{1,9})/")


@require_safe
@never_cache
def health(request: HttpRequest) -> HttpResponse:
    """Answer "ok" for load balancers and uptime checks, or "degraded" without the cache.

    It never touches the database: a health check that did would take every server out of
    rotation when PostgreSQL hiccups, which turns a slow database into a full outage; "the
    process is up and serving Django" is what a balancer needs to know. It also serves as
    the load bench's baseline: the cheapest request the full middleware stack can answer.

    It does ask the shared cache whether it answers (known from its last call, or one PING
    every few seconds at most, config/cache.py), and says "degraded" when it does not, still
    with status 200:
    every server shares that Redis, so a 503 would take all of them out together, while
    without the cache each still serves every page, only slower. Monitoring reads the body.
    never_cache stops a proxy from answering for a server that has gone away.
    """
    available = getattr(cache, "available", None)
    if available is not None and not available():
        body = "degraded: the cache (Redis) is unreachable; pages are built without it"
    else:
        body = "ok"
    return HttpResponse(body, content_type="text/plain; charset=utf-8")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400 page, except for a request too large to read: say so, with 413.

    A form post over DATA_UPLOAD_MAX_MEMORY_SIZE (a huge paste into the registration
    import) is refused before any view runs, so no view can show its form again; this page
    at least tells the person what happened and that their browser still holds the text.
    """
    if isinstance(exception, RequestDataTooBig):
        size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // (1024 * 1024)
        return render(request, "413.html", {"size_mb": size}, status=413)
    return defaults.bad_request(request, exception)


# --- The favicon and the error pages -------------------------------------------------------


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the static one."""
    return redirect(static("favicon.ico"))


def _event_link(request: HttpRequest) -> dict[str, str]:
    """The way back from an error on an event's page: that event's home, if it exists."""
    match = EVENT_PATH.match(request.path)
    if match is None:
        return {}
    try:
        event = event_list().filter(pk=int(match[1])).first()
    except DatabaseError:
        return {}
    if event is None:
        return {}
    url = reverse("spectator:event_home", kwargs={"pk": event.pk})
    return {"event_url": url, "event_name": event.name}


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 in the site's frame, leading back to the event (when the address names one)."""
    return render(request, "404.html", _event_link(request), status=404)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """403 in the site's frame: who is signed in, the way back, and the way to sign in."""
    return render(request, "403.html", _event_link(request), status=403)


def server_error(request: HttpRequest) -> HttpResponse:
    """500: a page that needs nothing that may have failed (no database, no context
    processors, no URL reversing); the way back is built from the address alone.

    A busy or unreachable database raised outside a view (a session saved after it), which
    NotSavedMiddleware never sees, answers "Not saved: try again" here instead."""
    error = sys.exc_info()[1]
    if error is not None and database_unavailable(error):
        try:
            return not_saved_response(request, error)
        except Exception:
            logger.exception("The not-saved page could not be rendered")
    match = EVENT_PATH.match(getattr(request, "path", "") or "")
    context = {"event_url": f"/events/{match[1]}/" if match else ""}
    try:
        return HttpResponseServerError(loader.get_template("500.html").render(context))
    except Exception:
        logger.exception("The 500 page could not be rendered")
        return HttpResponseServerError(
            "<!DOCTYPE html><title>Server error</title><h1>Server error</h1>"
            '<p><a href="/">Boardwalk</a></p>',
            content_type="text/html",
        )
