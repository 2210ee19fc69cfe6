"""Site-wide views that belong to no app."""

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


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
