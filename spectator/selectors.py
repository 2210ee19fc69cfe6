"""What the public may see of an event: aliases and public facts, never a registered name.

This module is the one place the public site reads the database, and it is where
"aliases only" is enforced, not in the templates: every query here selects columns by
name with ``.values()`` / ``.values_list()`` / ``.only()`` and never a player's first or
last name, email, telephone, address, city, postal code, date of birth, guardian or
signature; a player is reached only as ``player__alias`` (and ``player_id`` where a
head judge's stored order must be matched). What leaves the module are frozen dataclasses
of strings, numbers and dates, so a template cannot reach a ``Player`` even by mistake,
and the crawl test in tests/spectator checks the HTML anyway.

Release rules live here too: a function returns ``None`` (or an empty result) for what
the organizer has not released, so the views only choose between "the page" and "nothing
is posted yet".
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Exists, OuterRef

from scoring.models import ResultLine, RoundPosting
from scoring.selectors import standings as scoring_standings
from scoring.tie_breakers import TIE_BREAKERS, format_points, tie_breakers_for
from tournament.clock_selectors import HallRelease, hall_wave
from tournament.formats import RANKING_ASSETS, event_ranking
from tournament.models import Event, Round, Seat, Wave

from .models import PAGES, PublicRelease

# --- The event and its switches ------------------------------------------------------------

# The Event columns the public pages show; contact details and money stay out.
_EVENT_FIELDS = (
    "pk",
    "name",
    "organization",
    "venue",
    "date",
    "start_time",
    "format",
    "edition",
    "preliminary_rounds",
    "round_minutes",
    "tie_breakers",
)


@dataclass(frozen=True)
class PublicEvent:
    pk: int
    name: str
    organization: str
    venue: str
    date: datetime.date
    start_time: datetime.time
    format_label: str
    edition_label: str
    preliminary_rounds: int
    round_minutes: int


def public_event(*, pk: int) -> PublicEvent:
    """An event's public facts; raises ``Event.DoesNotExist`` for an unknown one."""
    event = Event.objects.only(*_EVENT_FIELDS).get(pk=pk)
    return PublicEvent(
        pk=event.pk,
        name=event.name,
        organization=event.organization,
        venue=event.venue,
        date=event.date,
        start_time=event.start_time,
        format_label=str(event.get_format_display()),
        edition_label=str(event.get_edition_display()),
        preliminary_rounds=event.preliminary_rounds,
        round_minutes=event.round_minutes,
    )


def _event(pk: int) -> Event:
    # Only what ranking and formats read; never the contact details.
    return Event.objects.only(*_EVENT_FIELDS).get(pk=pk)


@dataclass(frozen=True)
class Release:
    """Which pages the organizer has released (all False until the first switch)."""

    home: bool = False
    tables: bool = False
    results: bool = False
    standings: bool = False
    final: bool = False
    winner: bool = False

    @property
    def follow(self) -> bool:
        """Following an alias shows where it sits and how it stands: either will do."""
        return self.tables or self.standings


def release_for(*, event_pk: int) -> Release:
    values = PublicRelease.objects.filter(event_id=event_pk).values(*PAGES).first()
    return Release(**values) if values else Release()


def hall_release(event_pk: int) -> HallRelease:
    """The switches as the hall display reads them (registered in apps.py): the clock goes
    with the event home, the tables with the table assignments."""
    release = release_for(event_pk=event_pk)
    return HallRelease(clock=release.home, tables=release.tables)


# --- Schedule and the current round ---------------------------------------------------------


@dataclass(frozen=True)
class PublicWave:
    number: int
    scheduled_start: datetime.datetime | None


@dataclass(frozen=True)
class PublicRoundInfo:
    number: int
    kind: str
    kind_label: str
    waves: tuple[PublicWave, ...]
    tables_public: bool
    results_public: bool


@dataclass(frozen=True)
class Schedule:
    rounds: tuple[PublicRoundInfo, ...]
    current_round: int | None
    current_wave: int | None
    wave_count: int

    @property
    def has_final(self) -> bool:
        return any(r.kind == Round.Kind.FINAL for r in self.rounds)


