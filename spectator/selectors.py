"""What the public may see of an event: aliases and public facts, never a registered name.

This module (with ``following``, its part for one followed alias) is the one place the
public site reads the database, and it is where "aliases only" is enforced, not in the
templates: every query here selects columns by
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
from typing import TYPE_CHECKING, cast

from django.db import models
from django.db.models import Exists, OuterRef

from clock.selectors import hall_wave
from scoring.models import ResultLine, RoundPosting
from scoring.selectors import event_winner
from scoring.selectors import standings as scoring_standings
from scoring.tie_breakers import (
    TIE_BREAKERS,
    format_points,
    public_keys,
    tie_breakers_for,
    tie_broken_text,
)
from spectator.models import PAGES, PublicRelease
from tournament.formats import (
    POSTS_NET_WORTH,
    POSTS_POINTS,
    POSTS_TABLE_WINNERS,
    event_posts,
)
from tournament.models import Event, Round, Seat, Wave
from tournament.money import edition_of
from tournament.public_site import PublicSite
from tournament.services import default_registration_closes

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

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
    "registration_closes",
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
    # The edition's slug, for its currency: {{ amount|money:event }}.
    edition: str
    preliminary_rounds: int
    round_minutes: int
    # What the public sees of each game (tournament.formats.POSTS_*): Championship Rules, POSTING
    # SCORES, "Point scores (not net worth) will be posted", for a championship.
    posts: str = POSTS_POINTS
    # When pre-registration closes (the event home shows it).
    registration_closes: datetime.datetime | None = None

    @property
    def shows_points(self) -> bool:
        return self.posts == POSTS_POINTS

    @property
    def shows_net_worth(self) -> bool:
        return self.posts == POSTS_NET_WORTH

    @property
    def shows_table_winners(self) -> bool:
        return self.posts == POSTS_TABLE_WINNERS


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
        edition=event.edition,
        preliminary_rounds=event.preliminary_rounds,
        round_minutes=event.round_minutes,
        posts=event_posts(event=event),
        # Unset, the form closes at the default (three days before): say when.
        registration_closes=event.registration_closes
        or default_registration_closes(date=event.date, start_time=event.start_time),
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


def _label(page: str) -> str:
    """A page's name as the organizer's page calls it: its switch's (a model field's) name."""
    return str(cast(models.Field, PublicRelease._meta.get_field(page)).verbose_name)


def public_site(event_pk: int) -> PublicSite:
    """The switches and the hold as the officials' pages read them (registered in apps.py),
    with each page's name as the organizer's page calls it."""
    values = PublicRelease.objects.filter(event_id=event_pk).values(*PAGES, "held").first()
    values = values or {}
    return PublicSite(
        held=bool(values.get("held")),
        released=frozenset(page for page in PAGES if values.get(page)),
        labels={page: _label(page) for page in PAGES},
    )


@dataclass(frozen=True)
class HallRelease:
    """What the hall display and its polled state may show: the clock (the round, wave, time
    and announcements) and the wave's tables (numbers, statuses and aliases)."""

    clock: bool = False
    tables: bool = False


def hall_release(*, event: Event, wave: Wave | None) -> HallRelease:
    """The switches as the hall display reads them: the clock goes with the event home, the
    tables with the table assignments, and only once the wave's round is published."""
    if wave is None:
        return HallRelease()
    release = release_for(event_pk=event.pk)
    return HallRelease(
        clock=release.home, tables=release.tables and wave.round.assignments_published
    )


# --- Schedule and the current round ---------------------------------------------------------


