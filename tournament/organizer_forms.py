"""Forms for the organizer's pages: they parse and display input; services decide.

The event form borrows its fields (labels, help texts, choices, limits) from the model so
it never drifts from it, but it is a plain ``Form``: ``event_create``/``event_update`` do
the validating and saving, and their ``ValidationError`` is mapped back onto the fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.core.exceptions import ValidationError
from django.forms.models import fields_for_model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from mail.services import mail_unavailable
from tournament.models import Event
from tournament.services import EVENT_FIELDS, event_rule_errors

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# Browser-native pickers: a tablet shows its own date and time wheels for these.
_DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
_TIME = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
_DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")

EVENT_WIDGETS: dict[str, forms.Widget | type[forms.Widget]] = {
    "forms_return_address": forms.Textarea(attrs={"rows": 3}),
    "players_note": forms.Textarea(attrs={"rows": 3}),
    "date": _DATE,
    "start_time": _TIME,
    "registration_opens": _DATETIME,
    "registration_closes": _DATETIME,
}

# The form is long; grouped, an organizer finds "minimum age" without scrolling past
# the charity details.
EVENT_FIELDSETS: list[tuple[StrOrPromise, tuple[str, ...]]] = [
    (
        _("The event"),
        (
            "name",
            "organization",
            "venue",
            "address",
            "city",
            "state",
            "postal_code",
            "date",
            "start_time",
            "edition",
            "paper_size",
            "language",
        ),
    ),
    (
        _("Contact & charity"),
        (
            "contact_name",
            "contact_title",
            "contact_email",
            "contact_phone",
            "contact_fax",
            "charity",
            "money_raised",
        ),
    ),
    (
        _("Where the signed forms go"),
        ("forms_return_name", "forms_return_address", "forms_return_fax"),
    ),
    (
        _("Format & play"),
        (
            "format",
            "international",
            "same_language_tables",
            "round_minutes",
            "preliminary_rounds",
            "advancing",
            "ends_with_qualifiers",
            "alternates",
            "expected_players",
            "table_size_min",
            "table_size_max",
            "tables_per_wave",
            "judge_approves_sheets",
        ),
    ),
    (
        _("Registration"),
        (
            "minimum_age",
            "maximum_age",
            "guardian_consent_under",
            "travel_flag_under",
            "citizenship_declaration",
            "registration_opens",
            "registration_closes",
            "on_the_day_registration",
        ),
    ),
    # Said in every registration's confirmation email (players/registration_mail.py).
    (_("Confirmation emails"), ("arrival_minutes", "players_note")),
]


# What a format does not use: kept at the format's value in a hidden field, not asked. A
# knockout's rounds come from its bracket and its final seats six (Tournament Kit); a junior event
# is one game with one winner (Championship Rules); only a championship regional ends with
# qualifiers.
NOT_ASKED: dict[str, tuple[str, ...]] = {
    "club": ("preliminary_rounds", "advancing", "ends_with_qualifiers"),
    "junior": ("preliminary_rounds", "advancing", "ends_with_qualifiers"),
}
# Asked under "More settings": rarely changed from what the format or the kit gives.
MORE_SETTINGS = (
    "contact_title",
    "contact_fax",
    "forms_return_fax",
    "paper_size",
    "same_language_tables",
    "tables_per_wave",
    "minimum_age",
    "maximum_age",
    "guardian_consent_under",
    "travel_flag_under",
    "registration_opens",
)
# The kit's charity lines are a club's; a championship may still fill them in.
MORE_BY_FORMAT: dict[str, tuple[str, ...]] = {
    "championship": ("charity", "money_raised"),
    "junior": ("charity", "money_raised"),
}


# The kit's forms end "Please return to:" with Hasbro's 1990s address; ours print whoever
# the organizer names here (Tournament Kit, EVENT REGISTRATION FORM), or no return block at all.
PRINTED_HELP = {
    "address": _(
        "Street and number. The Event Registration Form prints it with the city and "
        "state below, on lines of their own."
    ),
    "forms_return_name": _(
        "Who receives the signed Event Registration, Participant Registration and Winner "
        "Notification forms: your club, a sponsor or a national federation. Printed under "
        "“Please return to” on those forms; left empty, they print without it."
    ),
    "forms_return_address": _("Their postal address, one line per line of the envelope."),
    "forms_return_fax": _("Printed as “or Fax:” after the address; may stay empty."),
}


class EventForm(forms.Form):
    """Every field in ``services.EVENT_FIELDS``, grouped into fieldsets for display.

    Its ``clean`` runs the service's checks across fields on whatever parsed, so every
    error shows in one pass (the page turns off the browser's one-at-a-time checks), and
    refuses a date in the past when the date is being set.
    """

    required_css_class = "required"

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        for field, messages in event_rule_errors(cleaned).items():
            if field not in self.errors:
                for message in messages:
                    self.add_error(field, message)
        date = cleaned.get("date")
        if date and "date" in self.changed_data and date < timezone.localdate():
            self.add_error("date", _("This date is in the past."))
        return cleaned

    def __init__(self, *args, fix_format: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if fix_format:
            # On creation the format was chosen on the dashboard and the defaults shown
            # come from it; changing it here would leave the other format's numbers.
            self.fields["format"].disabled = True
        self.fields["round_minutes"].help_text = _(
            "Left at the format's length, international play gets the international length."
        )
        for name, help_text in PRINTED_HELP.items():
            self.fields[name].help_text = help_text
        # Shown with the confirmation emails' fields: why none is sent, when none is.
        self.mail_note = mail_unavailable()

    @property
    def format_key(self) -> str:
        return str(self.data.get("format") or self.initial.get("format") or "")

    def _not_asked(self) -> tuple[str, ...]:
        return NOT_ASKED.get(self.format_key, ())

    def _more(self) -> tuple[str, ...]:
        return MORE_SETTINGS + MORE_BY_FORMAT.get(self.format_key, ())

    @property
    def fieldsets(self) -> list[tuple[StrOrPromise, list[forms.BoundField]]]:
        """The fieldsets with what this format asks, leaving out what goes under "More
        settings" and what the format does not use (each fieldset keeps its order)."""
        left_out = set(self._not_asked()) | set(self._more())
        sets = [
            (legend, [self[name] for name in names if name not in left_out])
            for legend, names in EVENT_FIELDSETS
        ]
        return [(legend, fields) for legend, fields in sets if fields]

    @property
    def more_fields(self) -> list[forms.BoundField]:
        """Asked under "More settings", folded; opened when one of them has an error."""
        return [self[name] for name in self._more() if name not in self._not_asked()]

    @property
    def unasked_fields(self) -> list[forms.BoundField]:
        """What this format does not use, sent back as it was (hidden)."""
        return [self[name] for name in self._not_asked()]

    def add_service_errors(self, error: ValidationError) -> None:
        """Show a service's errors next to their fields, the rest above the form."""
        if not hasattr(error, "error_dict"):
            self.add_error(None, error)
            return
        for field, messages in error.message_dict.items():
            self.add_error(field if field in self.fields else None, messages)


EventForm.base_fields = fields_for_model(Event, fields=EVENT_FIELDS, widgets=EVENT_WIDGETS)


class AliasForm(forms.Form):
    alias = forms.CharField(label=_("Alias"), max_length=60)


class ReasonForm(forms.Form):
    """The reason recorded with an ejection (required) or a withdrawal (optional)."""

    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, required: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = required
        if required:
            self.fields["reason"].error_messages["required"] = _(
                "Give the reason for the ejection."
            )


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Name or alias"), required=False)
