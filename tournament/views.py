"""Thin views: fetch through selectors, render a template, nothing else."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from .selectors import event_list


def home(request: HttpRequest) -> HttpResponse:
    """Landing page listing the events players can look up."""
    return render(request, "tournament/home.html", {"events": event_list()})


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One event's practical details; 404 when it does not exist."""
    event = get_object_or_404(event_list(), pk=pk)
    return render(request, "tournament/event_detail.html", {"event": event})
