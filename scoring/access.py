"""Who may open a table's score sheet: the table card's private link, kept in the session.

The link stores that one table (and its key) in the session, and every request checks the
key is still in force, so revoking a link takes effect on the tablet's next tap. The grant
is lent to ``tournament.access.banker_required`` at start-up (``scoring/apps.py``), so the
tablet opens every banker page of its table, the tournament app's clock page included.
"""

from __future__ import annotations

import functools
from typing import Any

from django.http import HttpRequest, HttpResponse

from tournament.access import banker_required
from tournament.lookups import table_or_404
from tournament.models import Table

from .selectors import banker_link_table

_SESSION_GRANT = "banker_link"


def link_grants(request: HttpRequest, table: Table) -> bool:
    """Whether this tablet holds the table's private link, and the link is still in force."""
    grant = request.session.get(_SESSION_GRANT)
    if not isinstance(grant, dict) or grant.get("table") != table.pk:
        return False
    granted = banker_link_table(key=str(grant.get("key", "")))
    if granted is None or granted.pk != table.pk:
        link_grant_drop(request)
        return False
    return True


def granted_table(request: HttpRequest) -> Table | None:
    """The table this tablet's private link opens, while the link is in force."""
    grant = request.session.get(_SESSION_GRANT) if hasattr(request, "session") else None
    if not isinstance(grant, dict):
        return None
    table = banker_link_table(key=str(grant.get("key", "")))
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
