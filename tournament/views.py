"""Thin views: fetch through selectors, render a template, nothing else."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from .roles import BANK, JUDGE_PERMISSION, MANAGE
from .selectors import event_list


def home(request: HttpRequest) -> HttpResponse:
    """Landing page listing the events players can look up."""
    return render(request, "tournament/home.html", {"events": event_list()})


@login_required
def signed_in(request: HttpRequest) -> HttpResponse:
    """Where a login lands: each role on its own start page, never on a 403."""
    if request.user.has_perm(MANAGE):
        return redirect("scoring:events_home")
    if request.user.has_perm(JUDGE_PERMISSION):
        return redirect("scoring:judges_desk")
    if request.user.has_perm(BANK):
        # Their tables, or a clear word that none is assigned yet.
        return redirect("scoring:banker_tables")
    return redirect("tournament:home")
