"""A write the database could not take: "Not saved: try again", with what was typed kept.

On SQLite a write waits for another one to finish (config/settings.py: up to 20 s); on
PostgreSQL the server may be restarting. When a request still fails for that reason
(``jobs.database.database_unavailable``), the person gets a page of the site's own, status
503, never a server error:

* a form post: what they sent, kept in a form that sends it again with one tap ("Try
  again"); passwords are not written back into the page and are asked for again, and a
  file must be chosen again;
* an htmx request: a short message (static/js/not_saved.js puts it next to the form, which
  stays as it was typed);
* a request asking for JSON (the tablets' queued writes): ``{"status": "not_saved"}``,
  which their queue sends again later, as after any 5xx;
* a page that only reads: the same page with a "Try again" link.

Nothing here reads the database, which is what failed: the page needs no user, session or
context processor.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.template import loader
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from jobs.database import database_unavailable

logger = logging.getLogger("boardwalk.errors")

# Seconds a browser or a tablet's queue might wait before sending again.
RETRY_AFTER = "5"
# The header static/js/not_saved.js looks for on an htmx answer.
HEADER = "Boardwalk-Not-Saved"
# Fields never written back into a page: CSRF gets a fresh token, passwords are asked again.
CSRF_FIELD = "csrfmiddlewaretoken"
SECRET_WORDS = ("password", "passphrase", "secret")


class NotSavedMiddleware:
    """Turns a busy or unreachable database, raised by a view, into ``not_saved_response``.

    Last in MIDDLEWARE, so its ``process_exception`` is asked first. An error raised outside
    a view (a session saved after it) reaches ``config.views.server_error``, which answers
    the same way when DEBUG is off.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not database_unavailable(exception):
            return None
        return not_saved_response(request, exception)


def not_saved_response(request: HttpRequest, error: BaseException) -> HttpResponse:
    logger.warning(
        "%s %s: the database is busy or out of reach (%s); answered 503",
        request.method,
        request.path,
        error,
    )
    writing = request.method not in ("GET", "HEAD", "OPTIONS")
    if getattr(request, "htmx", False):
        response = _htmx_answer(writing)
    elif _wants_json(request):
        response = JsonResponse(
            {"status": "not_saved", "messages": [_message(writing)]}, status=503
        )
    else:
        response = _page(request, writing)
    response["Retry-After"] = RETRY_AFTER
    add_never_cache_headers(response)  # what was typed is in it
    return response


def _message(writing: bool) -> str:
    if writing:
        return _(
            "Not saved: the database was busy or out of reach. What you entered is still "
            "here; try again in a moment."
        )
    return _("This page could not be loaded: the database was busy or out of reach. Try again.")


def _wants_json(request: HttpRequest) -> bool:
    accept = request.headers.get("Accept", "")
    return "application/json" in accept and "text/html" not in accept


def _htmx_answer(writing: bool) -> HttpResponse:
    html = loader.render_to_string("_not_saved_message.html", {"message": _message(writing)})
    response = HttpResponse(html, status=503)
    response[HEADER] = "1"
    return response


def _kept_fields(request: HttpRequest) -> tuple[list[tuple[str, str]], list[str]]:
    """The posted fields to send again, in order, and the names of the secret ones."""
    kept: list[tuple[str, str]] = []
    secret: list[str] = []
    for name, values in request.POST.lists():
        if name == CSRF_FIELD:
            continue
        if any(word in name.lower() for word in SECRET_WORDS):
            secret.append(name)
            continue
        kept.extend((name, value) for value in values)
    return kept, secret


def _way_back(request: HttpRequest) -> str:
    """The page the form was on, if it was one of ours."""
    referer = request.headers.get("Referer", "")
    safe = url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return referer if safe else ""


def _page(request: HttpRequest, writing: bool) -> HttpResponse:
    context = {"writing": writing, "again_url": request.get_full_path(), "back_url": ""}
    if writing:
        kept, secret = _kept_fields(request)
        context.update(
            kept=kept,
            secret=secret,
            files=bool(request.FILES),
            csrf_token=get_token(request),
            back_url=_way_back(request),
        )
    html = loader.render_to_string("not_saved.html", context)
    return HttpResponse(html, status=503)
