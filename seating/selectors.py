"""Read-side queries for seating: a round's tables and seats, the seating page, seat searches."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from players.selectors import event_players
from tournament.models import Event, Player, Round, Seat, Table, Wave
from tournament.play_order import play_order_from

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# Tables listed at once on the seating page, a round at a time.
SEATING_PAGE_SIZE = 50


@dataclass(frozen=True)
class RolledPlayer:
    """One place in a token-choice or play order, with the dice that decided it."""

    player: Player
    rolls: list[int]


@dataclass(frozen=True)
class TableSeating:
    """A table as officials see it: seats in order and, once rolled, the orders of play.

    ``rolled_by`` is "app", "table" (recorded from physical dice) or "" when not rolled;
    ``roll_stale`` says the seats changed since the roll, so it must be rolled again.
    ``play_order`` starts with the highest roller and follows the seats round the table.
    """

    table: Table
    seats: list[Seat]
    token_order: list[RolledPlayer]
    play_order: list[RolledPlayer]
    rolled_by: str
    roll_stale: bool

    def play_position(self, player_id: int) -> int | None:
        """1 for the player who starts, 2 for the next to the left...; None until rolled."""
        ids = [entry.player.pk for entry in self.play_order]
        return ids.index(player_id) + 1 if player_id in ids else None


@dataclass(frozen=True)
class WaveSeating:
    wave: Wave
    tables: list[TableSeating]


@dataclass(frozen=True)
class RoundSeating:
    """One round's tables grouped by wave, with the engine's report for it."""

    round: Round
    waves: list[WaveSeating]
    report: dict
    seated: int

    @property
    def tables(self) -> list[TableSeating]:
        return [table for wave in self.waves for table in wave.tables]


def _rolled(order: list, rolls: dict, players: dict[int, Player]) -> list[RolledPlayer]:
    # Stored ids may name someone no longer at the table after a change; skip them.
    return [
        RolledPlayer(player=players[pk], rolls=list(rolls.get(str(pk), [])))
        for pk in order
        if pk in players
    ]


def _table_seating(table: Table) -> TableSeating:
    seats = list(table.seats.all())
    players = {seat.player_id: seat.player for seat in seats}
    stored = table.play_order or {}
    rolled = stored.get("play_order", [])
    # Older rolls stored only the order; its first player is the one who started.
    starter = stored.get("starter", rolled[0] if rolled else None)
    stale = bool(stored) and sorted(rolled) != sorted(players)
    # Derived from today's seats, so a swap within the table keeps "to the left" true.
    order = [] if stale or starter is None else play_order_from(list(players), starter=starter)
    return TableSeating(
        table=table,
        seats=seats,
        token_order=_rolled(stored.get("token_order", []), stored.get("token_rolls", {}), players),
        play_order=_rolled(order, stored.get("order_rolls", {}), players),
        rolled_by=stored.get("source", ""),
        roll_stale=stale,
    )


def table_seating(*, table: Table) -> TableSeating:
    """One table with its seats and, once rolled, its token choice and order of play."""
    table = (
        Table.objects.filter(pk=table.pk)
        .select_related("wave")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        .get()
    )
    return _table_seating(table)


def _round_tables(*, round_: Round) -> QuerySet[Table]:
    # One query for tables, one for seats with their players and the event (for flags).
    return (
        Table.objects.filter(round=round_)
        .select_related("wave")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("player__event").order_by("position"),
            )
        )
        .order_by("wave__number", "number")
    )


def round_seating(*, round_: Round) -> RoundSeating:
    """A round's tables in wave order, each with its seats and any rolled play order."""
    waves: dict[int, WaveSeating] = {}
    for table in _round_tables(round_=round_):
        wave = waves.setdefault(table.wave.number, WaveSeating(wave=table.wave, tables=[]))
        wave.tables.append(_table_seating(table))
    ordered = [waves[number] for number in sorted(waves)]
    return RoundSeating(
        round=round_,
        waves=ordered,
        report=round_.seating_report or {},
        seated=sum(len(t.seats) for w in ordered for t in w.tables),
    )


def preliminary_rounds(*, event: Event) -> QuerySet[Round]:
    """The rounds pre-seating fills, in order; empty until the first pre-seat."""
    return Round.objects.filter(event=event, kind=Round.Kind.PRELIMINARY).order_by("number")


def event_seating(*, event: Event) -> list[RoundSeating]:
    """Every preliminary round of ``event`` with its tables, for the organizer's page."""
    return [round_seating(round_=round_) for round_ in preliminary_rounds(event=event)]


def final_stage_seating(*, event: Event) -> list[RoundSeating]:
    """The rounds after the preliminaries (semifinals, the final) with their tables: the
    seating page gives their tables a banker."""
    rounds = Round.objects.filter(event=event).exclude(kind=Round.Kind.PRELIMINARY)
    return [round_seating(round_=round_) for round_ in rounds.order_by("number")]


@dataclass(frozen=True)
class RoundState:
    """A preliminary round as the seating page's tabs name it."""

    round: Round
    tables: int
    played: int  # tables finished or scored

    @property
    def is_played(self) -> bool:
        """Every table's game is over: the round has been played."""
        return self.round.has_started and self.tables > 0 and self.played == self.tables


@dataclass(frozen=True)
class SeatingPage:
    """One round of the organizer's seating page: a page of its tables and who is left out.

    ``unseated_alternates`` are the alternates checked in who have no seat in this round:
    the organizer should know who is waiting at the desk.
    """

    rounds: list[RoundState]
    current: RoundState | None
    seating: RoundSeating | None
    page: Page | None
    unseated_alternates: list[Player]


