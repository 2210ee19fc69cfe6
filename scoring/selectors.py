"""Reads for scoring: open ties, standings, what each table of a round is doing, CSV rows.

Standings are always computed from ``ResultLine`` rows, never stored, so a judge's
correction or tie decision shows everywhere at once.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from knockout.bracket import TABLE_WINNERS, WINNERS_ASSETS, BracketPlan
from knockout.selectors import confirmed_plan
from scoring.models import (
    BankerLink,
    ResultLine,
    RoundPosting,
    StandingsTieDecision,
    TableSheet,
    TieDecision,
)
from scoring.tie_breakers import (
    TIE_BREAKERS,
    Game,
    TieBreakers,
    format_points,
    tie_breakers_for,
    tie_broken_by,
)
from tournament.formats import RANKING_POINTS, event_has_final, event_is_knockout, event_ranking
from tournament.models import Event, Player, Round, Seat, Table

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

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
    unmortgaged: int
    rank: int
    # Level with another player on every tie-breaker and no head-judge decision yet.
    tied: bool
    # The registered person, for the officials' pages; None when asked for aliases only.
    player: Player | None = None
    # Level on the first key with the player above: the key that put this one below, or
    # tie_breakers.DECIDED_BY_HEAD_JUDGE; empty otherwise (and while still tied).
    broken_by: str = ""

    @property
    def registered(self) -> Player:
        """``player``, on standings read with the players (``standings``' default)."""
        if self.player is None:
            raise ValueError("these standings were read without the players (aliases only)")
        return self.player

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


def _totals(played: Sequence[Game]) -> dict[str, Any]:
    """Every ``TIE_BREAKERS`` key's total over ``played``: the ``StandingRow`` fields."""
    return {key: tie_breaker.total(played) for key, tie_breaker in TIE_BREAKERS.items()}


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
        .values(
            "player_id",
            "player__alias",
            "place",
            "points",
            "net_worth",
            "unmortgaged_property_value",
        )
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
            **_totals(played),
        )
        for pk, played in games.items()
    ]

    # Worked out once a player: the sort and the grouping below both ask for it.
    strengths = {row.player_id: tie_breakers.strength(row.key) for row in unranked}

    def strength(row: StandingRow) -> tuple:
        return strengths[row.player_id]

    unranked.sort(key=lambda r: (strength(r), r.alias))
    decisions = [
        [int(pk) for pk in order]
        for order in StandingsTieDecision.objects.filter(event=event)
        .order_by("-at", "-pk")
        .values_list("order", flat=True)
    ]
    ranked: list[StandingRow] = []
    index = 0
    # Sorted by strength, so players level on every tie-breaker stand together: one pass.
    for _strength, level in itertools.groupby(unranked, key=strength):
        group = list(level)
        rank = index + 1
        order = _decided_order(group, decisions) if len(group) > 1 else None
        if len(group) == 1 or order is not None:
            group = order or group
            ranked.extend(
                _with(r, rank=rank + offset, tied=False) for offset, r in enumerate(group)
            )
        else:
            ranked.extend(_with(r, rank=rank, tied=True) for r in group)
        index += len(group)
    return _tie_breaks_noted(ranked, keys=tie_breakers.keys)


def _tie_breaks_noted(rows: list[StandingRow], *, keys: tuple[str, ...]) -> list[StandingRow]:
    """Each row below a player it is level with on the first key says what parted them."""
    noted = rows[:1]
    for upper, lower in itertools.pairwise(rows):
        still_tied = lower.tied and lower.rank == upper.rank
        broken = None if still_tied else tie_broken_by(keys=keys, upper=upper, lower=lower)
        noted.append(StandingRow(**{**lower.__dict__, "broken_by": broken or ""}))
    return noted


# --- The event's winner ----------------------------------------------------------------


@dataclass(frozen=True)
class WinnerLine:
    player_id: int
    alias: str
    net_worth: int
    # The registered person, for the officials' pages; None when asked for aliases only.
    player: Player | None = None


@dataclass(frozen=True)
class EventWinner:
    """Who won the event, once that is known; the one answer every page and form uses.

    ``lines`` has more than one entry only if the head judge left first place at the
    final shared. ``round_number`` is the round that decided it: the final, or the one
    round of a format without a final.
    """

    lines: tuple[WinnerLine, ...]
    round_number: int
    by_final: bool

    @property
    def aliases(self) -> tuple[str, ...]:
        return tuple(line.alias for line in self.lines)

    @property
    def player(self) -> Player | None:
        """The one winner, for what only one person can receive (the Winner Notification);
        None while first place is shared or when asked for aliases only."""
        return self.lines[0].player if len(self.lines) == 1 else None