def _rounds(event_pk: int):
    posted = RoundPosting.objects.filter(round=OuterRef("pk"))
    return (
        Round.objects.filter(event_id=event_pk)
        .annotate(posted=Exists(posted))
        .order_by("number")
        .values("pk", "number", "kind", "assignments_published", "posted")
    )


def schedule(*, event_pk: int, release: Release) -> Schedule:
    """Every round with its waves' start times, which of its pages are public, and the
    round and wave the hall display follows (the one being played, or the next)."""
    waves: dict[int, list[PublicWave]] = {}
    for wave in (
        Wave.objects.filter(round__event_id=event_pk)
        .order_by("number")
        .values("round_id", "number", "scheduled_start")
    ):
        waves.setdefault(wave["round_id"], []).append(
            PublicWave(number=wave["number"], scheduled_start=wave["scheduled_start"])
        )
    kinds = dict(Round.Kind.choices)
    rounds = tuple(
        PublicRoundInfo(
            number=r["number"],
            kind=r["kind"],
            kind_label=str(kinds.get(r["kind"], r["kind"])),
            waves=tuple(waves.get(r["pk"], ())),
            tables_public=release.tables and r["assignments_published"],
            results_public=release.results and r["posted"],
        )
        for r in _rounds(event_pk)
    )
    # hall_wave reads only waves, rounds and clocks (no player), on a bare event id.
    current = hall_wave(event=Event(pk=event_pk))
    return Schedule(
        rounds=rounds,
        current_round=current.round.number if current else None,
        current_wave=current.number if current else None,
        wave_count=len(waves.get(current.round_id, ())) if current else 0,
    )


# --- Tables ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PublicTable:
    number: int
    wave: int
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class PublicRoundTables:
    number: int
    kind: str
    waves: tuple[tuple[PublicWave, tuple[PublicTable, ...]], ...]


def _round_row(event_pk: int, number: int) -> dict:
    """Raises ``Round.DoesNotExist`` for a round the event does not have."""
    row = _rounds(event_pk).filter(number=number).first()
    if row is None:
        raise Round.DoesNotExist
    return row


def _seats(round_pk: int) -> dict[int, tuple[int, list[str]]]:
    """Table number -> (wave number, aliases in seat order), from seats alone."""
    tables: dict[int, tuple[int, list[str]]] = {}
    for seat in (
        Seat.objects.filter(round_id=round_pk)
        .order_by("table__number", "position")
        .values("table__number", "table__wave__number", "player__alias")
    ):
        tables.setdefault(seat["table__number"], (seat["table__wave__number"], []))[1].append(
            seat["player__alias"]
        )
    return tables


def _tables(round_row: dict) -> PublicRoundTables:
    starts = {
        w["number"]: w["scheduled_start"]
        for w in Wave.objects.filter(round_id=round_row["pk"]).values("number", "scheduled_start")
    }
    by_wave: dict[int, list[PublicTable]] = {}
    for number, (wave, aliases) in _seats(round_row["pk"]).items():
        by_wave.setdefault(wave, []).append(
            PublicTable(number=number, wave=wave, aliases=tuple(aliases))
        )
    return PublicRoundTables(
        number=round_row["number"],
        kind=round_row["kind"],
        waves=tuple(
            (PublicWave(number=w, scheduled_start=starts.get(w)), tuple(by_wave[w]))
            for w in sorted(by_wave)
        ),
    )


def round_tables(*, event_pk: int, number: int, release: Release) -> PublicRoundTables | None:
    """A round's tables by wave and alias, or None until released and published.

    Raises ``Round.DoesNotExist`` for a round the event does not have.
    """
    row = _round_row(event_pk, number)
    if not (release.tables and row["assignments_published"]):
        return None
    return _tables(row)


# --- Round results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PublicLine:
    alias: str
    place: int | None
    points: str
    net_worth: int
    bankrupt: bool


@dataclass(frozen=True)
class PublicTableResult:
    number: int
    lines: tuple[PublicLine, ...]


def _results(round_pk: int) -> tuple[PublicTableResult, ...]:
    tables: dict[int, list[PublicLine]] = {}
    for line in (
        ResultLine.objects.filter(table__round_id=round_pk)
        .order_by("table__number", "place", "player__alias")
        .values("table__number", "player__alias", "place", "points", "net_worth", "bankrupt")
    ):
        tables.setdefault(line["table__number"], []).append(
            PublicLine(
                alias=line["player__alias"],
                place=line["place"],
                points=format_points(line["points"]),
                net_worth=line["net_worth"],
                bankrupt=line["bankrupt"],
            )
        )
    return tuple(PublicTableResult(number=n, lines=tuple(lines)) for n, lines in tables.items())


