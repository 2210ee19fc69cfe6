"""The series' public pages: aliases, ranks and event names, never a registered name.

Each stays "nothing released yet" (200) until the organizer releases it on the series'
public page switches, as the event pages do (spectator's release switches).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from series import public_selectors
from series.models import Series


def _series(pk: int) -> Series:
    return get_object_or_404(Series, pk=pk)


@require_safe
def home(request: HttpRequest, series_pk: int) -> HttpResponse:
    series = _series(series_pk)
    return render(request, "series/public/home.html", {"series": series, "page": "home"})


@require_safe
def qualifiers(request: HttpRequest, series_pk: int) -> HttpResponse:
    series = _series(series_pk)
    context = {"series": series, "page": "qualifiers", "released": series.public_qualifiers}
    if series.public_qualifiers:
        context["regionals"] = public_selectors.public_qualifiers(series=series)
    return render(request, "series/public/qualifiers.html", context)


@require_safe
def entrants(request: HttpRequest, series_pk: int) -> HttpResponse:
    series = _series(series_pk)
    context = {"series": series, "page": "entrants", "released": series.public_entrants}
    if series.public_entrants:
        context["divisions"] = public_selectors.public_entrants(series=series)
    return render(request, "series/public/entrants.html", context)


@require_safe
def champion(request: HttpRequest, series_pk: int) -> HttpResponse:
    series = _series(series_pk)
    context = {"series": series, "page": "champion", "released": series.public_champion}
    if series.public_champion:
        context["champions"] = public_selectors.public_champions(series=series)
    return render(request, "series/public/champion.html", context)
