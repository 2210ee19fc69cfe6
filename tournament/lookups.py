"""The 404-raising lookups every page that takes an event, round or table from its URL shares.

Selectors return querysets and raise model errors; pages turn a missing event, round or table
into a 404, the same way everywhere.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournament.models import Event, Round, Table
from tournament.selectors import event_list, round_get, table_get


def event_or_404(pk: int) -> Event:
    return get_object_or_404(event_list(), pk=pk)


def round_or_404(event: Event, number: int) -> Round:
    try:
        return round_get(event=event, number=number)
    except Round.DoesNotExist as exc:
        raise Http404(_("This event has no such round.")) from exc


def table_or_404(pk: int) -> Table:
    """A table with its round, event and wave, as the banker's and clock pages need it."""
    try:
        return table_get(pk=pk)
    except Table.DoesNotExist as exc:
        raise Http404(_("No such table.")) from exc
