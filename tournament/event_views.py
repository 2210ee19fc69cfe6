"""The organizer's event pages: a new event from its format's defaults, and its settings."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms.models import model_to_dict
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament import services
from tournament.access import organizer_required
from tournament.formats import FORMATS, round_minutes_warning
from tournament.lookups import event_or_404
from tournament.models import Event
from tournament.organizer_forms import EventForm

DEFAULT_FORMAT = "championship"


@organizer_required
def event_create(request: HttpRequest) -> HttpResponse:
    """A new event, its form pre-filled with the chosen format's defaults.

    Format-default fields the organizer left untouched are not passed on, so the service
    picks the format's value; that is how ticking "international play" still gives the
    longer rounds although the form showed the ordinary length.
    """
    format_key = request.GET.get("format", DEFAULT_FORMAT)
    if format_key not in FORMATS:
        format_key = DEFAULT_FORMAT
    international = request.GET.get("international", "") in ("1", "true", "on")
    defaults = services.format_defaults(format_key=format_key, international=international)
    form = EventForm(
        request.POST or None,
        initial={**defaults, "international": international},
        fix_format=True,
    )
    if request.method == "POST" and form.is_valid():
        fields = {
            name: value
            for name, value in form.cleaned_data.items()
            if name not in defaults or name in form.changed_data
        }
        try:
            event = services.event_create(**{**fields, "format": format_key})
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, _("Event “%(name)s” created.") % {"name": event.name})
            _warn_round_minutes(request, event)
            return redirect("players:player_list", pk=event.pk)
    return render(
        request,
        "tournament/event_form.html",
        {"form": form, "format": FORMATS[format_key], "formats": FORMATS.values()},
    )


def _warn_round_minutes(request: HttpRequest, event: Event) -> None:
    warning = round_minutes_warning(event=event)
    if warning:
        messages.warning(request, warning)


@organizer_required
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change any of the event's settings; the numbers shown are the event's own."""
    event = event_or_404(pk)
    form = EventForm(
        request.POST or None, initial=model_to_dict(event, fields=services.EVENT_FIELDS)
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.event_update(event=event, **form.cleaned_data)
        except ValidationError as error:
            form.add_service_errors(error)
            event.refresh_from_db()  # the service set the rejected values on the instance
        else:
            messages.success(request, _("Event “%(name)s” saved.") % {"name": event.name})
            _warn_round_minutes(request, event)
            return redirect("players:player_list", pk=event.pk)
    return render(request, "tournament/event_form.html", {"form": form, "event": event})
