"""CSV import and export of registrations, and the one CSV writer every export uses.

Organizers collect paper forms or run sign-ups elsewhere; importing puts those people
through exactly the rules of the public form (``registration_errors`` and
``player_register``). An import is all-or-nothing: a file with one bad line imports no one,
so the organizer fixes the file and uploads it again instead of untangling half an
import. Rows already registered are skipped, which makes re-uploading the same (or a
corrected, longer) file safe.

Every CSV the site writes (registrations here; results and standings in ``scoring``,
pages and ``manage.py export_results`` alike) goes through ``csv_write``, which defuses
spreadsheet formulas. It lives in ``tournament``, the lowest app that writes a CSV, so
every app above may use it.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Protocol, cast

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import models, transaction
from django.http import HttpResponse
from django.utils.translation import gettext as _

from players.bulk_services import players_register_bulk
from players.csv_columns import (
    BOOLEAN_COLUMNS,
    EXPORT_COLUMNS,
    IMPORT_COLUMNS,
    REQUIRED_COLUMNS,
    TEXT_COLUMNS,
    required_columns,
)
from players.csv_dates import file_date_order, read_date
from players.csv_header import MAX_IMPORT_COLUMNS, header_check  # noqa: F401 (the limit, here too)
from players.services import Registration, automatic_alias, player_register, registration_errors
from tournament.models import Event, Player


class Writable(Protocol):
    """Where CSV text goes: an open text file, or an ``HttpResponse`` being written."""

    def write(self, text: str, /) -> object: ...


# The largest upload the import page accepts; a few thousand registrations fit easily.
MAX_IMPORT_BYTES = 2 * 1024 * 1024
# The most registrations one import takes: far more than an event seats (the aliases run out
# near 300), and each row is checked against the registration rules, so a 100,000-line
# file would hold a server process for minutes. A bigger file is refused before reading.
MAX_IMPORT_ROWS = 2000
# A refused file lists its first problems and how many there are: a file wrong throughout
# is wrong in the same few ways, and a page of thousands of lines would only bury them.
MAX_ERRORS_SHOWN = 100

# Told (lines done, lines in all) as an import goes on.
Progress = Callable[[int, int], None]


TRUE_WORDS = frozenset({"yes", "true", "1", "y"})
FALSE_WORDS = frozenset({"no", "false", "0", "n", ""})

# A spreadsheet runs a cell starting with these as a formula (OWASP, "CSV Injection").
# Names, addresses and aliases come from the public form, so every export defuses them
# with a leading apostrophe (``csv_cell``), and the registration import removes that
# apostrophe again so a round trip changes nothing.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A plain number ("-150", "-14.5") starts with "-" but cannot run anything, and an
# apostrophe would turn it into text a spreadsheet no longer adds up.
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


@dataclass(frozen=True)
class ImportResult:
    created: int = 0
    skipped_existing: int = 0
    # (line number, message); line 1 is the header row.
    errors: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class _Row:
    line: int
    registration: Registration


class _ImportAborted(Exception):
    def __init__(self, line: int, messages: list[str]) -> None:
        super().__init__(line, messages)
        self.line = line
        self.messages = messages


def decode_csv_bytes(*, data: bytes) -> str:
    """Uploaded bytes as text; anything but UTF-8 is refused rather than guessed at."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(
            _(
                "This file is not UTF-8 text, so it cannot be read as CSV. In your "
                "spreadsheet, save it as “CSV UTF-8” and upload it again."
            ),
            code="encoding",
        ) from None


def _cell(value: str) -> str:
    value = value.strip()
    if len(value) > 1 and value[0] == "'" and value[1] in FORMULA_STARTS:
        return value[1:]
    return value


