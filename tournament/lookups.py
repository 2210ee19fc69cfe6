"""The 404-raising lookups every page that takes an event or round from its URL shares.

Selectors return querysets and raise model errors; pages turn a missing event or round
into a 404, the same way everywhere.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from .models import Event, Round
from .selectors import event_list, round_get


def event_or_404(pk: int) -> Event:
    return get_object_or_404(event_list(), pk=pk)


def round_or_404(event: Event, number: int) -> Round:
    try:
        return round_get(event=event, number=number)
    except Round.DoesNotExist as exc:
        raise Http404(_("This event has no such round.")) from exc