def event_winner(*, event: Event, with_players: bool = True) -> EventWinner | None:
    """The event's winner, or None until it is known.

    With a final (championship, club): first place at the final, once the final is posted.
    Without one (Championship Rules, JUNIOR: "the competitor who accumulates the most assets (net
    worth) being the overall winner"): the top of the posted standings once every preliminary
    round is posted, in the format's order (net worth, then unmortgaged property value,
    Championship Rules, TIE BREAKERS), then the head judge's standings decision; None while players
    are level at the top and undecided. An ejected player does not win.
    """
    if event_has_final(event=event):
        return _final_winner(event=event, with_players=with_players)
    preliminaries = Round.objects.filter(event=event, kind=Round.Kind.PRELIMINARY)
    if not preliminaries.exists() or preliminaries.filter(posting__isnull=True).exists():
        return None
    ejected = set(
        Player.objects.filter(event=event, status=Player.Status.EJECTED).values_list(
            "pk", flat=True
        )
    )
    rows = [
        row
        for row in standings(event=event, only_posted=True, with_players=with_players)
        if row.player_id not in ejected
    ]
    if not rows or (len(rows) > 1 and rows[0].tied and rows[1].rank == rows[0].rank):
        return None
    top = rows[0]
    last = preliminaries.order_by("-number").values_list("number", flat=True)[0]  # some exist
    return EventWinner(
        lines=(WinnerLine(top.player_id, top.alias, top.net_worth, top.player),),
        round_number=last,
        by_final=False,
    )


def _final_winner(*, event: Event, with_players: bool) -> EventWinner | None:
    final = (
        Round.objects.filter(event=event, kind=Round.Kind.FINAL, posting__isnull=False)
        .order_by("-number")
        .first()
    )
    if final is None:
        return None
    lines = list(
        ResultLine.objects.filter(table__round=final, place=1)
        .order_by("player__alias")
        .values("player_id", "player__alias", "net_worth")
    )
    if not lines:
        return None
    players = Player.objects.in_bulk([line["player_id"] for line in lines]) if with_players else {}
    return EventWinner(
        lines=tuple(
            WinnerLine(
                line["player_id"],
                line["player__alias"],
                line["net_worth"],
                players.get(line["player_id"]),
            )
            for line in lines
        ),
        round_number=final.number,
        by_final=True,
    )


@dataclass(frozen=True)
class TableWinners:
    """Who finished first at one table: one player, or several while first place is shared
    (or none while the sheet is not in)."""

    table: Table
    winners: tuple[Player, ...]

    @property
    def winner(self) -> Player | None:
        return self.winners[0] if len(self.winners) == 1 else None


def round_table_winners(*, round_: Round) -> list[TableWinners]:
    """Each table of ``round_`` with its place-1 players, by table number.

    At the end of a game "there is an outright winner" (the last player left, whom the
    engine places first) or the player "having the highest total assets at their table"
    (Tournament Kit, THE DAY OF THE TOURNAMENT); a tie on assets goes to the higher unmortgaged
    property value and then to the head judge, whose order the result lines carry.
    """
    firsts: dict[int, list[Player]] = {}
    for line in (
        ResultLine.objects.filter(table__round=round_, place=1)
        .select_related("player")
        .order_by("player__alias")
    ):
        firsts.setdefault(line.table_id, []).append(line.player)
    return [
        TableWinners(table=table, winners=tuple(firsts.get(table.pk, ())))
        for table in Table.objects.filter(round=round_).order_by("number")
    ]


@dataclass(frozen=True)
class KnockoutRound:
    round: Round
    posted: bool
    tables: list[TableWinners]


@dataclass(frozen=True)
class KnockoutProgress:
    """A club knockout as it stands: its confirmed bracket, the rounds seated so far with
    each table's winner once posted, and what the organizer seats next."""

    plan: BracketPlan | None
    rounds: list[KnockoutRound]
    # "round" (the next preliminary round), "final", or "" while nothing can be seated.
    next_stage: str
    next_number: int | None
    # The last round seated, while it is not posted yet: the next stage waits for it.
    waiting_for: Round | None


