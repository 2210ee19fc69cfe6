"""The banker's way back, in the header of every page: "My tables" (``{% banker_home %}``).

A banker with an account goes back to ``/bank/``, the list of their tables. A tablet that
opened a table card's private link has no account and no list: its link goes back to that
table's page (the clock, game over, the way to the score sheet). Anyone else sees nothing.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from banker.access import granted_table
from tournament.models import Table
from tournament.roles import BANK

register = template.Library()


def _banks_a_table(user: Any) -> bool:
    """A banker by role, or an official given a table to bank (the final's, say)."""
    return user.has_perm(BANK) or Table.objects.filter(banker=user).exists()


@register.inclusion_tag("banker/_home_link.html", takes_context=True)
def banker_home(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    if request is None:
        return {}
    path = request.path
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        if not _banks_a_table(user):
            return {}
        url = reverse("banker:banker_tables")
        return {"url": url, "label": _("My tables"), "current": path == url}
    table = granted_table(request)
    if table is None:
        return {}
    url = reverse("banker:banker_table", kwargs={"table_pk": table.pk})
    return {"url": url, "label": _("My table"), "current": path == url}
