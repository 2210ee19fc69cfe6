"""Thin views: fetch through selectors, render a template, nothing else."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from .roles import JUDGE_PERMISSION, MANAGE
from .selectors import event_list
from .services import registration_is_open


def home(request: HttpRequest) -> HttpResponse:
    """Landing page listing the events players can look up."""
    return render(request, "tournament/home.html", {"events": event_list()})


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One event's practical details; 404 when it does not exist."""
    event = get_object_or_404(event_list(), pk=pk)
    return render(
        request,
        "tournament/event_detail.html",
        {"event": event, "registration_open": registration_is_open(event=event)},
    )


@login_required
def signed_in(request: HttpRequest) -> HttpResponse:
    """Where a login lands: each role on its own start page, never on a 403."""
    if request.user.has_perm(MANAGE):
        return redirect("tournament:organizer_dashboard")
    if request.user.has_perm(JUDGE_PERMISSION):
        return redirect("tournament:judge_dashboard")
    return redirect("tournament:home")
