"""Write-side operations for events: a new event from its format's defaults, and its settings.

Services raise ``ValidationError`` with field names, which forms show next to the field.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.formats import FORMATS
from tournament.models import Event

PRE_REGISTRATION_CLOSES_DAYS_BEFORE = 3

# Fields an organizer may set when creating or editing an event.
EVENT_FIELDS = (
    "name",
    "organization",
    "venue",
    "address",
    "city",
    "state",
    "postal_code",
    "date",
    "start_time",
    "contact_name",
    "contact_title",
    "contact_email",
    "contact_phone",
    "contact_fax",
    "forms_return_name",
    "forms_return_address",
    "forms_return_fax",
    "charity",
    "money_raised",
    "edition",
    "paper_size",
    "format",
    "language",
    "same_language_tables",
    "international",
    "round_minutes",
    "preliminary_rounds",
    "advancing",
    "alternates",
    "expected_players",
    "table_size_min",
    "table_size_max",
    "minimum_age",
    "maximum_age",
    "guardian_consent_under",
    "travel_flag_under",
    "citizenship_declaration",
    "registration_opens",
    "registration_closes",
    "on_the_day_registration",
    "arrival_minutes",
    "players_note",
    "tables_per_wave",
    "ends_with_qualifiers",
    "judge_approves_sheets",
)


def format_defaults(*, format_key: str, international: bool = False) -> dict[str, Any]:
    """The event fields a format fills in; the organizer may change every one."""
    fmt = FORMATS[format_key]
    return {
        "format": fmt.key,
        "preliminary_rounds": fmt.preliminary_rounds,
        "advancing": fmt.advancing,
        "alternates": fmt.alternates,
        "round_minutes": fmt.international_round_minutes if international else fmt.round_minutes,
        "table_size_min": fmt.table_size_min,
        "table_size_max": fmt.table_size_max,
        "expected_players": max(fmt.minimum_players, 32),
        "minimum_age": fmt.minimum_age,
        "maximum_age": fmt.maximum_age,
        "guardian_consent_under": fmt.guardian_consent_under,
        "travel_flag_under": fmt.travel_flag_under,
        "citizenship_declaration": fmt.citizenship_declaration,
        "judge_approves_sheets": fmt.judge_approves_sheets,
    }


def default_registration_closes(*, date: datetime.date, start_time: datetime.time):
    starts = timezone.make_aware(datetime.datetime.combine(date, start_time))
    return starts - datetime.timedelta(days=PRE_REGISTRATION_CLOSES_DAYS_BEFORE)


def event_rule_errors(values: dict[str, Any]) -> dict[str, list[str]]:
    """The checks across fields (and of money), from whichever values are known.

    The event form runs them on the fields that parsed, beside their own errors, so an
    organizer sees every problem in one pass; ``_clean_event`` runs them on the event.
    """
    errors: dict[str, list[str]] = {}

    def known(*names: str) -> bool:
        return all(values.get(name) is not None for name in names)

    if known("table_size_min", "table_size_max"):
        if values["table_size_min"] > values["table_size_max"]:
            errors["table_size_min"] = [_("The smallest table cannot be larger than the largest.")]
    if known("table_size_min") and values["table_size_min"] < 2:
        errors.setdefault("table_size_min", []).append(_("A table needs at least two players."))
    if known("minimum_age", "maximum_age") and values["maximum_age"] < values["minimum_age"]:
        errors["maximum_age"] = [_("The maximum age is below the minimum age.")]
    if (
        known("registration_opens", "registration_closes")
        and values["registration_opens"] >= values["registration_closes"]
    ):
        errors["registration_closes"] = [_("Registration must close after it opens.")]
    if known("money_raised") and values["money_raised"] < 0:
        errors["money_raised"] = [_("Money raised cannot be negative.")]
    return errors


def _clean_event(event: Event) -> None:
    errors: dict[str, list[str]] = {}
    try:
        event.full_clean()
    except ValidationError as error:
        errors = {field: list(messages) for field, messages in error.message_dict.items()}
    values = {name: getattr(event, name, None) for name in EVENT_FIELDS}
    for field, messages in event_rule_errors(values).items():
        listed = errors.setdefault(field, [])
        listed.extend([message for message in messages if message not in listed])
    if errors:
        raise ValidationError(errors)


def event_create(*, name: str, format: str = "championship", **fields: Any) -> Event:
    """A new event with its format's defaults, overridden by whatever the organizer chose."""
    if format not in FORMATS:
        raise ValidationError({"format": [_("Choose one of the formats.")]})
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise TypeError(f"unknown event fields: {sorted(unknown)}")
    values = format_defaults(format_key=format, international=fields.get("international", False))
    values.update(fields)
    event = Event(name=name, **values)
    if event.registration_closes is None and event.date and event.start_time:
        event.registration_closes = default_registration_closes(
            date=event.date, start_time=event.start_time
        )
    _clean_event(event)
    event.save()
    return event


def event_update(*, event: Event, **fields: Any) -> Event:
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise TypeError(f"unknown event fields: {sorted(unknown)}")
    for field, value in fields.items():
        setattr(event, field, value)
    _clean_event(event)
    event.save()
    return event
