"""Thin views: fetch through selectors, render a template, nothing else."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tournament.roles import BANK, JUDGE_PERMISSION, MANAGE
from tournament.selectors import event_list


def home(request: HttpRequest) -> HttpResponse:
    """Landing page listing the events players can look up."""
    return render(request, "tournament/home.html", {"events": event_list()})


@login_required
def signed_in(request: HttpRequest) -> HttpResponse:
    """Where a login lands: each role on its own start page, never on a 403."""
    if request.user.has_perm(MANAGE):
        return redirect("cockpit:events_home")
    if request.user.has_perm(JUDGE_PERMISSION):
        return redirect("cockpit:judges_desk")
    if request.user.has_perm(BANK):
        # Their tables, or a clear word that none is assigned yet.
        return redirect("banker:banker_tables")
    return redirect("tournament:home")
