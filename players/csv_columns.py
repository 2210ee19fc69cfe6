"""The registration file's columns: those the import reads, those an export adds, and
those a file for a given event must have."""

from __future__ import annotations

from tournament.models import Event

IMPORT_COLUMNS = (
    "first_name",
    "last_name",
    "email",
    "date_of_birth",
    "address",
    "city",
    "region",
    "postal_code",
    "telephone",
    "family",
    "guardian_name",
    "guardian_email",
    "guardian_consent",
    "eligibility_declared",
    "citizenship_declared",
    "publicity_consent",
    "signature",
    "alias",
)
REQUIRED_COLUMNS = ("first_name", "last_name", "date_of_birth")


def required_columns(*, event: Event) -> tuple[str, ...]:
    """The columns a file for ``event`` must have: a missing one is one message for the
    file, not the same refusal on every line (every entrant declares eligibility; a
    championship asks for citizenship too)."""
    declared: tuple[str, ...] = ("eligibility_declared",)
    if event.citizenship_declaration:
        declared += ("citizenship_declared",)
    return REQUIRED_COLUMNS + declared


BOOLEAN_COLUMNS = frozenset(
    {"guardian_consent", "eligibility_declared", "citizenship_declared", "publicity_consent"}
)
TEXT_COLUMNS = tuple(
    name for name in IMPORT_COLUMNS if name not in BOOLEAN_COLUMNS and name != "date_of_birth"
)
# Written by the export and ignored by the import, so an export can be uploaded as it is.
EXPORT_ONLY_COLUMNS = (
    "status",
    "alternate_position",
    "waiting_position",
    "checked_in_at",
    "source",
    "signed_at",
)
EXPORT_COLUMNS = IMPORT_COLUMNS + EXPORT_ONLY_COLUMNS
