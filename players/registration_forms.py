"""Forms for registering people and uploading registration files.

The forms only shape input: whether someone may play is decided by
``services.registration_errors`` / ``player_register``, so the public form, the
organizer's on-the-day entry and the CSV import can never disagree. The form calls
``registration_errors`` in ``clean()`` only so that every problem shows at once, next to
its field, instead of one round trip per mistake.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from django import forms
from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext_lazy as _

from players.csv_io import MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, decode_csv_bytes
from players.services import Registration, registration_errors
from tournament.formats import age_rule
from tournament.models import Event

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class RegistrationForm(forms.Form):
    """The Participant Registration Form, field for field."""

    first_name = forms.CharField(label=_("First name"), max_length=100)
    last_name = forms.CharField(label=_("Last name"), max_length=100)
    address = forms.CharField(label=_("Address"), max_length=300, required=False)
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    region = forms.CharField(label=_("State / region"), max_length=100, required=False)
    postal_code = forms.CharField(label=_("Postal code"), max_length=20, required=False)
    telephone = forms.CharField(label=_("Telephone"), max_length=40, required=False)
    email = forms.EmailField(label=_("Email"), required=False)
    date_of_birth = forms.DateField(
        label=_("Date of birth"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    family = forms.CharField(
        label=_("Who are you related to or living with at this event?"),
        max_length=200,
        required=False,
        help_text=_("Members of one family or household are never seated at the same table."),
    )
    eligibility_declared = forms.BooleanField(
        label=_(
            "I am not an employee, or immediate family of an employee, of the game's publisher."
        ),
        required=False,
    )
    citizenship_declared = forms.BooleanField(
        label=_("I declare that I am a citizen of this country."), required=False
    )
    # The kit's Participant Registration Form (Tournament Kit) in its own words; optional here, and
    # the printed form lists those who leave it unticked apart, without the grant.
    publicity_consent = forms.BooleanField(
        label=_(
            "I give Hasbro the right to use, without compensation, my name and any photographs "
            "of me taken at the tournament for publicity and promotional purposes."
        ),
        required=False,
    )
    guardian_name = forms.CharField(
        label=_("Parent or guardian's name"), max_length=200, required=False
    )
    guardian_consent = forms.BooleanField(
        label=_("As parent or guardian, I consent to this player taking part."),
        required=False,
    )
    guardian_email = forms.EmailField(
        label=_("Parent or guardian's email"),
        required=False,
        help_text=_("They receive a copy of every email to a player under the consent age."),
    )
    # Championship Rules: "same-language games": asked when the event seats players by game
    # language.
    game_language = forms.ChoiceField(
        label=_("Language you play in"),
        choices=[("", _("The event's language")), *settings.LANGUAGES],
        required=False,
        help_text=_("Players of one language are seated at tables of their own."),
    )
    signature = forms.CharField(
        label=_("Signature (type your full name)"),
        max_length=200,
        help_text=_("Typing your name signs this form; the time you submit it is recorded."),
    )

    fieldsets: tuple[tuple[StrOrPromise, tuple[str, ...]], ...] = (
        (
            _("About you"),
            (
                "first_name",
                "last_name",
                "date_of_birth",
                "address",
                "city",
                "region",
                "postal_code",
                "telephone",
                "email",
                "family",
                "game_language",
            ),
        ),
        (
            _("Declarations"),
            ("eligibility_declared", "citizenship_declared", "publicity_consent"),
        ),
        (_("Parent or guardian"), ("guardian_name", "guardian_email", "guardian_consent")),
        (_("Signature"), ("signature",)),
    )

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        if not event.citizenship_declaration:
            del self.fields["citizenship_declared"]
        if not event.same_language_tables:
            del self.fields["game_language"]
        self.fields["guardian_name"].help_text = _(
            "Needed only for players under %(age)s on the day of the event."
        ) % {"age": event.guardian_consent_under}
        # The age rule as registration_errors applies it, said where the date is typed.
        self.fields["date_of_birth"].help_text = age_rule(event=event)

    def grouped_fields(self) -> list[tuple[StrOrPromise, list[forms.BoundField]]]:
        """The fields by fieldset, leaving out those this event does not ask for."""
        groups = []
        for legend, names in self.fieldsets:
            bound = [self[name] for name in names if name in self.fields]
            if bound:
                groups.append((legend, bound))
        return groups

    def registration(self) -> Registration:
        """What was typed, as the services take it; fields that failed fall back to blank."""
        data = self.cleaned_data
        values = {}
        for field in dataclasses.fields(Registration):
            if field.name in data:
                values[field.name] = data[field.name]
            elif field.default is not dataclasses.MISSING:
                values[field.name] = field.default
            else:  # a required text field that failed; clean() only calls with a date
                values[field.name] = ""
        return Registration(**values)

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        # Without a date of birth there is no age to judge; the field's own error shows.
        if cleaned.get("date_of_birth") is not None:
            self.add_service_errors(
                registration_errors(event=self.event, registration=self.registration())
            )
        return cleaned

    def add_service_errors(self, errors: Mapping[str, Iterable[str]]) -> None:
        """Show a service's field → messages next to the fields; the rest above the form."""
        for field, messages in errors.items():
            target = field if field in self.fields else None
            key = target or NON_FIELD_ERRORS
            for message in messages:
                # The form and the service both say "This field is required."; once is enough.
                if message in self.errors.get(key, []):
                    continue
                self.add_error(target, message)

    def add_validation_error(self, error: ValidationError) -> None:
        if hasattr(error, "error_dict"):
            self.add_service_errors(error.message_dict)
        else:
            for message in error.messages:
                self.add_error(None, message)


