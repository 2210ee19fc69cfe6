"""Site-wide views that belong to no app."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@require_safe
@never_cache
def health(request: HttpRequest) -> HttpResponse:
    """Answer "ok" for load balancers and uptime checks, touching neither database nor cache.

    A health check that queried the database would take every server out of rotation when
    PostgreSQL hiccups, which turns a slow database into a full outage; "the process is up
    and serving Django" is what a balancer needs to know. It also serves as the load
    bench's baseline: the cheapest request the full middleware stack can answer.
    never_cache stops a proxy from answering for a server that has gone away.
    """
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")