def knockout_progress(*, event: Event) -> KnockoutProgress | None:
    """None for an event that is not a knockout (Tournament Kit, THE DAY OF THE TOURNAMENT)."""
    if not event_is_knockout(event=event):
        return None
    plan = confirmed_plan(event=event)
    rounds = [
        KnockoutRound(
            round=round_,
            posted=RoundPosting.objects.filter(round=round_).exists(),
            tables=round_table_winners(round_=round_),
        )
        for round_ in Round.objects.filter(
            event=event, kind=Round.Kind.PRELIMINARY, tables__isnull=False
        )
        .distinct()
        .order_by("number")
    ]
    last = rounds[-1] if rounds else None
    has_final = Round.objects.filter(event=event, kind=Round.Kind.FINAL).exists()
    next_stage, next_number = "", None
    if plan is not None and last is not None and not has_final:
        more = event.knockout_method in (TABLE_WINNERS, WINNERS_ASSETS) and (
            last.round.number < len(plan.rounds)
        )
        next_stage = "round" if more else "final"
        next_number = last.round.number + 1 if more else None
    return KnockoutProgress(
        plan=plan,
        rounds=rounds,
        next_stage=next_stage,
        next_number=next_number,
        waiting_for=last.round if last is not None and not last.posted else None,
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
    """Where a table of a round stands, for the judges' round page (``results_board``)."""

    NOT_STARTED = "not_started"
    PLAYING = "playing"
    LAST_TURN = "last_turn"
    ENTERING = "entering"
    SIGNED = "signed"
    APPROVED = "approved"


# --- CSV rows (aliases only: these files are for posting) --------------------------------------


def results_csv_rows(*, round_: Round) -> list[list[str]]:
    """One row per player and table of the round, header first; the stage (preliminary,
    semifinal, final) names the kind of round on every row."""
    # The Tournament Kit's format ranks by assets and awards no points: its files carry no column of
    # nothing.
    with_points = event_ranking(event=round_.event) == RANKING_POINTS
    header = [
        _("Stage"),
        _("Table"),
        _("Alias"),
        _("Bankrupt"),
        _("Net worth"),
        _("Unmortgaged property value"),
        _("Place"),
    ]
    rows = [[*header, _("Points")] if with_points else header]
    lines = (
        ResultLine.objects.filter(table__round=round_)
        .select_related("table", "player")
        .order_by("table__number", "place", "player__alias")
    )
    for line in lines:
        row = [
            round_.kind,
            str(line.table.number),
            line.player.alias,
            _("yes") if line.bankrupt else _("no"),
            str(line.net_worth),
            str(line.unmortgaged_property_value),
            "" if line.place is None else str(line.place),
        ]
        rows.append([*row, format_points(line.points)] if with_points else row)
    return rows


def standings_csv_rows(*, event: Event, only_posted: bool) -> list[list[StrOrPromise]]:
    """One row per player, best first, header first; a column for every tie-breaker (but
    points in a format that awards none: the Tournament Kit's format ranks by assets)."""
    with_points = event_ranking(event=event) == RANKING_POINTS
    tie_breakers = [tb for key, tb in TIE_BREAKERS.items() if with_points or key != "points"]
    rows = [[_("Rank"), _("Alias"), _("Games"), *(capfirst(tb.label) for tb in tie_breakers)]]
    for row in standings(event=event, only_posted=only_posted):
        rank = f"{row.rank}=" if row.tied else str(row.rank)
        values = [tb.shown(row.key(tb.key)) for tb in tie_breakers]
        rows.append([rank, row.alias, str(row.games), *values])
    return rows


# --- The results pages ---------------------------------------------------------------------


def players_with_unposted_results(*, event: Event, among: set[int] | None = None) -> set[int]:
    """Players (of ``among``, if given: a page's rows) whose standing includes a
    preliminary game from a round not posted yet.

    The organizer's standings count every result; this marks the rows the public does not
    see yet.
    """
    lines = ResultLine.objects.filter(
        table__round__event=event,
        table__round__kind=Round.Kind.PRELIMINARY,
        table__round__posting__isnull=True,
    )
    if among is not None:
        lines = lines.filter(player_id__in=among)
    return set(lines.values_list("player_id", flat=True))


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
