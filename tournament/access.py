"""Who may open which page.

Anonymous visitors are sent to the login page; a logged-in person without the permission
gets 403, not a login loop. Every organizer and judge view is wrapped in one of these, and
each wrapped view carries ``required_permission`` so tests/project/test_security.py can walk every
route and know what to expect.

Bankers are the one role scoped to rows, not pages: a user whose only role is banker opens
the tables where ``Table.banker`` is them and no other (judges, head judges and organizers
open any table, to help at it). Table-scoped views carry ``table_scoped = True``.

Every page behind a permission is sent ``Cache-Control: private, no-store``: they hold
registered names, emails and birth dates. Signing in, and its throttle, live in ``signin``.

Pages never decide on their own which links an official sees: ``may_open`` and
``allowed_url`` read the ``required_permission`` the decorators put on the view a link
leads to, so a link is shown exactly when its page would open (the event's tabs, the
cockpit's next step, every guarded button; ``{% allowed_url %}`` in templates).
"""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, ResolverMatch, URLResolver, get_resolver, resolve, reverse
from django.utils.cache import patch_cache_control

from tournament.models import Table
from tournament.requests import mark_view
from tournament.roles import (
    BANK,
    HEAD_JUDGE_PERMISSION,
    JUDGE_PERMISSION,
    MANAGE,
    ROLE_DOES,
    role_holding,
)


def _guarded(permission: str, view, request, *args, **kwargs) -> HttpResponse:
    """``view``'s answer for a user who holds ``permission``, 403 for anyone else.

    Kept out of the decorator's closure so it runs (and is mutation-tested) per request,
    not once when the URL modules are imported.
    """
    if not request.user.has_perm(permission):
        raise PermissionDenied
    return kept_private(view(request, *args, **kwargs))


def kept_private(response: HttpResponse) -> HttpResponse:
    """``response`` marked ``private, no-store``, whatever else its view said of caching.

    The officials' pages and downloads hold names, emails and birth dates, a table's pages
    its players' amounts: no shared proxy may keep them, and no browser should write them
    to disk. A view's own ``never_cache`` already says both; they are added, never doubled.
    """
    patch_cache_control(response, private=True, no_store=True)
    return response


# Runs once, as the URL modules are imported, before mutmut switches a mutant on: no
# mutant here could ever run (benchmarks/mutation.py). The marks it sets are held by
# tests/project/test_permissions.py; the check itself is ``_guarded``, mutated.
def _requires(permission: str):  # pragma: no mutate block
    def decorator(view):
        def wrapped(request, *args, **kwargs):
            return _guarded(permission, view, request, *args, **kwargs)

        wrapped.__name__ = view.__name__
        wrapped.__doc__ = view.__doc__
        mark_view(
            wrapped,
            required_permission=permission,
            # The mark of tournament.idempotency, so the tests can ask the view the URL calls.
            idempotent=getattr(view, "idempotent", False),
        )
        return login_required(wrapped)

    return decorator


organizer_required = _requires(MANAGE)
head_judge_required = _requires(HEAD_JUDGE_PERMISSION)
judge_required = _requires(JUDGE_PERMISSION)


# --- Bankers: their own tables -----------------------------------------------------------


def may_bank_table(*, user: Any, table: Table) -> bool:
    """Whether ``user`` (logged in) may open and act on ``table``'s banker pages.

    Judges and above may open any table; a banker only the tables assigned to them, so a
    banker's login cannot be used to read or sign another table's sheet.
    """
    if user.has_perm(JUDGE_PERMISSION):
        return True
    return user.has_perm(BANK) and table.banker_id == user.pk


def tables_banked_by(*, user: Any) -> QuerySet[Table]:
    """The tables assigned to ``user``, the latest event and round first."""
    return (
        Table.objects.filter(banker=user)
        .select_related("round__event")
        .order_by("-round__event__date", "-round__event__pk", "-round__number", "number")
    )


def not_your_table(request: HttpRequest, table: Table | None = None) -> HttpResponse:
    """403 for a banker at someone else's table: say so, and list the tables that are theirs.

    Logged-in people without the banker role get the same page; it lists nothing for them.
    """
    return render(
        request,
        "banker/not_your_table.html",
        {"table": table, "tables": list(tables_banked_by(user=request.user)[:20])},
        status=403,
    )


def acting_user(request: HttpRequest) -> Any:
    """Who to record as having done something: the logged-in user, or None for a tablet
    acting on a table card's private link (it has no account)."""
    return request.user if request.user.is_authenticated else None


# --- Which links to show: the views' own checks, asked before drawing the link -----------


def _match(path: str) -> ResolverMatch | None:
    try:
        return resolve(urlsplit(path).path)
    except Resolver404:
        return None


@functools.lru_cache(maxsize=4)
def _permissions_by_name(resolver: URLResolver) -> dict[str, str | None]:
    found: dict[str, str | None] = {}

    def walk(inner: URLResolver, namespace: str) -> None:
        for entry in inner.url_patterns:
            if isinstance(entry, URLResolver):
                walk(entry, ":".join(part for part in (namespace, entry.namespace) if part))
            elif entry.name:
                name = f"{namespace}:{entry.name}" if namespace else entry.name
                found.setdefault(name, getattr(entry.callback, "required_permission", None))

    walk(resolver, "")
    return found


def view_permission(url_name: str) -> str | None:
    """The permission the view named ``url_name`` checks (None for a public or logged-in
    page): for a step that is a form's post, whose address needs more than the event."""
    return _permissions_by_name(get_resolver()).get(url_name)


def who_does(url_name: str) -> str:
    """Who takes the step behind ``url_name``, in a sentence ("The organizer does this."),
    for an official who may not: "" when no role is needed."""
    permission = view_permission(url_name)
    role = role_holding(permission) if permission else None
    return str(ROLE_DOES.get(role, "")) if role else ""


def may_open(request: HttpRequest, path: str) -> bool:
    """Whether ``path`` opens for this request rather than refusing it: the check the view's
    access decorator makes, asked before the link is drawn.

    A table's banker pages ask what ``banker.access.banker_required`` asks (the table
    card's link, the table's banker, a judge); a page behind a login does not open without
    one (a tablet holding only a table card's link); an address that resolves to no page
    never opens.
    """
    match = _match(path)
    if match is None:
        return False
    view = match.func
    # A table's pages carry their own check (``banker.access.banker_required``).
    opens_for = getattr(view, "opens_for", None)
    if opens_for is not None:
        return opens_for(request, match.kwargs)
    # Django's login_required leaves ``login_url`` on the view it wraps (for its
    # LoginRequiredMiddleware): a tablet without a login would be sent to log in.
    if hasattr(view, "login_url") and not request.user.is_authenticated:
        return False
    permission = getattr(view, "required_permission", None)
    return permission is None or request.user.has_perm(permission)


def allowed_url(request: HttpRequest, url_name: str, /, **kwargs: Any) -> str:
    """The address of ``url_name`` if it opens for this request, else "" (draw no link)."""
    url = reverse(url_name, kwargs=kwargs)
    return url if may_open(request, url) else ""