def _round_states(*, event: Event) -> list[RoundState]:
    over = (Table.Status.FINISHED, Table.Status.SCORED)
    rounds = preliminary_rounds(event=event).annotate(
        table_count=Count("tables", distinct=True),
        played_count=Count("tables", filter=Q(tables__status__in=over), distinct=True),
    )
    return [RoundState(round=r, tables=r.table_count, played=r.played_count) for r in rounds]


def _default_round(states: list[RoundState]) -> RoundState | None:
    """The round the organizer works on now: the first not yet played, else the last."""
    return next((s for s in states if not s.is_played), states[-1] if states else None)


def seating_page(
    *, event: Event, round_number: object = None, page: int | str | None = 1
) -> SeatingPage:
    """The seating page's round (``round_number``, else the one being worked on) with one
    page of its tables; a constant number of queries whatever the event's size."""
    states = _round_states(event=event)
    chosen = next((s for s in states if str(s.round.number) == str(round_number)), None)
    current = chosen or _default_round(states)
    if current is None:
        return SeatingPage(states, None, None, None, [])
    round_ = current.round
    paginator = Paginator(_round_tables(round_=round_), SEATING_PAGE_SIZE)
    tables_page = paginator.get_page(page)
    waves: dict[int, WaveSeating] = {}
    for table in tables_page.object_list:
        wave = waves.setdefault(table.wave.number, WaveSeating(wave=table.wave, tables=[]))
        wave.tables.append(_table_seating(table))
    seating = RoundSeating(
        round=round_,
        waves=[waves[number] for number in sorted(waves)],
        report=round_.seating_report or {},
        seated=Seat.objects.filter(round=round_).count(),
    )
    alternates = list(
        event_players(event=event)
        .filter(status=Player.Status.ALTERNATE, checked_in_at__isnull=False)
        .exclude(seats__round=round_)
        .order_by("alternate_position")
    )
    return SeatingPage(states, current, seating, tables_page, alternates)


def seating_table_page(*, table: Table) -> int:
    """The page of the seating page's round on which ``table`` is shown."""
    wave = table.wave.number
    before = Table.objects.filter(round_id=table.round_id).filter(
        Q(wave__number__lt=wave) | Q(wave__number=wave, number__lt=table.number)
    )
    return before.count() // SEATING_PAGE_SIZE + 1


def seating_csv_rows(*, event: Event) -> list[list[str]]:
    """Every seat of every round, header first, by alias: where each player sat and their
    place in the order of play (1 starts; empty until the table has rolled)."""
    rows = [[_("Round"), _("Stage"), _("Table"), _("Seat"), _("Alias"), _("Play order")]]
    for round_ in Round.objects.filter(event=event).order_by("number"):
        for table in round_seating(round_=round_).tables:
            for seat in table.seats:
                position = table.play_position(seat.player_id)
                rows.append(
                    [
                        str(round_.number),
                        round_.kind,
                        str(table.table.number),
                        str(seat.position),
                        seat.player.alias,
                        "" if position is None else str(position),
                    ]
                )
    return rows


def round_seat_get(*, round_: Round, player_pk: int) -> Seat:
    """Where a player sits in ``round_``; raises ``Seat.DoesNotExist`` if unseated there."""
    return Seat.objects.select_related("round__event", "table", "player").get(
        round=round_, player_id=player_pk
    )


def round_seated_count(*, round_: Round) -> int:
    return Seat.objects.filter(round=round_).count()


def round_seats_of(*, round_: Round, player_pks: Sequence[int]) -> dict[int, Seat]:
    """The seats of these players in ``round_`` by player pk; the unseated are left out."""
    seats = Seat.objects.filter(round=round_, player_id__in=player_pks).select_related(
        "table", "player"
    )
    return {seat.player_id: seat for seat in seats}


@dataclass(frozen=True)
class SeatFind:
    """A page of the seats a search matched, and how many matched in all."""

    seats: list[Seat]
    total: int


def round_seat_find(*, round_: Round, find: str, limit: int) -> SeatFind:
    """Seats of ``round_`` whose player's alias contains ``find`` (any case), or at the
    table numbered ``find``; by table and seat, at most ``limit`` of them."""
    find = find.strip()
    if not find:
        return SeatFind([], 0)
    matches = Q(player__alias__icontains=find)
    if find.isascii() and find.isdigit() and len(find) < 6:
        matches |= Q(table__number=int(find))
    seats = Seat.objects.filter(matches, round=round_)
    page = seats.select_related("table", "player").order_by("table__number", "position")
    return SeatFind(list(page[:limit]), seats.count())


def round_tables_numbered(*, round_: Round, numbers: Iterable[int]) -> list[TableSeating]:
    """Only these tables of ``round_``, each with its seats, in the round's order."""
    tables = _round_tables(round_=round_).filter(number__in=list(numbers))
    return [_table_seating(table) for table in tables]


def banker_choices() -> QuerySet[User]:
    """Everyone who may keep a table's bank: the Banker group, direct grants, superusers."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    granted = Q(groups__permissions__codename="bank_event") | Q(
        user_permissions__codename="bank_event"
    )
    return (
        get_user_model()
        .objects.filter(granted | Q(is_superuser=True), is_active=True)
        .distinct()
        .order_by("username")
    )