def _parse_row(
    values: dict[str, str], *, text_limits: dict[str, int], date_order: str | None
) -> tuple[Registration | None, list[str]]:
    """One data row as a Registration, or the reasons it cannot be read."""
    errors: list[str] = []
    parsed: dict[str, Any] = {}
    for column in TEXT_COLUMNS:
        value = values.get(column, "")
        if len(value) > text_limits[column]:
            errors.append(
                _("%(column)s: at most %(limit)s characters (this has %(length)s).")
                % {"column": column, "limit": text_limits[column], "length": len(value)}
            )
        parsed[column] = value
    for column in ("first_name", "last_name"):
        if not values.get(column):
            errors.append(_("%(column)s: this is required.") % {"column": column})
    for column in ("email", "guardian_email"):
        if parsed[column]:
            try:
                validate_email(parsed[column])
            except ValidationError:
                errors.append(
                    _("%(column)s: “%(value)s” is not a valid email address.")
                    % {"column": column, "value": parsed[column]}
                )
    raw_date = values.get("date_of_birth", "")
    if not raw_date:
        errors.append(_("date_of_birth: this is required."))
    else:
        parsed["date_of_birth"], problem = read_date(raw_date, order=date_order)
        if problem:
            errors.append(f"date_of_birth: {problem}")
    for column in sorted(BOOLEAN_COLUMNS):
        word = values.get(column, "").lower()
        if word in TRUE_WORDS:
            parsed[column] = True
        elif word in FALSE_WORDS:
            parsed[column] = False
        else:
            errors.append(
                _("%(column)s: “%(value)s” is not yes or no (use yes/no, true/false, 1/0 or y/n).")
                % {"column": column, "value": values[column]}
            )
    if errors:
        return None, errors
    if not parsed["signature"]:
        parsed["signature"] = f"{parsed['first_name']} {parsed['last_name']}"
    return Registration(**parsed), []


def _read(
    text: str, *, required: tuple[str, ...] = REQUIRED_COLUMNS
) -> tuple[list[tuple[int, dict[str, str]]], list[tuple[int, str]]]:
    """The data rows by line number, keyed by column; or the errors that stop reading."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""))
    try:
        header = next(reader, None)
        if header is None or not any(cell.strip() for cell in header):
            return [], [
                (
                    1,
                    _(
                        "The file is empty or its first line is blank; the first line must "
                        "name the columns."
                    ),
                )
            ]
        columns, problems = header_check(
            header=header, known=EXPORT_COLUMNS, required=required, example=IMPORT_COLUMNS
        )
        if problems:
            return [], [(1, problem) for problem in problems]
        errors: list[tuple[int, str]] = []
        rows: list[tuple[int, dict[str, str]]] = []
        while True:
            line = reader.line_num + 1
            cells = next(reader, None)
            if cells is None:
                break
            if not any(cell.strip() for cell in cells):
                continue
            if any("\x00" in cell for cell in cells):
                # PostgreSQL refuses NUL in text; it also means this is no CSV file.
                errors.append((line, _("This line contains a NUL character; is this a CSV file?")))
                continue
            if len(cells) > len(columns) and any(c.strip() for c in cells[len(columns) :]):
                errors.append(
                    (
                        line,
                        _("This line has %(cells)s values but the header names %(columns)s.")
                        % {"cells": len(cells), "columns": len(columns)},
                    )
                )
                continue
            rows.append(
                (line, {name: _cell(value) for name, value in zip(columns, cells, strict=False)})
            )
    except csv.Error as error:
        return [], [
            (
                reader.line_num,
                _("This line cannot be read as CSV (%(error)s).") % {"error": error},
            )
        ]
    return rows, errors


def _registration_messages(errors: dict[str, list[str]]) -> list[str]:
    """Service errors as "column: message", the way the organizer sees the file."""
    messages = []
    for name, field_messages in errors.items():
        for message in field_messages:
            messages.append(message if name == "__all__" else f"{name}: {message}")
    return messages


def import_registrations(
    *,
    event: Event,
    text: str,
    on_progress: Progress | None = None,
    send_confirmations: bool = True,
) -> ImportResult:
    """Register everyone in a CSV text for ``event``, or no one if any line is wrong.

    Every line is checked before anything is written, so the organizer gets the full list
    of problems at once. Rows matching someone already registered for the event (same
    email, or same name and date of birth; whatever their status, so a withdrawn player is
    not signed up again) are skipped, which makes an import safe to repeat. The rest are
    registered in file order in one transaction: seats while they last, then the event's
    alternates, then the waiting list.

    ``on_progress(done, total)`` is told as lines are checked, then registered (a line
    counts once for each; a big import runs as a background job that shows this). Each
    new registration is emailed its confirmation unless ``send_confirmations`` is off.
    """
    # Lines that cannot be read are reported along with every other line's problems.
    raw_rows, errors = _read(text, required=required_columns(event=event))
    if errors and not raw_rows:
        return ImportResult(errors=errors)
    rows, parse_errors = _parse_rows(raw_rows)
    errors.extend(parse_errors)
    errors.extend(_repeats_within_file(rows))
    registered = _registered(event=event)
    progress = _Steps(on_progress, total=2 * len(rows))
    to_create, skipped, rule_errors = _rows_to_register(
        event=event, rows=rows, registered=registered, progress=progress
    )
    errors.extend(rule_errors)
    if errors:
        return ImportResult(errors=sorted(errors, key=lambda error: error[0]))
    progress.total = len(rows) + len(to_create)
    return _register_rows(
        event=event,
        rows=to_create,
        aliases=registered.aliases,
        skipped=skipped,
        progress=progress,
        send_confirmations=send_confirmations,
    )


class _Steps:
    """Counts the import's steps for ``on_progress``."""

    def __init__(self, report: Progress | None, *, total: int) -> None:
        self.report = report
        self.total = total
        self.done = 0

    def step(self) -> None:
        self.done += 1
        if self.report is not None:
            self.report(self.done, self.total)


