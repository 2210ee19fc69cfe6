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
from django.views.decorators.http import require_GET

from tournament.access import judge_required, may_open, view_permission, who_does
from tournament.lookups import event_or_404

from .cockpit import Action, cockpit_plan
from .cockpit_selectors import day_needs, event_facts


def action_url(*, action: Action, event_pk: int) -> str:
    kwargs: dict[str, int] = {"pk": event_pk}
    if action.round_number is not None:
        kwargs["round_number"] = action.round_number
    url = reverse(action.url_name, kwargs=kwargs)
    return f"{url}#{action.anchor}" if action.anchor else url


def _next_step(request: HttpRequest, action: Action | None, event_pk: int) -> dict:
    """The next action's button and its companions, for this official.

    The button opens the first of the action's pages (its own, then its ``also``) this
    official may open: a judge asked to mark the no-shows goes to the check-in desk, whose
    rows mark them. When none opens, or the step is a form this official may not send
    (``act``), the action is named, with who takes it, and not linked.
    """
    if action is None:
        return {"next_url": "", "also": [], "next_who": ""}
    pages = [(a.label, action_url(action=a, event_pk=event_pk)) for a in (action, *action.also)]
    opens = [(label, url) for label, url in pages if may_open(request, url)]
    act_permission = view_permission(action.act) if action.act else None
    if not opens or (act_permission and not request.user.has_perm(act_permission)):
        return {"next_url": "", "also": [], "next_who": who_does(action.act or action.url_name)}
    return {"next_url": opens[0][1], "also": opens[1:], "next_who": ""}


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
        "scoring/cockpit.html",
        {
            "steps": steps,
            "event": event,
            "plan": plan,
            **_next_step(request, plan.next_action, event.pk),
            "needs": day_needs(event=event),
            "facts": facts,
        },
    )
