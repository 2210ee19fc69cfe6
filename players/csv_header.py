"""The header line of a registration import: its names read, then checked in one pass.

A header is checked before any registration is read. The check stays linear in the number
of columns (each name is counted once), and a header of more columns than any
registration file has is refused before its names are looked at, so a file of tens of
thousands of columns costs a server process no more than reading its first line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from django.utils.translation import gettext as _

# The most columns a header may name: the export writes 24, a spreadsheet adds a few.
MAX_IMPORT_COLUMNS = 200


def header_key(name: str) -> str:
    """Tolerate "First name" or " FIRST_NAME " for first_name."""
    return "_".join(name.strip().lower().replace("-", " ").split())


def header_check(
    *,
    header: Sequence[str],
    known: Collection[str],
    required: Sequence[str],
    example: Sequence[str],
) -> tuple[list[str], list[str]]:
    """The columns ``header`` names (as keys), and what is wrong with them: too many,
    unknown, named twice or missing (``example`` is the header the messages suggest)."""
    if len(header) > MAX_IMPORT_COLUMNS:
        return [], [
            _(
                "The first line names %(count)s columns; a registration file has at most "
                "%(max)s. Keep the columns of the template: %(example)s"
            )
            % {"count": len(header), "max": MAX_IMPORT_COLUMNS, "example": ",".join(example)}
        ]
    columns = [header_key(name) for name in header]
    problems: list[str] = []
    unknown = [name for name in columns if name not in known]
    if unknown:
        problems.append(_("Unknown column(s): %(names)s.") % {"names": ", ".join(unknown)})
    # Counted once: a count per name would be quadratic in the columns.
    counts = Counter(columns)
    repeated = sorted(name for name, count in counts.items() if name and count > 1)
    if repeated:
        problems.append(_("Column(s) named twice: %(names)s.") % {"names": ", ".join(repeated)})
    missing = [name for name in required if name not in counts]
    if missing:
        problems.append(
            _(
                "Missing required column(s): %(names)s. This event needs: %(required)s "
                "(the template has every column)."
            )
            % {"names": ", ".join(missing), "required": ", ".join(required)}
        )
    return columns, problems
