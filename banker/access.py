"""Who may open a table's score sheet: the table card's private link, kept in the session.

The link stores that one table (and its key) in the session, and every request checks the
key is still in force, so revoking a link takes effect on the tablet's next tap. The tablet
holding it opens every banker page of its table (``banker_required``), the clock included.
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from scoring.selectors import banker_link_table
from tournament.access import BANK, kept_private, may_bank_table, not_your_table
from tournament.lookups import table_or_404
from tournament.models import Table
from tournament.requests import mark_view

_SESSION_GRANT = "banker_link"


def link_grants(request: HttpRequest, table: Table) -> bool:
    """Whether this tablet holds the table's private link, and the link is still in force.

    A link revoked or replaced since is forgotten here, so the tablet is asked for the new one.
    """
    grant = request.session.get(_SESSION_GRANT)
    if not isinstance(grant, dict) or grant.get("table") != table.pk:
        return False
    if granted_table(request) != table:
        link_grant_drop(request)
        return False
    return True


def _table_opens(request: HttpRequest, table: Table) -> bool:
    """The tablet holds the table's link, or the signed-in person may bank the table."""
    if link_grants(request, table):
        return True
    return request.user.is_authenticated and may_bank_table(user=request.user, table=table)


def holds_table(request: HttpRequest, table: Table) -> bool:
    """The tablet holds the table's private link, or is signed in as the table's banker.

    Narrower than ``banker_required``, which also lets judges in to help: what only the
    table's own tablet may say (its heartbeat) asks this.
    """
    if link_grants(request, table):
        return True
    return request.user.is_authenticated and table.banker_id == request.user.pk


# Runs once, as the URL modules are imported, before mutmut switches a mutant on: no
# mutant here could ever run (benchmarks/mutation.py). Its marks are held by
# tests/project/test_permissions.py; the check itself is ``_at_table``, mutated.
def banker_required(view):  # pragma: no mutate block
    """The tablet holding this table's private link, the logged-in banker of this table
    (``table_pk``), or a judge or above; no one else.

    The link-holding tablet gets every banker page of its table (the clock, the last turn,
    game over, the score sheet), as a banker who logged in would. Anonymous visitors go to
    the login page; a banker of another table gets the 403 page that lists their own tables.
    """

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return _at_table(view, request, *args, **kwargs)

    # opens_for: what ``tournament.access.may_open`` asks before it draws a link to this page.
    mark_view(
        wrapped,
        required_permission=BANK,
        table_scoped=True,
        opens_for=_opens_for,
        private_link=True,
    )
    return wrapped


def _at_table(view, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """``banker_required``'s check and answer, per request (kept out of its closure so it is
    not run once at import, where mutation testing cannot reach it)."""
    table = table_or_404(kwargs["table_pk"])
    if not _table_opens(request, table):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        # A judge opens every table; of the rest, only a banker is told which are theirs.
        if not request.user.has_perm(BANK):
            raise PermissionDenied
        return not_your_table(request, table)
    # The tablet's service worker keeps its own copy of a table's pages, which signing out
    # clears; no shared proxy or browser cache keeps one.
    return kept_private(view(request, *args, **kwargs))


def _opens_for(request: HttpRequest, kwargs: dict[str, Any]) -> bool:
    """Whether a table's banker page (its ``table_pk`` in ``kwargs``) opens for ``request``."""
    table = Table.objects.filter(pk=kwargs["table_pk"]).first()
    return table is not None and _table_opens(request, table)


def granted_table(request: HttpRequest) -> Table | None:
    """The table this tablet's private link opens, while the link is in force."""
    grant = request.session.get(_SESSION_GRANT) if hasattr(request, "session") else None
    if not isinstance(grant, dict) or "key" not in grant:
        return None
    table = banker_link_table(key=str(grant["key"]))
    return table if table is not None and table.pk == grant.get("table") else None


def sheet_access(view):
    """``banker_required`` (the link-holding tablet, the table's banker, or a judge), with
    the table looked up once and handed to the view."""

    @banker_required
    @functools.wraps(view)
    def wrapped(request: HttpRequest, table_pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        return view(request, table_or_404(table_pk), *args, **kwargs)

    return wrapped


def link_grant(request: HttpRequest, *, table: Table, key: str) -> None:
    """This tablet now holds ``table``'s link; it replaces any table granted before."""
    request.session[_SESSION_GRANT] = {"table": table.pk, "key": key}


def link_grant_drop(request: HttpRequest) -> None:
    request.session.pop(_SESSION_GRANT, None)
