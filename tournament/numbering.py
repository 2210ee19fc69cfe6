"""Giving ordered rows the numbers 1, 2, 3... without tripping a unique constraint.

Alternate positions, table numbers and seats are unique within their event, round or
table, so rows cannot simply be renumbered in place: 2 -> 1 fails while 1 still exists.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import models

# Above any real position, so the first pass never collides with the second, yet inside a
# PostgreSQL smallint (32767), the type of table numbers and seat positions.
_PARKING = 20_000


def renumber(rows: Sequence[models.Model], *, field: str) -> None:
    """Number ``rows`` 1..n in the order given, saving only ``field``."""
    for offset, row in enumerate(rows, start=1):
        setattr(row, field, _PARKING + offset)
        row.save(update_fields=[field])
    for offset, row in enumerate(rows, start=1):
        setattr(row, field, offset)
        row.save(update_fields=[field])
