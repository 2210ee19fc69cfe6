"""Views of "Judge, please": the banker's call from the tablet, a judge taking and closing it.

Championship Rules, JUDGING: "If a judge is required the contestant must flag this to the Banker who
will raise their arm". The banker's call is a banker write: idempotent (the tablet's offline queue
replays it once) and listed in ``static/js/tablet.js``'s ``WRITES``.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from cockpit import judge_call_services as services
from cockpit.judge_call_selectors import judge_calls_waiting
from tournament.access import judge_required
from tournament.idempotency import official_idempotent
from tournament.models import Event, JudgeCall
from tournament.pages import same_site_path
from tournament.requests import AuthenticatedHttpRequest


class RulingForm(forms.Form):
    ruling = forms.CharField(
        label=gettext_lazy("Ruling (optional)"),
        required=False,
        max_length=services.RULING_MAX,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


def _back(request: HttpRequest) -> HttpResponse:
    """To the page the judge acted from (the desk or the clock page), never off the site."""
    target = same_site_path(request, request.POST.get("next", ""))
    if target:
        return HttpResponseRedirect(target)
    return redirect("cockpit:judges_desk")


def _call(pk: int, call_pk: int) -> JudgeCall:
    return get_object_or_404(
        JudgeCall.objects.select_related("table__round__event"),
        pk=call_pk,
        table__round__event_id=pk,
    )


@judge_required
@require_GET
def judge_calls_panel(request: HttpRequest) -> HttpResponse:
    """The waiting calls alone, which the desk and the clock page fetch every few seconds so
    the minutes waited stay true (``?event=`` one event's; ``?back=`` where forms return)."""
    raw = request.GET.get("event", "")
    event = None
    if raw:
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
            raise Http404(_("No such event."))
        event = get_object_or_404(Event, pk=raw)
    back = request.GET.get("back", "")
    return render(
        request,
        "cockpit/judge_calls/_waiting.html",
        {
            "calls": judge_calls_waiting(event=event),
            "event_filter": event,
            "back": back if back.startswith("/") else "",
            "show_event": event is None,
            "poll_seconds": settings.BOARDWALK_LIVE_POLL_SECONDS,
        },
    )


@judge_required
@require_POST
@official_idempotent
def judge_call_take(request: AuthenticatedHttpRequest, pk: int, call_pk: int) -> HttpResponse:
    """ "On my way": the table sees that a judge is coming, the others that it is taken."""
    call = _call(pk, call_pk)
    try:
        services.judge_call_take(call=call, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(table)s: you are on your way.") % {"table": call.table})
    return _back(request)


@judge_required
@require_POST
@official_idempotent
def judge_call_close(request: AuthenticatedHttpRequest, pk: int, call_pk: int) -> HttpResponse:
    """The judge is done at the table; the ruling stays on the table's record."""
    call = _call(pk, call_pk)
    form = RulingForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(m) for ms in form.errors.values() for m in ms))
        return _back(request)
    try:
        services.judge_call_close(call=call, by=request.user, ruling=form.cleaned_data["ruling"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(table)s: call closed.") % {"table": call.table})
    return _back(request)