def _max_length(column: str) -> int:
    """A text column's most characters: its model field's (a CharField, which has one)."""
    return cast(int, cast(models.CharField, Player._meta.get_field(column)).max_length)


def _parse_rows(
    raw_rows: list[tuple[int, dict[str, str]]],
) -> tuple[list[_Row], list[tuple[int, str]]]:
    """The rows that read as registrations, and every other row's reasons."""
    text_limits = {column: _max_length(column) for column in TEXT_COLUMNS}
    rows: list[_Row] = []
    errors: list[tuple[int, str]] = []
    order = file_date_order(values.get("date_of_birth", "") for _line, values in raw_rows)
    for line, values in raw_rows:
        registration, row_errors = _parse_row(values, text_limits=text_limits, date_order=order)
        errors.extend((line, message) for message in row_errors)
        if registration is not None:
            rows.append(_Row(line=line, registration=registration))
    return rows, errors


def _person(registration: Registration) -> tuple[str, str, datetime.date]:
    return (
        registration.first_name.casefold(),
        registration.last_name.casefold(),
        registration.date_of_birth,
    )


def _repeats_within_file(rows: list[_Row]) -> list[tuple[int, str]]:
    """The same person twice in one file is a mistake in the file, not a second player."""
    errors: list[tuple[int, str]] = []
    seen_email: dict[str, int] = {}
    seen_person: dict[tuple[str, str, datetime.date], int] = {}
    seen_alias: dict[str, int] = {}
    for row in rows:
        reg = row.registration
        email = reg.email.casefold()
        person = _person(reg)
        alias = reg.alias.casefold()
        if email and email in seen_email:
            errors.append(
                (row.line, _("Same email as line %(line)s.") % {"line": seen_email[email]})
            )
        if person in seen_person:
            errors.append(
                (
                    row.line,
                    _("Same name and date of birth as line %(line)s.")
                    % {"line": seen_person[person]},
                )
            )
        if alias and alias in seen_alias:
            errors.append(
                (row.line, _("Same alias as line %(line)s.") % {"line": seen_alias[alias]})
            )
        if email:
            seen_email.setdefault(email, row.line)
        seen_person.setdefault(person, row.line)
        if alias:
            seen_alias.setdefault(alias, row.line)
    return errors


@dataclass(frozen=True)
class _Registered:
    """Who the event already has, whatever their status, as the import compares them."""

    emails: frozenset[str]
    people: frozenset[tuple[str, str, datetime.date]]
    aliases: tuple[str, ...]


def _registered(*, event: Event) -> _Registered:
    existing = Player.objects.filter(event=event)
    return _Registered(
        emails=frozenset(e.casefold() for e in existing.values_list("email", flat=True) if e),
        people=frozenset(
            (first.casefold(), last.casefold(), born)
            for first, last, born in existing.values_list(
                "first_name", "last_name", "date_of_birth"
            )
        ),
        aliases=tuple(existing.values_list("alias", flat=True)),
    )


def _rows_to_register(
    *, event: Event, rows: list[_Row], registered: _Registered, progress: _Steps
) -> tuple[list[_Row], int, list[tuple[int, str]]]:
    """The rows not yet registered, how many were, and the public form's objections."""
    aliases_folded = {alias.casefold() for alias in registered.aliases}
    to_create: list[_Row] = []
    skipped = 0
    errors: list[tuple[int, str]] = []
    for row in rows:
        progress.step()
        reg = row.registration
        already = reg.email and reg.email.casefold() in registered.emails
        if already or _person(reg) in registered.people:
            skipped += 1
            continue
        row_errors = _registration_messages(registration_errors(event=event, registration=reg))
        # The database keeps aliases unique even among withdrawn players.
        if (
            reg.alias
            and reg.alias.casefold() in aliases_folded
            and not any(message.startswith("alias:") for message in row_errors)
        ):
            row_errors.append(_("alias: Another player at this event already has this alias."))
        errors.extend((row.line, message) for message in row_errors)
        to_create.append(row)
    return to_create, skipped, errors