def round_results(
    *, event_pk: int, number: int, release: Release
) -> tuple[PublicTableResult, ...] | None:
    """A posted round's places and points per table, or None until released and posted.

    Raises ``Round.DoesNotExist`` for a round the event does not have.
    """
    row = _round_row(event_pk, number)
    if not (release.results and row["posted"]):
        return None
    return _results(row["pk"])


# --- Standings ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PublicStanding:
    place: str  # "3", or "3=" while level with someone and undecided
    alias: str
    games: int
    values: tuple[str, ...]  # one per tie-breaker key, in the event's order


@dataclass(frozen=True)
class PublicStandings:
    columns: tuple[tuple[str, str], ...]  # (key, label) per tie-breaker, in the event's order
    rows: tuple[PublicStanding, ...]
    posted_rounds: tuple[int, ...]
    by_assets: bool


def standings(*, event_pk: int, release: Release) -> PublicStandings | None:
    """Posted preliminary rounds ranked by the event's tie-breaker order, or None until
    the organizer releases the standings."""
    if not release.standings:
        return None
    event = _event(event_pk)
    keys = tie_breakers_for(event=event).keys
    shown = [TIE_BREAKERS[key] for key in keys]
    ranked = scoring_standings(event=event, only_posted=True, with_players=False)
    rows = tuple(
        PublicStanding(
            place=f"{row.rank}=" if row.tied else str(row.rank),
            alias=row.alias,
            games=row.games,
            values=tuple(tb.shown(row.key(tb.key)) for tb in shown),
        )
        for row in ranked
    )
    posted = tuple(
        RoundPosting.objects.filter(round__event_id=event_pk, round__kind=Round.Kind.PRELIMINARY)
        .order_by("round__number")
        .values_list("round__number", flat=True)
    )
    return PublicStandings(
        columns=tuple((tb.key, tb.label) for tb in shown),
        rows=rows,
        posted_rounds=posted,
        by_assets=event_ranking(event=event) == RANKING_ASSETS,
    )


# --- The final and the winner -------------------------------------------------------------------


@dataclass(frozen=True)
class PublicStage:
    """A semifinal or the final: its tables by alias and, once posted, its results."""

    number: int
    kind: str
    kind_label: str
    tables: PublicRoundTables
    results: tuple[PublicTableResult, ...] | None


def final_stages(*, event_pk: int, release: Release) -> tuple[PublicStage, ...] | None:
    """The semifinal (if any) and the final as seated, or None until the organizer
    releases the final table; an empty tuple while the final is not seated yet."""
    if not release.final:
        return None
    kinds = dict(Round.Kind.choices)
    return tuple(
        PublicStage(
            number=row["number"],
            kind=row["kind"],
            kind_label=str(kinds[row["kind"]]),
            tables=_tables(row),
            results=_results(row["pk"]) if row["posted"] else None,
        )
        for row in _rounds(event_pk).filter(kind__in=[Round.Kind.SEMIFINAL, Round.Kind.FINAL])
    )


@dataclass(frozen=True)
class Winner:
    aliases: tuple[str, ...]  # more than one only if the head judge left first place shared
    net_worth: int


def winner(*, event_pk: int, release: Release) -> Winner | None:
    """First place at the posted final, or None until it is released and posted."""
    if not release.winner:
        return None
    final = _rounds(event_pk).filter(kind=Round.Kind.FINAL, posted=True).last()
    if final is None:
        return None
    lines = list(
        ResultLine.objects.filter(table__round_id=final["pk"], place=1)
        .order_by("player__alias")
        .values_list("player__alias", "net_worth")
    )
    if not lines:
        return None
    return Winner(aliases=tuple(a for a, _n in lines), net_worth=max(n for _a, n in lines))


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
    columns: tuple[tuple[str, str], ...]


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
    return Follow(alias=alias, seat=seat, standing=standing, columns=table.columns if table else ())
