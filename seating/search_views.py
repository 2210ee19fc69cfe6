"""The seating page's long search: start it, watch its best and bound, stop it.

A panel of its own (``templates/seating/_search.html``), loaded into the seating
page by htmx and refreshing itself while the job runs; without JavaScript the same panel is
a page of its own. Starting and stopping are POSTs answered with a redirect to the panel.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from seating.draw import DRAW_SEED_LIMIT, draw_seed_or_new
from seating.search import MAX_SECONDS, MIN_SECONDS, search_latest, search_stop, search_submit
from tournament.access import organizer_required
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404
from tournament.requests import HtmxHttpRequest


class SearchForm(forms.Form):
    seconds = forms.IntegerField(
        label=gettext_lazy("Search for (seconds)"),
        min_value=MIN_SECONDS,
        max_value=MAX_SECONDS,
        initial=60,
    )
    include_unchecked = forms.BooleanField(
        label=gettext_lazy("Include players not checked in"), required=False
    )
    seed = forms.IntegerField(
        label=gettext_lazy("Seed (optional)"),
        required=False,
        min_value=0,
        max_value=DRAW_SEED_LIMIT,
    )


def _panel(event_pk: int) -> HttpResponse:
    return redirect("seating:seating_search", pk=event_pk)


@organizer_required
def seating_search(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The latest long search: its best repeats, the bound, and Stop while it runs."""
    event = event_or_404(pk)
    context = {"event": event, "search": search_latest(event=event), "form": SearchForm()}
    if request.htmx:
        return render(request, "seating/_search_panel.html", context)
    return render(request, "seating/search.html", context)


@organizer_required
@require_POST
@official_idempotent
def seating_search_start(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_or_404(pk)
    form = SearchForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _("Search between %(low)s and %(high)s seconds, with a seed of 0 or more.")
            % {"low": MIN_SECONDS, "high": MAX_SECONDS},
        )
        return _panel(event.pk)
    try:
        search_submit(
            event=event,
            only_checked_in=not form.cleaned_data["include_unchecked"],
            seed=draw_seed_or_new(form.cleaned_data["seed"]),
            seconds=form.cleaned_data["seconds"],
            user=request.user,
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return _panel(event.pk)


@organizer_required
@require_POST
@official_idempotent
def seating_search_stop(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_or_404(pk)
    state = search_latest(event=event)
    if state is not None:
        search_stop(job=state.job)
    return _panel(event.pk)
