"""The event cockpit: one page for the whole day, its next action as the primary button.

Thin: ``cockpit_selectors`` reads the day's facts and needs, ``cockpit.cockpit_plan``
decides; this view reverses the next action's address and renders.

The plan is the same for every official; what each is shown to click is not: a page the
signed-in official may not open (``tournament.access.may_open``) is named, with who takes
that step, but never linked.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from cockpit.events_home import events_by_day
from cockpit.plan import Action, cockpit_plan
from cockpit.selectors import day_needs, event_facts
from tournament.access import (
    judge_required,
    may_open,
    organizer_required,
    view_permission,
    who_does,
)
from tournament.formats import FORMATS
from tournament.lookups import event_or_404
from tournament.qr import qr_svg


def action_url(*, action: Action, event_pk: int) -> str:
    kwargs: dict[str, int] = {"pk": event_pk}
    if action.round_number is not None:
        kwargs["round_number"] = action.round_number
    url = reverse(action.url_name, kwargs=kwargs)
    return f"{url}#{action.anchor}" if action.anchor else url


def _next_step(request: HttpRequest, action: Action | None, event_pk: int) -> dict:
    """The next action's button and the pages beside it, for this official.

    The action is a button when its page opens for this official and they may send the
    form that takes the step (``act``). Otherwise it is named, not linked, with who takes
    it unless this official may (a judge marks no-shows at the desk, not on the players
    page); the pages beside it that open stay buttons (the desk, the clock).
    """
    if action is None:
        return {"next_url": "", "also": [], "next_who": ""}
    url = action_url(action=action, event_pk=event_pk)
    also = [(a.label, action_url(action=a, event_pk=event_pk)) for a in action.also]
    also = [(label, address) for label, address in also if may_open(request, address)]
    opens = may_open(request, url)
    act_permission = view_permission(action.act) if action.act else None
    may_act = act_permission is None or request.user.has_perm(act_permission)
    if opens and may_act:
        return {"next_url": url, "also": also, "next_who": ""}
    takes_it = may_act if action.act else opens
    who = "" if takes_it else who_does(action.act or action.url_name)
    return {"next_url": "", "also": also, "next_who": who}


@judge_required
@require_GET
def cockpit(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_or_404(pk)
    facts = event_facts(event=event)
    plan = cockpit_plan(facts)
    steps = []
    for step in plan.steps:
        url = action_url(action=step.page, event_pk=event.pk) if step.page else ""
        steps.append((step, url if url and may_open(request, url) else ""))
    return render(
        request,
        "cockpit/cockpit.html",
        {
            "steps": steps,
            "event": event,
            "plan": plan,
            **_next_step(request, plan.next_action, event.pk),
            "needs": day_needs(event=event),
            "facts": facts,
            **_public_addresses(request, event.pk),
        },
    )


def _public_addresses(request: HttpRequest, pk: int) -> dict:
    """The public event home and the hall display as full addresses (to type into a
    projector's browser or read out), and the home's QR code for the spectators' phones."""
    public_url = request.build_absolute_uri(reverse("spectator:event_home", kwargs={"pk": pk}))
    hall_url = request.build_absolute_uri(reverse("spectator:hall_display", kwargs={"pk": pk}))
    return {"public_url": public_url, "hall_url": hall_url, "public_qr": qr_svg(public_url)}


@organizer_required
@require_GET
def events_home(request: HttpRequest) -> HttpResponse:
    """The organizer's start page: a new event, and each event as one row with where its
    day stands and its cockpit (which links every other page of the event)."""
    return render(
        request,
        "cockpit/events_home.html",
        {
            "days": events_by_day(all_past=request.GET.get("past") == "all"),
            "formats": FORMATS.values(),
        },
    )


@judge_required
@require_GET
def judges_desk(request: HttpRequest) -> HttpResponse:
    """Judges cannot open the organizer's start page; this one lists today's events first
    with the desk, the rounds and the clock one tap away, and folds the past ones."""
    return render(
        request,
        "cockpit/judges_desk.html",
        {
            "days": events_by_day(all_past=request.GET.get("past") == "all"),
            "today": timezone.localdate(),
        },
    )
