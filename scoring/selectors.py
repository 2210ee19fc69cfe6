"""Reads for scoring: open ties, standings, what each table of a round is doing, CSV rows.

Standings are always computed from ``ResultLine`` rows, never stored, so a judge's
correction or tie decision shows everywhere at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from tournament.models import Clock, Event, Player, Round, Seat, Table

from .models import BankerLink, ResultLine, StandingsTieDecision, TableSheet, TieDecision
from .tie_breakers import TIE_BREAKERS, TieBreakers, format_points, tie_breakers_for

# --- Ties at a table -------------------------------------------------------------------------


def sheet_open_ties(*, sheet: TableSheet) -> list[tuple[str, ...]]:
    """Ties the engine left unresolved on this sheet that no head judge has decided yet."""
    ties = [tuple(sorted(tie)) for tie in (sheet.report or {}).get("unresolved_ties", [])]
    if not ties:
        return []
    decided = {
        tuple(sorted(d.players)) for d in TieDecision.objects.filter(table_id=sheet.table_id)
    }
    return [tie for tie in ties if tie not in decided]


def tie_decision_for(*, table: Table, tie: tuple[str, ...]) -> TieDecision | None:
    """The decision in force for a tied group: the latest one about exactly that group."""
    wanted = sorted(tie)
    decisions = TieDecision.objects.filter(table=table).order_by("-at", "-pk")
    return next((d for d in decisions if sorted(d.players) == wanted), None)


# --- Standings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    player_id: int
    alias: str
    games: int
    points: Decimal
    wins: int
    net_worth: int
    best_game: int
    rank: int
    # Level with another player on every tie-breaker and no head-judge decision yet.
    tied: bool
    # The registered person, for the officials' pages; None when asked for aliases only.
    player: Player | None = None

    def key(self, name: str) -> Decimal | int:
        """The player's value for one of ``TIE_BREAKERS``."""
        if name not in TIE_BREAKERS:
            raise KeyError(name)
        return getattr(self, name)


def counted_results(*, event: Event, only_posted: bool):
    """The result lines standings add up: preliminary games (posted ones, if asked)."""
    lines = ResultLine.objects.filter(
        table__round__event=event, table__round__kind=Round.Kind.PRELIMINARY
    )
    if only_posted:
        lines = lines.filter(table__round__posting__isnull=False)
    return lines


def standings(
    *,
    event: Event,
    only_posted: bool,
    tie_breakers: TieBreakers | None = None,
    with_players: bool = True,
) -> list[StandingRow]:
    """Every player with a counted game, best first, ranked by ``tie_breakers``.

    Only preliminary rounds count (the final is its own game). Points a player has not been
    given yet (an undecided tie) count as nothing; a posted round never has one. Ranks are
    shared by tied players (1, 2, 2, 4).

    The sums read aliases and numbers only; ``with_players=False`` keeps it that way, so the
    public pages rank with this same code without a registered name ever being loaded.
    """
    tie_breakers = tie_breakers or tie_breakers_for(event=event)
    games: dict[int, list[dict]] = {}
    lines = (
        counted_results(event=event, only_posted=only_posted)
        .order_by()
        .values("player_id", "player__alias", "place", "points", "net_worth")
    )
    for line in lines:
        games.setdefault(line["player_id"], []).append(line)
    players = Player.objects.in_bulk(list(games)) if with_players else {}
    unranked = [
        StandingRow(
            player_id=pk,
            alias=played[0]["player__alias"],
            games=len(played),
            rank=0,
            tied=False,
            player=players.get(pk),
            **{key: tie_breaker.total(played) for key, tie_breaker in TIE_BREAKERS.items()},
        )
        for pk, played in games.items()
    ]

    def strength(row: StandingRow) -> tuple:
        return tie_breakers.strength(row.key)

    unranked.sort(key=lambda r: (strength(r), r.alias))
    decisions = [
        [int(pk) for pk in order]
        for order in StandingsTieDecision.objects.filter(event=event)
        .order_by("-at", "-pk")
        .values_list("order", flat=True)
    ]
    ranked: list[StandingRow] = []
    index = 0
    while index < len(unranked):
        group = [r for r in unranked[index:] if strength(r) == strength(unranked[index])]
        rank = index + 1
        order = _decided_order(group, decisions)
        if len(group) == 1 or order is not None:
            group = order or group
            ranked.extend(
                _with(r, rank=rank + offset, tied=False) for offset, r in enumerate(group)
            )
        else:
            ranked.extend(_with(r, rank=rank, tied=True) for r in group)
        index += len(group)
    return ranked


def table_winners(*, event: Event, only_posted: bool) -> set[int]:
    """Players who won (place 1, shared or not) at least one counted preliminary table."""
    return set(
        counted_results(event=event, only_posted=only_posted)
        .filter(place=1)
        .values_list("player_id", flat=True)
    )


def _decided_order(
    group: list[StandingRow], decisions: list[list[int]]
) -> list[StandingRow] | None:
    ids = {r.player_id for r in group}
    for order in decisions:
        if ids <= set(order):
            return sorted(group, key=lambda r: order.index(r.player_id))
    return None


def _with(row: StandingRow, *, rank: int, tied: bool) -> StandingRow:
    return StandingRow(**{**row.__dict__, "rank": rank, "tied": tied})


# --- What each table of a round is doing -------------------------------------------------


class TableProgress:
    NOT_STARTED = "not_started"
    PLAYING = "playing"
    LAST_TURN = "last_turn"
    ENTERING = "entering"
    SIGNED = "signed"
    APPROVED = "approved"


@dataclass(frozen=True)
class TableStatusRow:
    table: Table
    number: int
    wave: int
    status: str
    sheet_version: int
    open_ties: int