@dataclass(frozen=True)
class PublicWave:
    number: int
    scheduled_start: datetime.datetime | None
    # When the head judge started its clock: the actual start of play (Tournament Kit, TIMEKEEPING:
    # "The exact starting time of play must be announced for each round").
    started_at: datetime.datetime | None = None


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
    # The actual start of play of the round and wave the hall follows; None before it.
    current_started_at: datetime.datetime | None = None

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
        .values("round_id", "number", "scheduled_start", "clock__started_at")
    ):
        waves.setdefault(wave["round_id"], []).append(
            PublicWave(
                number=wave["number"],
                scheduled_start=wave["scheduled_start"],
                started_at=wave["clock__started_at"],
            )
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
    current_waves = waves.get(current.round_id, ()) if current else ()
    return Schedule(
        rounds=rounds,
        current_round=current.round.number if current else None,
        current_wave=current.number if current else None,
        wave_count=len(current_waves),
        current_started_at=next(
            (w.started_at for w in current_waves if current and w.number == current.number),
            None,
        ),
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
    """One player's result as the public sees it: the format's ``posts`` decide whether
    the points, the net worth or the table-winner mark are filled; the rest stay empty,
    so a template cannot show what the format does not post."""

    alias: str
    place: int | None
    points: str
    net_worth: int | None
    bankrupt: bool
    table_winner: bool


@dataclass(frozen=True)
class PublicTableResult:
    number: int
    lines: tuple[PublicLine, ...]


def _posts(event_pk: int) -> str:
    return event_posts(event=Event.objects.only("format").get(pk=event_pk))


def _results(round_pk: int, posts: str) -> tuple[PublicTableResult, ...]:
    tables: dict[int, list[PublicLine]] = {}
    columns = ["table__number", "player__alias", "place", "bankrupt", "points"]
    if posts == POSTS_NET_WORTH:
        columns.append("net_worth")
    for line in (
        ResultLine.objects.filter(table__round_id=round_pk)
        .order_by("table__number", "place", "player__alias")
        .values(*columns)
    ):
        tables.setdefault(line["table__number"], []).append(
            PublicLine(
                alias=line["player__alias"],
                place=line["place"],
                points=format_points(line["points"]) if posts == POSTS_POINTS else "",
                net_worth=line.get("net_worth"),
                bankrupt=line["bankrupt"],
                table_winner=posts == POSTS_TABLE_WINNERS and line["place"] == 1,
            )
        )
    return tuple(PublicTableResult(number=n, lines=tuple(lines)) for n, lines in tables.items())


def round_results(
    *, event_pk: int, number: int, release: Release
) -> tuple[PublicTableResult, ...] | None:
    """A posted round's places per table, with what the format posts, or None until
    released and posted.

    Raises ``Round.DoesNotExist`` for a round the event does not have.
    """
    row = _round_row(event_pk, number)
    if not (release.results and row["posted"]):
        return None
    return _results(row["pk"], _posts(event_pk))


# --- Standings ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PublicStanding:
    place: str  # "3", or "3=" while level with someone and undecided
    alias: str
    games: int
    values: tuple[str, ...]  # one per public column, in the event's order
    # Level on the first key with the player above: what put this one below them, in words
    # (a key's name, or "decided by the head judge"); empty otherwise.
    tie_broken_by: str = ""


@dataclass(frozen=True)
class PublicRoundWinners:
    """A posted round's table winners (a club posts these, Tournament Kit)."""

    number: int
    tables: tuple[tuple[int, tuple[str, ...]], ...]  # (table number, winners' aliases)


@dataclass(frozen=True)
class PublicStandings:
    # (key, label) of the tie-breakers the public sees (scoring.tie_breakers.public_keys).
    columns: tuple[tuple[str, StrOrPromise], ...]
    # Every tie-breaker's label in the event's order, to say how the ranking is made.
    order: tuple[str, ...]
    rows: tuple[PublicStanding, ...]
    posted_rounds: tuple[int, ...]
    # The table winners of each posted round, where the format posts them instead of a
    # ranking; empty otherwise.
    table_winners: tuple[PublicRoundWinners, ...] = ()

    @property
    def tie_breaks(self) -> bool:
        """Whether any row says what broke a tie (the column is shown only then)."""
        return any(row.tie_broken_by for row in self.rows)


def _posted_preliminaries(event_pk: int) -> tuple[int, ...]:
    return tuple(
        RoundPosting.objects.filter(round__event_id=event_pk, round__kind=Round.Kind.PRELIMINARY)
        .order_by("round__number")
        .values_list("round__number", flat=True)
    )


def _table_winners(event_pk: int) -> tuple[PublicRoundWinners, ...]:
    rounds: dict[int, dict[int, list[str]]] = {}
    for line in (
        ResultLine.objects.filter(
            table__round__event_id=event_pk,
            table__round__kind=Round.Kind.PRELIMINARY,
            table__round__posting__isnull=False,
            place=1,
        )
        .order_by("table__round__number", "table__number", "player__alias")
        .values("table__round__number", "table__number", "player__alias")
    ):
        tables = rounds.setdefault(line["table__round__number"], {})
        tables.setdefault(line["table__number"], []).append(line["player__alias"])
    return tuple(
        PublicRoundWinners(
            number=number,
            tables=tuple((table, tuple(aliases)) for table, aliases in tables.items()),
        )
        for number, tables in rounds.items()
    )


def standings(*, event_pk: int, release: Release) -> PublicStandings | None:
    """Posted preliminary rounds ranked by the event's tie-breaker order, showing only the
    columns the format posts, or None until the organizer releases the standings. A club
    posts each round's table winners instead of a ranking."""
    if not release.standings:
        return None
    event = _event(event_pk)
    order = tuple(str(TIE_BREAKERS[key].label) for key in tie_breakers_for(event=event).keys)
    shown = [TIE_BREAKERS[key] for key in public_keys(event=event)]
    posted = _posted_preliminaries(event_pk)
    if event_posts(event=event) == POSTS_TABLE_WINNERS:
        return PublicStandings(
            columns=(),
            order=order,
            rows=(),
            posted_rounds=posted,
            table_winners=_table_winners(event_pk),
        )
    ranked = scoring_standings(event=event, only_posted=True, with_players=False)
    edition = edition_of(event)
    rows = tuple(
        PublicStanding(
            place=f"{row.rank}=" if row.tied else str(row.rank),
            alias=row.alias,
            games=row.games,
            values=tuple(tb.text(row.key(tb.key), edition=edition) for tb in shown),
            tie_broken_by=tie_broken_text(row.broken_by) if row.broken_by else "",
        )
        for row in ranked
    )
    return PublicStandings(
        columns=tuple((tb.key, tb.label) for tb in shown),
        order=order,
        rows=rows,
        posted_rounds=posted,
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
    rows = list(_rounds(event_pk).filter(kind__in=[Round.Kind.SEMIFINAL, Round.Kind.FINAL]))
    posts = _posts(event_pk) if rows else POSTS_POINTS
    return tuple(
        PublicStage(
            number=row["number"],
            kind=row["kind"],
            kind_label=str(kinds[row["kind"]]),
            tables=_tables(row),
            results=_results(row["pk"], posts) if row["posted"] else None,
        )
        for row in rows
    )


@dataclass(frozen=True)
class Winner:
    aliases: tuple[str, ...]  # more than one only if the head judge left first place shared
    round_number: int
    by_final: bool
    # Only where the format posts net worth (a junior event's winner has the most assets).
    net_worth: int | None


def winner(*, event_pk: int, release: Release) -> Winner | None:
    """The event's winner (``scoring.selectors.event_winner``), or None until it is known
    and the organizer has released the winner page."""
    if not release.winner:
        return None
    event = _event(event_pk)
    found = event_winner(event=event, with_players=False)
    if found is None:
        return None
    shows_net_worth = event_posts(event=event) == POSTS_NET_WORTH
    return Winner(
        aliases=found.aliases,
        round_number=found.round_number,
        by_final=found.by_final,
        net_worth=max(line.net_worth for line in found.lines) if shows_net_worth else None,
    )
