"""A round's start: the head judge sees the empty seats and the alternates, chooses what
becomes of the seats, and may call the official start. Thin views over
``vacancy_selectors`` and ``vacancy_services``; every change is a POST answered with a
redirect back to the page, which says what was done and what comes next."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from seating import vacancy_services
from seating.vacancy_selectors import round_start_page
from seating.views import _vacancy_messages
from tournament.access import head_judge_required
from tournament.idempotency import official_idempotent
from tournament.lookups import event_or_404, round_or_404
from tournament.models import Round, Wave


def _back(round_: Round) -> HttpResponseRedirect:
    return redirect("seating:seating_vacancies", pk=round_.event_id, round_number=round_.number)


@head_judge_required
@require_GET
def seating_vacancies(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """The round's start page: its waves' official start, its empty seats, the alternates
    in order and the three choices."""
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    return render(
        request,
        "seating/vacancies.html",
        {"event": event, "round": round_, "page": round_start_page(round_=round_)},
    )


@head_judge_required
@require_POST
@official_idempotent
def seating_vacancies_decide(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    choice = request.POST.get("choice", "")
    try:
        result = vacancy_services.round_vacancies_decide(round_=round_, choice=choice)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return _back(round_)
    done = {
        "fill": _("The alternates took the empty seats in their order."),
        "leave": _("The empty seats are gone: those tables play short."),
        "rebalance": _("The empty seats are gone and the tables are rebalanced."),
    }[choice]
    messages.success(request, done)
    _vacancy_messages(request, result)
    return _back(round_)


@head_judge_required
@require_POST
@official_idempotent
def seating_call_start(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    event = event_or_404(pk)
    round_ = round_or_404(event, round_number)
    number = request.POST.get("wave", "")
    if not (number.isascii() and number.isdigit() and len(number) <= 4):
        messages.error(request, _("Choose a wave."))
        return _back(round_)
    wave = get_object_or_404(Wave, round=round_, number=int(number))
    try:
        start = vacancy_services.wave_call_start(wave=wave)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("Wave %(wave)s officially started at %(time)s: no-shows can be marked now.")
            % {
                "wave": wave.number,
                "time": formats.time_format(timezone.localtime(start), "TIME_FORMAT"),
            },
        )
    return _back(round_)