def _register_rows(
    *,
    event: Event,
    rows: list[_Row],
    aliases: tuple[str, ...],
    skipped: int,
    progress: _Steps,
    send_confirmations: bool,
) -> ImportResult:
    """All rows in one transaction; ``player_register`` seats them or lists them as alternates.

    Into an event nobody has registered for yet (the usual first import, often the whole
    field) the rows go in one bulk step with the same rules (``players_register_bulk``):
    one by one, each registration reads the roster again, which grows with the square of
    the file.
    """
    if not Player.objects.filter(event=event).exists():
        try:
            players_register_bulk(
                event=event,
                registrations=[row.registration for row in rows],
                source=Player.Source.IMPORT,
                send_confirmations=send_confirmations,
            )
        except ValidationError as error:
            # The lines were checked already; this is someone registering meanwhile.
            return ImportResult(errors=[(rows[0].line, message) for message in error.messages])
        for _row in rows:
            progress.step()
        return ImportResult(created=len(rows), skipped_existing=skipped)
    try:
        with transaction.atomic():
            # Aliases typed in the file are reserved first, so an automatic alias given
            # to an earlier line can never take one a later line asked for.
            taken = [*aliases, *(row.registration.alias for row in rows)]
            for row in rows:
                reg = row.registration
                if not reg.alias:
                    alias = automatic_alias(event=event, registration=reg, taken=taken)
                    reg = replace(reg, alias=alias)
                    taken.append(alias)
                try:
                    player_register(
                        event=event,
                        registration=reg,
                        source=Player.Source.IMPORT,
                        send_confirmation=send_confirmations,
                    )
                except ValidationError as error:
                    raise _ImportAborted(row.line, _validation_messages(error)) from error
                progress.step()
    except _ImportAborted as aborted:
        return ImportResult(errors=[(aborted.line, message) for message in aborted.messages])
    return ImportResult(created=len(rows), skipped_existing=skipped)


def _validation_messages(error: ValidationError) -> list[str]:
    if hasattr(error, "error_dict"):
        return _registration_messages(error.message_dict)
    return list(error.messages)


# --- Export ------------------------------------------------------------------------


def registrations_for_export(*, event: Event) -> list[Player]:
    """Seated players in registration order, then alternates in their order, then the
    waiting list in its order, then the rest.

    Importing the file into a new event with the same places and alternates therefore
    gives the same people seats, the same alternate order and the same waiting list.
    """
    players = list(Player.objects.filter(event=event).select_related("event").order_by("pk"))
    rank: dict[str, int] = {
        Player.Status.PLAYER: 0,
        Player.Status.ALTERNATE: 1,
        Player.Status.WAITING: 2,
    }
    return sorted(
        players,
        key=lambda p: (
            rank.get(p.status, 3),
            p.alternate_position or p.waiting_position or 0,
            p.pk,
        ),
    )


def _export_value(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    return value


def write_registrations_csv(*, event: Event, stream: Writable) -> None:
    """Every registration for ``event`` as CSV, in the import's columns plus the record.

    A byte-order mark starts the file so spreadsheet programs read accented names
    correctly; the import ignores it.
    """
    stream.write("\ufeff")
    rows = [
        [_export_value(getattr(player, column)) for column in EXPORT_COLUMNS]
        for player in registrations_for_export(event=event)
    ]
    csv_write(rows=[EXPORT_COLUMNS, *rows], stream=stream)


# --- The one CSV writer ------------------------------------------------------------


def csv_cell(value: Any) -> Any:
    """One cell as a spreadsheet may safely open it: text that would run as a formula gets
    a leading apostrophe (shown by no spreadsheet); numbers stay numbers.

    Numbers are told apart by type (``int``, ``Decimal``, ...) or, for the exports that
    write them as text, by being a plain number; either way a negative amount is still a
    number in the spreadsheet. Anything else is text: aliases, names, reasons.
    """
    if value is None:
        return ""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_write(*, rows: Iterable[Iterable[Any]], stream: Writable) -> None:
    """``rows`` as CSV on ``stream``, every cell through ``csv_cell``: the only CSV writer."""
    csv.writer(stream).writerows([csv_cell(value) for value in row] for row in rows)


def csv_response(*, rows: Iterable[Iterable[Any]], filename: str) -> HttpResponse:
    """``rows`` as a CSV download named ``filename``."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    csv_write(rows=rows, stream=response)
    return response
