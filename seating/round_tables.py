"""A round's tables as lists of player ids: stored from the engine's answer, read back.

One place writes a round's waves, tables and seats from a seating, so pre-seating, the
long search, a stage and the undo of a re-seat all store a round the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db.models import Count, Max
from django.utils.translation import gettext as _

from seating.engine import Seating
from seating.languages import tables_mark_languages
from tournament.models import Event, Round, Seat, Table, Wave


def round_store_tables(*, round_: Round, tables: Sequence[Sequence[int]], event: Event) -> None:
    """Replace ``round_``'s waves, tables and seats with ``tables`` (seat order kept)."""
    Seat.objects.filter(round=round_).delete()
    Table.objects.filter(round=round_).delete()
    Wave.objects.filter(round=round_).delete()
    per_wave = event.tables_per_wave or len(tables) or 1
    waves: dict[int, Wave] = {}
    for index, players in enumerate(tables):
        wave_number = index // per_wave + 1
        if wave_number not in waves:
            waves[wave_number] = Wave.objects.create(round=round_, number=wave_number)
        table = Table.objects.create(round=round_, wave=waves[wave_number], number=index + 1)
        Seat.objects.bulk_create(
            Seat(round=round_, table=table, player_id=player_id, position=position)
            for position, player_id in enumerate(players, start=1)
        )


def round_tables(round_: Round) -> list[list[int]]:
    """``round_``'s tables in table order, each its players in seat order."""
    tables: dict[int, list[int]] = {}
    seats = Seat.objects.filter(round=round_).order_by("table__number", "position")
    for number, player_id in seats.values_list("table__number", "player_id"):
        tables.setdefault(number, []).append(player_id)
    return [tables[number] for number in sorted(tables)]


def round_snapshot(round_: Round) -> dict:
    """What a re-seat replaces in ``round_``: its tables, their bankers and languages, the
    engine's report and whether the public saw it (the undo puts all of it back)."""
    tables = list(Table.objects.filter(round=round_).order_by("number").prefetch_related("seats"))
    return {
        "tables": [
            [seat.player_id for seat in sorted(table.seats.all(), key=lambda s: s.position)]
            for table in tables
        ],
        "bankers": [table.banker_id for table in tables],
        "languages": [table.language for table in tables],
        "report": round_.seating_report,
        "published": round_.assignments_published,
    }


def rounds_store_seating(
    *, event: Event, rounds: Sequence[Round], seating: Seating, languages: Sequence[str]
) -> None:
    """Store the engine's ``seating`` as ``rounds``' tables, hidden from the public.

    A round that was seated already keeps what it had in ``seating_undo`` with the tables
    made now, so a re-seat tapped by mistake can be undone (``reseat_services``).
    """
    for round_, tables in zip(rounds, seating.rounds, strict=True):
        before = round_snapshot(round_)
        round_store_tables(round_=round_, tables=tables, event=event)
        tables_mark_languages(round_=round_, languages=languages)
        round_.seating_report = seating.report.to_dict()
        round_.assignments_published = False
        round_.seating_undo = (
            {"before": before, "after": round_tables(round_)} if before["tables"] else {}
        )
        round_.save(update_fields=["seating_report", "assignments_published", "seating_undo"])


def seating_stamp(*, event: Event) -> str:
    """What the event's tables are now, in a few characters: a seating page sends it with
    "seat", and the seat is refused as already done when the tables changed since.

    Every seating stores new tables (new ids) and an unseat deletes them, so the count and
    the highest id change with each; a seat swap or move keeps them, as it should: it is
    no seating of its own.
    """
    tables = Table.objects.filter(round__event=event).aggregate(count=Count("pk"), last=Max("pk"))
    return f"{tables['count']}.{tables['last'] or 0}"


def seating_refuse_if_changed(*, event: Event, seen: str | None) -> None:
    """Refuse a seating whose page saw other tables than there are now (``seating_stamp``):
    a second tap, or a second organizer, finds the first one's tables and changes nothing.
    ``seen`` None (a caller with no page) always goes ahead. Call it holding the event lock.
    """
    if seen is not None and seen != seating_stamp(event=event):
        raise ValidationError(
            _(
                "Already seated: the tables changed since this page was opened. Look at them "
                "first; seat again from the page if they still need it."
            ),
            code="already",
        )


def seat_refuse_if_moved(*, seat_: Seat, from_table: int | None) -> None:
    """Refuse a judge's seat change whose player is no longer at ``from_table``, the table
    of the page it was confirmed on: a second tap on Confirm finds it done."""
    if from_table is not None and seat_.table.number != from_table:
        raise ValidationError(
            _("Already done: %(alias)s sits at table %(number)s now. Look again first.")
            % {"alias": seat_.player.alias, "number": seat_.table.number},
            code="already",
        )