class OnTheDayForm(RegistrationForm):
    """The organizer's entry at the door: the same form, plus a chosen alias if wanted."""

    alias = forms.CharField(
        label=_("Alias"),
        max_length=60,
        required=False,
        help_text=_("Leave blank to give this player the next free alias."),
    )

    fieldsets = (*RegistrationForm.fieldsets, (_("Public alias"), ("alias",)))


class ImportForm(forms.Form):
    """A CSV file, or the same text pasted; decoded here so a bad file is a form error."""

    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(
        label=_("…or paste the CSV text"),
        required=False,
        strip=False,
        # static/js/import.js refuses a paste over the limit before sending it, so the
        # text stays in the box; without JavaScript the server says the same.
        widget=forms.Textarea(
            attrs={"rows": 8, "spellcheck": "false", "data-max-bytes": MAX_IMPORT_BYTES}
        ),
    )

    send_confirmations = forms.BooleanField(
        label=_("Email each newly registered player a confirmation"),
        required=False,
        initial=True,
        help_text=_(
            "Their alias, the date, the place, when to arrive and how to withdraw; a junior's "
            "guardian gets a copy. Untick to import quietly (players registered elsewhere)."
        ),
    )

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        upload = cleaned.get("file")
        if upload:
            if upload.size > MAX_IMPORT_BYTES:
                raise ValidationError(_too_large())
            try:
                cleaned["csv_text"] = decode_csv_bytes(data=upload.read())
            except ValidationError as error:
                self.add_error("file", error)
        elif cleaned.get("text", "").strip():
            # On the field, so the pasted text comes back in the box to be cut in parts.
            if len(cleaned["text"].encode()) > MAX_IMPORT_BYTES:
                self.add_error("text", _too_large())
            else:
                cleaned["csv_text"] = cleaned["text"]
        elif not self.has_error("text"):
            raise ValidationError(_("Choose a CSV file or paste its text."))
        self._refuse_too_many_lines(cleaned.get("csv_text", ""))
        return cleaned

    def _refuse_too_many_lines(self, text: str) -> None:
        """Counted before any line is read: a quoted line break counts too, so this can only
        overcount, never let a bigger file through."""
        lines = len(text.splitlines())
        if lines > MAX_IMPORT_ROWS + 1:  # the header line is not a registration
            self.cleaned_data.pop("csv_text", None)
            field = "file" if self.cleaned_data.get("file") else "text"
            self.add_error(
                field,
                _(
                    "This has %(lines)s lines; one import takes at most %(max)s registrations. "
                    "Split it into several files, each with the header line."
                )
                % {"lines": lines, "max": MAX_IMPORT_ROWS},
            )


def _too_large() -> str:
    return _("This is larger than %(size)s MB; split it into parts, each with the header line.") % {
        "size": MAX_IMPORT_BYTES // (1024 * 1024)
    }
