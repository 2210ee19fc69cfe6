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
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

from .models import Table
from .roles import BANK, HEAD_JUDGE_PERMISSION, JUDGE_PERMISSION, MANAGE


def _requires(permission: str):
    def decorator(view):
        def wrapped(request, *args, **kwargs):
            if not request.user.has_perm(permission):
                raise PermissionDenied
            response = view(request, *args, **kwargs)
            # The officials' pages and downloads hold names, emails and birth dates: no
            # shared proxy may keep them, and no browser should write them to disk.
            if not response.has_header("Cache-Control"):
                patch_cache_control(response, private=True, no_store=True)
            return response

        wrapped.__name__ = view.__name__
        wrapped.__doc__ = view.__doc__
        wrapped.required_permission = permission
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
        "scoring/banker/not_your_table.html",
        {"table": table, "tables": list(tables_banked_by(user=request.user)[:20])},
        status=403,
    )


# Other apps may vouch for a tablet that has no login: scoring registers the table card's
# private link here (scoring/apps.py), because the link's model lives in scoring and this
# module must not import it.
_TABLE_GRANTS: list[Callable[[HttpRequest, Table], bool]] = []


def table_grant_register(check: Callable[[HttpRequest, Table], bool]) -> None:
    """Add a check that lets a request act at one table without a banker's login."""
    if check not in _TABLE_GRANTS:
        _TABLE_GRANTS.append(check)


def acting_user(request: HttpRequest) -> Any:
    """Who to record as having done something: the logged-in user, or None for a tablet
    acting on a table card's private link (it has no account)."""
    return request.user if request.user.is_authenticated else None


def banker_required(view):
    """The tablet holding this table's private link, the logged-in banker of this table
    (``table_pk``), or a judge or above; no one else.

    The link-holding tablet gets every banker page of its table (the clock, the last turn,
    game over, the score sheet), as a banker who logged in would. Anonymous visitors go to
    the login page; a banker of another table gets the 403 page that lists their own tables.
    """

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        table = Table.objects.filter(pk=kwargs.get("table_pk")).first()
        if table is None:
            raise Http404(_("No such table."))
        if not any(check(request, table) for check in _TABLE_GRANTS):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not (request.user.has_perm(BANK) or request.user.has_perm(JUDGE_PERMISSION)):
                raise PermissionDenied
            if not may_bank_table(user=request.user, table=table):
                return not_your_table(request, table)
        return view(request, *args, **kwargs)

    wrapped.required_permission = BANK
    wrapped.table_scoped = True
    wrapped.private_link = True
    return wrapped