def round_table_statuses(*, round_: Round) -> list[TableStatusRow]:
    """For the judges' desk: which tables are still playing, entering scores, or done.

    "entering" covers a finished game whose sheet is not signed yet (draft or submitted),
    and any table whose banker has already started a sheet.
    """
    started_waves = set(Clock.objects.filter(wave__round=round_).values_list("wave_id", flat=True))
    sheets = {s.table_id: s for s in TableSheet.objects.filter(table__round=round_)}
    rows = []
    for table in Table.objects.filter(round=round_).select_related("wave").order_by("number"):
        sheet = sheets.get(table.pk)
        if sheet is not None and sheet.status == TableSheet.Status.APPROVED:
            status = TableProgress.APPROVED
        elif sheet is not None and sheet.status == TableSheet.Status.SIGNED:
            status = TableProgress.SIGNED
        elif (sheet is not None and sheet.version > 0) or table.status in (
            Table.Status.FINISHED,
            Table.Status.SCORED,
        ):
            status = TableProgress.ENTERING
        elif table.status == Table.Status.LAST_TURN:
            status = TableProgress.LAST_TURN
        elif table.wave_id in started_waves:
            status = TableProgress.PLAYING
        else:
            status = TableProgress.NOT_STARTED
        rows.append(
            TableStatusRow(
                table=table,
                number=table.number,
                wave=table.wave.number,
                status=status,
                sheet_version=sheet.version if sheet else 0,
                open_ties=len(sheet_open_ties(sheet=sheet)) if sheet and sheet.is_locked else 0,
            )
        )
    return rows


# --- CSV rows (aliases only: these files are for posting) --------------------------------------


def results_csv_rows(*, round_: Round) -> list[list[str]]:
    """One row per player and table of the round, header first."""
    rows = [
        [
            _("Table"),
            _("Alias"),
            _("Bankrupt"),
            _("Net worth"),
            _("Unmortgaged property value"),
            _("Place"),
            _("Points"),
        ]
    ]
    lines = (
        ResultLine.objects.filter(table__round=round_)
        .select_related("table", "player")
        .order_by("table__number", "place", "player__alias")
    )
    for line in lines:
        rows.append(
            [
                str(line.table.number),
                line.player.alias,
                _("yes") if line.bankrupt else _("no"),
                str(line.net_worth),
                str(line.unmortgaged_property_value),
                "" if line.place is None else str(line.place),
                format_points(line.points),
            ]
        )
    return rows


def standings_csv_rows(*, event: Event, only_posted: bool) -> list[list[str]]:
    """One row per player, best first, header first; a column for every tie-breaker."""
    tie_breakers = TIE_BREAKERS.values()
    rows = [[_("Rank"), _("Alias"), _("Games"), *(capfirst(tb.label) for tb in tie_breakers)]]
    for row in standings(event=event, only_posted=only_posted):
        rank = f"{row.rank}=" if row.tied else str(row.rank)
        values = [tb.shown(row.key(tb.key)) for tb in tie_breakers]
        rows.append([rank, row.alias, str(row.games), *values])
    return rows


# --- The results pages ---------------------------------------------------------------------


def players_with_unposted_results(*, event: Event) -> set[int]:
    """Players whose standing includes a preliminary game from a round not posted yet.

    The organizer's standings count every result; this marks the rows the public does not
    see yet.
    """
    return set(
        ResultLine.objects.filter(
            table__round__event=event,
            table__round__kind=Round.Kind.PRELIMINARY,
            table__round__posting__isnull=True,
        ).values_list("player_id", flat=True)
    )


# --- The banker's tablet -------------------------------------------------------------------


def banker_link_active(*, table: Table) -> BankerLink | None:
    """The table's link in force, if the organizer has issued one."""
    return BankerLink.objects.filter(table=table, revoked_at__isnull=True).first()


def banker_link_table(*, key: str) -> Table | None:
    """The table a private key opens, or None for an unknown or revoked key."""
    link = (
        BankerLink.objects.filter(key=key, revoked_at__isnull=True)
        .select_related("table__round__event", "table__wave")
        .first()
    )
    return link.table if link else None


def banker_table_players(*, table: Table) -> list[Player]:
    """The players seated at the table, in seat order: the columns of the score sheet."""
    return [
        seat.player
        for seat in Seat.objects.filter(table=table).select_related("player").order_by("position")
    ]


def banker_sheet_get(*, table: Table) -> TableSheet | None:
    """The table's sheet, or None while nothing was saved (version 0 on the tablet)."""
    return TableSheet.objects.filter(table=table).prefetch_related("signatures").first()


# --- The event's winner ------------------------------------------------------------------


def event_winner(*, event: Event) -> Player | None:
    """The event's winner once it is settled and posted, else None.

    Championship and club events: the one player placed first in the posted final (000:
    "To arrive at a winner, you must have at least two rounds of play"; the last is the
    final). Junior events play one game, "with the competitor who accumulates the most
    assets (net worth) being the overall winner" (002): the top of the posted standings,
    when no one is level with them. Until then (the final not played or not posted, a tie
    the head judge has not decided) there is no winner.
    """
    if event.format == "junior":
        rows = standings(event=event, only_posted=True)
        if (
            not rows
            or rows[0].tied
            or Round.objects.filter(
                event=event, kind=Round.Kind.PRELIMINARY, posting__isnull=True
            ).exists()
        ):
            return None
        return rows[0].player
    winners = list(
        ResultLine.objects.filter(
            table__round__event=event,
            table__round__kind=Round.Kind.FINAL,
            table__round__posting__isnull=False,
            place=1,
        ).select_related("player")[:2]
    )
    return winners[0].player if len(winners) == 1 else None
