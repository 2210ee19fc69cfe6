"""Following one alias on the public site: where it sits this round and how it stands.

Part of ``spectator.selectors`` (same rules: aliases and numbers only, what the organizer
released only), kept apart for its size.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING

from clock.selectors import hall_wave
from scoring.models import ResultLine
from spectator.selectors import PublicStanding, Release, standings
from tournament.models import Event, Round, Seat

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# --- Following one alias -----------------------------------------------------------------------


def followable_aliases(*, event_pk: int, release: Release) -> tuple[str, ...]:
    """The aliases a spectator may pick: those already public on a released page (seated
    at a published round, or in the released standings), so following reveals nobody new."""
    aliases: set[str] = set()
    if release.tables:
        aliases |= set(
            Seat.objects.filter(round__event_id=event_pk, round__assignments_published=True)
            .values_list("player__alias", flat=True)
            .distinct()
        )
    if release.standings:
        aliases |= set(
            ResultLine.objects.filter(
                table__round__event_id=event_pk,
                table__round__kind=Round.Kind.PRELIMINARY,
                table__round__posting__isnull=False,
            )
            .values_list("player__alias", flat=True)
            .distinct()
        )
    return tuple(sorted(aliases, key=str.casefold))


@dataclass(frozen=True)
class FollowSeat:
    round_number: int
    round_kind: str
    wave: int
    scheduled_start: datetime.datetime | None
    table: int
    seat: int
    table_aliases: tuple[str, ...]


@dataclass(frozen=True)
class Follow:
    alias: str
    seat: FollowSeat | None  # None: tables not released, or not seated in a published round
    standing: PublicStanding | None  # None: standings not released, or no posted game yet
    columns: tuple[tuple[str, StrOrPromise], ...]
    # Where the format posts table winners instead of a ranking (a club): the posted
    # rounds in which this alias won their table.
    table_wins: tuple[int, ...] = ()
    by_table_winners: bool = False


def follow(*, event_pk: int, alias: str, release: Release) -> Follow | None:
    """Where ``alias`` sits this round and how they stand; None for an alias not public.

    "This round" is the round the hall display follows if its tables are published,
    otherwise the latest published round the alias is seated in.
    """
    if alias not in followable_aliases(event_pk=event_pk, release=release):
        return None
    seat = None
    if release.tables:
        seats = (
            Seat.objects.filter(
                round__event_id=event_pk,
                round__assignments_published=True,
                player__alias=alias,
            )
            .order_by("-round__number")
            .values(
                "round_id",
                "round__number",
                "round__kind",
                "table__number",
                "table__wave__number",
                "table__wave__scheduled_start",
                "position",
            )
        )
        current = hall_wave(event=Event(pk=event_pk))
        chosen = next(
            (s for s in seats if current is not None and s["round_id"] == current.round_id),
            None,
        ) or next(iter(seats), None)
        if chosen is not None:
            table_aliases = tuple(
                Seat.objects.filter(
                    round_id=chosen["round_id"], table__number=chosen["table__number"]
                )
                .order_by("position")
                .values_list("player__alias", flat=True)
            )
            seat = FollowSeat(
                round_number=chosen["round__number"],
                round_kind=chosen["round__kind"],
                wave=chosen["table__wave__number"],
                scheduled_start=chosen["table__wave__scheduled_start"],
                table=chosen["table__number"],
                seat=chosen["position"],
                table_aliases=table_aliases,
            )
    table = standings(event_pk=event_pk, release=release)
    standing = next((row for row in table.rows if row.alias == alias), None) if table else None
    return Follow(
        alias=alias,
        seat=seat,
        standing=standing,
        columns=table.columns if table else (),
        table_wins=tuple(
            winners.number
            for winners in (table.table_winners if table else ())
            if any(alias in aliases for _number, aliases in winners.tables)
        ),
        by_table_winners=table is not None and not table.rows and bool(table.table_winners),
    )
