"""The event cockpit: one page for the whole day, its next action as the primary button.

Thin: ``cockpit_selectors`` reads the day's facts and needs, ``cockpit.cockpit_plan``
decides; this view reverses the next action's address and renders.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from tournament.access import judge_required
from tournament.lookups import event_or_404
from tournament.qr import qr_svg

from .cockpit import Action, cockpit_plan
from .cockpit_selectors import day_needs, event_facts


def action_url(*, action: Action, event_pk: int) -> str:
    kwargs: dict[str, int] = {"pk": event_pk}
    if action.round_number is not None:
        kwargs["round_number"] = action.round_number
    url = reverse(action.url_name, kwargs=kwargs)
    return f"{url}#{action.anchor}" if action.anchor else url


@judge_required
@require_GET
def cockpit(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_or_404(pk)
    facts = event_facts(event=event)
    plan = cockpit_plan(facts)
    action = plan.next_action
    next_url = action_url(action=action, event_pk=event.pk) if action else ""
    also = [
        (other.label, action_url(action=other, event_pk=event.pk))
        for other in (action.also if action else ())
    ]
    steps = [
        (step, action_url(action=step.page, event_pk=event.pk) if step.page else "")
        for step in plan.steps
    ]
    return render(
        request,
        "scoring/cockpit.html",
        {
            "steps": steps,
            "event": event,
            "plan": plan,
            "next_url": next_url,
            "also": also,
            "needs": day_needs(event=event),
            "facts": facts,
            **_public_addresses(request, event.pk),
        },
    )


def _public_addresses(request: HttpRequest, pk: int) -> dict:
    """The public event home and the hall display as full addresses (to type into a
    projector's browser or read out), and the home's QR code for the spectators' phones."""
    public_url = request.build_absolute_uri(reverse("spectator:event_home", kwargs={"pk": pk}))
    hall_url = request.build_absolute_uri(reverse("tournament:hall_display", kwargs={"pk": pk}))
    return {"public_url": public_url, "hall_url": hall_url, "public_qr": qr_svg(public_url)}
