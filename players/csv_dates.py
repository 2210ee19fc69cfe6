"""Dates of birth in an imported file: ISO always, and day/month/year or month/day/year as
the file and the organizer's language show.

Spreadsheets write dates the way their owner's language does, so a file from a British
club says 25/05/1990 and one from an American club 05/25/1990; both were refused when
only YYYY-MM-DD was read. A slashed (or dotted, or dashed) date is read in the order the
file's own dates show (a day over 12 settles it), else in the order of the organizer's
language (``SHORT_DATE_FORMAT``: "d/m/Y" in en-GB, "m/d/Y" in en). A file whose dates show
both orders says nothing about the rest: a date that reads two ways there is refused with
both readings, so nobody's birthday is guessed.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable

from django.utils import translation
from django.utils.formats import date_format, get_format
from django.utils.translation import gettext as _

DAY_FIRST, MONTH_FIRST = "dmy", "mdy"
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_SLASHED = re.compile(r"(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{2}|\d{4})")


def language_date_order(language: str | None = None) -> str:
    """The order a language writes a short date in: day first or month first."""
    pattern = get_format("SHORT_DATE_FORMAT", lang=language or translation.get_language())
    day = min((pattern.find(c) for c in "dj" if c in pattern), default=0)
    month = min((pattern.find(c) for c in "mn" if c in pattern), default=1)
    return DAY_FIRST if day < month else MONTH_FIRST


def _date(year: int, month: int, day: int) -> datetime.date | None:
    try:
        return datetime.date(year, month, day)
    except ValueError:
        return None


def _readings(raw: str) -> dict[str, datetime.date] | None:
    """A slashed date's valid readings by order, or None when it is not one."""
    match = _SLASHED.fullmatch(raw)
    if match is None:
        return None
    first, second, year = (int(part) for part in match.groups())
    if len(match.group(3)) == 2:
        return None  # a two-digit year: which century is a guess
    readings = {DAY_FIRST: _date(year, second, first), MONTH_FIRST: _date(year, first, second)}
    return {order: date for order, date in readings.items() if date is not None}


def file_date_order(values: Iterable[str], *, language: str | None = None) -> str | None:
    """The order a file's slashed dates are written in: the one its dates that read only
    one way show, else the language's; None when its dates show both."""
    shown: set[str] = set()
    for raw in values:
        readings = _readings(raw.strip())
        if readings and len(readings) == 1:
            shown.update(readings)
    if len(shown) > 1:
        return None
    return shown.pop() if shown else language_date_order(language)


def read_date(raw: str, *, order: str | None) -> tuple[datetime.date | None, str]:
    """``raw`` as a date, or the reason it cannot be read (``order`` from
    ``file_date_order``: None when the file shows both orders)."""
    raw = raw.strip()
    iso = _ISO.fullmatch(raw)
    if iso:
        date = _date(*(int(part) for part in iso.groups()))
        if date:
            return date, ""
    slashed = _SLASHED.fullmatch(raw)
    if slashed and len(slashed.group(3)) == 2:
        return None, _("“%(value)s” has a two-digit year; write the year in full.") % {"value": raw}
    readings = _readings(raw)
    if not readings:
        return None, _("“%(value)s” is not a date; write it as YYYY-MM-DD.") % {"value": raw}
    if len(readings) == 1 or len(set(readings.values())) == 1:
        return next(iter(readings.values())), ""
    if order is not None:
        return readings[order], ""
    return None, _(
        "“%(value)s” reads as %(day_first)s (day first) or %(month_first)s (month first), "
        "and this file writes dates both ways; write it as YYYY-MM-DD."
    ) % {
        "value": raw,
        "day_first": date_format(readings[DAY_FIRST], "DATE_FORMAT"),
        "month_first": date_format(readings[MONTH_FIRST], "DATE_FORMAT"),
    }
