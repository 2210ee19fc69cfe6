"""The registration import's template: the columns it reads and one example line."""

from __future__ import annotations

from typing import TextIO

from .csv_io import IMPORT_COLUMNS, csv_write

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


def write_import_template(*, stream: TextIO) -> None:
    """The columns and the example line, through the one (formula-safe) CSV writer."""
    csv_write(
        rows=[IMPORT_COLUMNS, [EXAMPLE.get(column, "") for column in IMPORT_COLUMNS]], stream=stream
    )
