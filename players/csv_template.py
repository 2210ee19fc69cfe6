"""The registration import's template: the columns it reads and one example line."""

from __future__ import annotations

from players.csv_columns import IMPORT_COLUMNS, required_columns
from players.csv_io import Writable, csv_write
from tournament.models import Event

# One made-up registration, so the organizer sees each column's shape (dates YYYY-MM-DD,
# yes/no answers); a blank alias gets the next free one.
EXAMPLE = {
    "first_name": "Ada",
    "last_name": "Example",
    "email": "ada@example.org",
    "date_of_birth": "1990-05-01",
    "city": "Atlantic City",
    "family": "",
    "eligibility_declared": "yes",
    "citizenship_declared": "yes",
    "publicity_consent": "no",
    "signature": "Ada Example",
}


def write_import_template(*, event: Event, stream: Writable) -> None:
    """The columns, those this event requires first, and the example line, through the one
    (formula-safe) CSV writer."""
    required = required_columns(event=event)
    columns = [*required, *(name for name in IMPORT_COLUMNS if name not in required)]
    csv_write(rows=[columns, [EXAMPLE.get(column, "") for column in columns]], stream=stream)
