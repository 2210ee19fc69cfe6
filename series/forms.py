"""The organizer's forms on the series pages; the services do the checking that matters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from series.models import Series, SeriesEvent
from series.selectors import events_in_series, finals_event_ids
from tournament.models import Event


class SeriesForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    season = forms.CharField(label=_("Season"), max_length=40)
    finals = forms.ModelChoiceField(
        label=_("Finals event"),
        queryset=Event.objects.filter(format="championship").order_by("-date", "name"),
        required=False,
    )
    junior_finals = forms.ModelChoiceField(
        label=_("Junior finals event"),
        queryset=Event.objects.filter(format="junior").order_by("-date", "name"),
        required=False,
    )
    alternates_played_final = forms.BooleanField(
        label=_("Alternates must have played their event's final (World-style)"),
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Another series' events are not offered (series_create refuses them anyway).
        taken = events_in_series()
        for name in ("finals", "junior_finals"):
            field = cast(forms.ModelChoiceField, self.fields[name])
            assert field.queryset is not None  # declared above with one
            field.queryset = field.queryset.exclude(pk__in=taken)


class AddEventForm(forms.Form):
    event = forms.ModelChoiceField(
        label=_("Regional event"),
        queryset=Event.objects.filter(
            format__in=["championship", "junior"], series_membership__isnull=True
        ).order_by("-date", "name"),
    )
    places = forms.IntegerField(
        label=_("Qualifying places"),
        min_value=1,
        max_value=50,
        required=False,
        help_text=_("Empty: the format's (4 for a regional championship, 1 for a junior)."),
    )

    def __init__(self, *args, series: Series, **kwargs):
        super().__init__(*args, **kwargs)
        # No series' Finals, this one's or another's, is offered as a regional.
        exclude = finals_event_ids()
        field = cast(forms.ModelChoiceField, self.fields["event"])
        assert field.queryset is not None  # declared above with one
        field.queryset = field.queryset.exclude(pk__in=exclude)


class PlacesForm(forms.Form):
    places = forms.IntegerField(label=_("Qualifying places"), min_value=1, max_value=50)


class InviteForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=100)
    last_name = forms.CharField(label=_("Last name"), max_length=100)
    email = forms.EmailField(label=_("Email"), required=False)
    date_of_birth = forms.DateField(
        label=_("Date of birth"), widget=forms.DateInput(attrs={"type": "date"})
    )
    alias = forms.CharField(label=_("Alias"), max_length=60)
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("For example: last season's champion, the host's wild card."),
    )


class ReasonlessConfirmForm(forms.Form):
    confirm = forms.BooleanField(label=_("I have checked the list"), required=True)

    def __init__(self, *args, warnings: Sequence[str] = (), **kwargs):
        super().__init__(*args, **kwargs)
        if warnings:
            # Asked before going on: the organizer says they read what is short.
            self.fields["short"] = forms.BooleanField(
                label=_("Confirm anyway: I have read what is short above"), required=True
            )


class FinalsForm(forms.Form):
    """The event a division's final is played at, chosen on the series page."""

    event = forms.ModelChoiceField(
        label=_("Final's event"),
        queryset=Event.objects.none(),
        required=False,
        empty_label=_("— none chosen yet —"),
    )

    def __init__(self, *args, series: Series, division: str, **kwargs):
        super().__init__(*args, **kwargs)
        wanted = "junior" if division == "junior" else "championship"
        regional = SeriesEvent.objects.values_list("event_id", flat=True)
        cast(forms.ModelChoiceField, self.fields["event"]).queryset = (
            Event.objects.filter(format=wanted).exclude(pk__in=regional).order_by("-date", "name")
        )
        self.fields["event"].widget.attrs["id"] = f"finals-{division}"


class ReleaseForm(forms.Form):
    qualifiers = forms.BooleanField(label=_("Each regional's qualifiers"), required=False)
    entrants = forms.BooleanField(label=_("The Finals entrants"), required=False)
    champion = forms.BooleanField(label=_("The champion"), required=False)


class DeadlineForm(forms.Form):
    answers_due = forms.DateTimeField(
        label=_("Qualifiers answer by"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Their links stop working then."),
    )
    reminder_days = forms.IntegerField(
        label=_("Remind those who have not answered, days before"),
        min_value=0,
        max_value=60,
        initial=3,
        help_text=_("0: no reminder."),
    )
