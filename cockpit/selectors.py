"""Reads for the event cockpit: the facts of the day, and what the day needs.

``event_facts`` turns the database into ``cockpit.EventFacts``; ``cockpit.cockpit_plan``
decides from them alone. ``day_needs`` counts officials and materials from the players
checked in (or, before anyone has, those registered).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, Min, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from cockpit.plan import (
    EventFacts,
    Need,
    RoundFacts,
    directors_needed,
    score_sheets_needed,
    tables_for,
)
from knockout.selectors import confirmed_plan, knockout_options
from players.selectors import check_in_counts
from scoring.models import RoundPosting, TableSheet, TieDecision
from scoring.selectors import event_winner
from tournament.formats import (
    event_edition,
    event_has_final,
    event_is_knockout,
    event_minimum_players,
)
from tournament.models import Clock, Event, Player, Round, Seat, Table
from tournament.public_site import HOME, public_site
from tournament.roles import BANKER, HEAD_JUDGE, JUDGE, ORGANIZER

PLAYING = (Table.Status.PLAYING, Table.Status.LAST_TURN)
SIGNED = (TableSheet.Status.SIGNED, TableSheet.Status.APPROVED)


def _open_ties(round_: Round) -> int:
    """The ties the engine left on the round's signed sheets that no decision settles, as
    ``sheet_open_ties`` counts them, in two queries: only the tables with a tie are read
    further."""
    unresolved = {
        table_id: ties
        for table_id, ties in TableSheet.objects.filter(
            table__round=round_, status__in=SIGNED
        ).values_list("table_id", "report__unresolved_ties")
        if ties
    }
    decided: dict[int, set[tuple]] = {}
    for table_id, players in TieDecision.objects.filter(table_id__in=unresolved).values_list(
        "table_id", "players"
    ):
        decided.setdefault(table_id, set()).add(tuple(sorted(players)))
    return sum(
        1
        for table_id, ties in unresolved.items()
        for tie in ties
        if tuple(sorted(tie)) not in decided.get(table_id, set())
    )


def _round_facts(round_: Round) -> RoundFacts:
    # Counted by the database: a round of 2,000 players has 500 tables and sheets, and the
    # cockpit needs only their numbers.
    tables = Table.objects.filter(round=round_)
    # Tournament Kit: where no volunteer banks, "a player from each table must act as that table's
    # Banker": such a table has its banker too.
    no_banker = Q(banker__isnull=True, banker_player__isnull=True)
    counts = tables.aggregate(
        tables=Count("pk"),
        playing=Count("pk", filter=Q(status__in=PLAYING)),
        without_banker=Count("pk", filter=no_banker),
        first_without_banker=Min("number", filter=no_banker),
    )
    waves = set(tables.values_list("wave_id", flat=True).distinct())
    clocks = list(Clock.objects.filter(wave_id__in=waves).values_list("ended_at", flat=True))
    sheets = dict(
        TableSheet.objects.filter(table__round=round_)
        .order_by()
        .values_list("status")
        .annotate(count=Count("pk"))
    )
    started = bool(clocks)
    return RoundFacts(
        number=round_.number,
        final=round_.kind == Round.Kind.FINAL,
        tables=counts["tables"],
        published=round_.assignments_published,
        clock_started=started,
        clock_ended=started
        and len(clocks) == len(waves)
        and all(ended is not None for ended in clocks),
        tables_playing=counts["playing"] if started else 0,
        sheets_in=sum(n for status, n in sheets.items() if status != TableSheet.Status.DRAFT),
        sheets_signed=sum(n for status, n in sheets.items() if status in SIGNED),
        sheets_approved=sheets.get(TableSheet.Status.APPROVED, 0),
        open_ties=_open_ties(round_),
        posted=RoundPosting.objects.filter(round=round_).exists(),
        bankers_missing=counts["without_banker"],
        first_without_banker=counts["first_without_banker"],
        approval_needed=round_.event.judge_approves_sheets,
        vacancies=0
        if started
        else Seat.objects.filter(round=round_).exclude(player__status=Player.Status.PLAYER).count(),
    )


def seated_rounds(*, event: Event):
    # A semi-join, not a DISTINCT over every table of the event (500 a round at 2,000 players).
    has_tables = Exists(Table.objects.filter(round=OuterRef("pk")))
    return Round.objects.filter(has_tables, event=event).order_by("number")


def _planned_rounds(*, event: Event, knockout: bool, players: int) -> int:
    """The preliminary rounds the day will play: a knockout's from its bracket (confirmed,
    or the kit's plan for the players registered so far), never a number it will not play."""
    if not knockout:
        return event.preliminary_rounds
    plan = confirmed_plan(event=event)
    if plan is None and players > 6 and event.table_size_min >= 2:
        plan = knockout_options(event=event, players=players).recommended
    # The bracket's preliminary rounds (its round_count counts the final too).
    return len(plan.rounds) if plan is not None else 1


def event_facts(*, event: Event, now: datetime.datetime | None = None) -> EventFacts:
    counts = check_in_counts(event=event)
    knockout = event_is_knockout(event=event)
    plan = confirmed_plan(event=event) if knockout else None
    winner = event_winner(event=event, with_players=False)
    site = public_site(event_pk=event.pk)
    return EventFacts(
        knockout=knockout,
        has_final=event_has_final(event=event),
        planned_rounds=_planned_rounds(event=event, knockout=knockout, players=counts.players),
        minimum_players=event_minimum_players(event=event),
        players=counts.players,
        checked_in=counts.players_checked_in,
        alternates=counts.alternates,
        started=(now or timezone.now()) >= event.starts_at,
        bracket_confirmed=plan is not None,
        rounds=tuple(_round_facts(r) for r in seated_rounds(event=event)),
        winner=winner.aliases if winner is not None else (),
        public_home=HOME in site.released,
        public_held=site.held,
    )


@dataclass(frozen=True)
class DayNeeds:
    players: int
    # "checked_in" or "registered": which players the numbers are counted from.
    basis: str
    tables: int
    officials: tuple[Need, ...]
    materials: tuple[Need, ...]
    houses_per_game: int
    hotels_per_game: int


def _group_members(*names: str) -> int:
    return (
        get_user_model().objects.filter(is_active=True, groups__name__in=names).distinct().count()
    )


def _biggest_round(event: Event, players: int) -> int:
    per_round = Table.objects.filter(round__event=event).values("round").annotate(n=Count("pk"))
    seated = [row["n"] for row in per_round]
    if seated:
        return max(seated)
    plan = confirmed_plan(event=event) if event_is_knockout(event=event) else None
    if plan is not None and plan.rounds:
        return max(r.table_count for r in plan.rounds)
    return tables_for(
        players=players, table_min=event.table_size_min, table_max=event.table_size_max
    )


# Tournament Kit, PARTICIPANT REGISTRATION FORM: twelve "Name Address" lines to a sheet (the printed
# form's PARTICIPANTS_PER_SHEET, which this app may not import).
REGISTRATION_LINES = 12


def _score_sheets(event: Event, players: int, finalists: int) -> Need:
    """Tournament Kit, MATERIALS NEEDED: "Allow one score sheet per player for each preliminary
    round and one for each player in the final game." A knockout's later rounds seat only the
    table winners, so its sheets are its bracket's seats, round by round."""
    plan = confirmed_plan(event=event) if event_is_knockout(event=event) else None
    if plan is None and event_is_knockout(event=event):
        plan = knockout_options(event=event, players=players).recommended if players > 6 else None
    if plan is not None:
        return Need(
            _("Score sheets (one per seat of each round of the bracket, and the final)"),
            sum(r.players for r in plan.rounds) + plan.final_players,
        )
    return Need(
        _("Score sheets (one per player each round, one per finalist)"),
        score_sheets_needed(players=players, rounds=event.preliminary_rounds, finalists=finalists),
    )


def day_needs(*, event: Event) -> DayNeeds:
    """Officials and materials for the day (Tournament Kit, PLANNING and THE DAY OF THE
    TOURNAMENT)."""
    counts = check_in_counts(event=event)
    basis = "checked_in" if counts.players_checked_in else "registered"
    # Checked in: those seated, and the alternates here to take an absent player's seat.
    absent = counts.players - counts.players_checked_in
    players = (
        counts.players_checked_in + min(counts.alternates_checked_in, absent)
        if counts.players_checked_in
        else counts.players
    )
    tables = _biggest_round(event, players)
    edition = event_edition(event=event)
    finalists = event.advancing if event_has_final(event=event) else 0
    registrants = Player.objects.filter(
        event=event, status__in=(Player.Status.PLAYER, Player.Status.ALTERNATE)
    ).count()
    officials = (
        Need(
            _("Tournament directors (one for every eight players)"),
            directors_needed(players=players),
            _group_members(ORGANIZER, HEAD_JUDGE, JUDGE),
            _("Organizers, head judges and judges with an account."),
        ),
        Need(
            _("Bankers (one per table)"),
            tables,
            _group_members(BANKER),
            _("Banker accounts; a table card's private link also lets a volunteer bank."),
        ),
    )
    materials = (
        Need(_("MONOPOLY games (one per table)"), tables),
        Need(
            _("Houses (only %(n)s in each game)") % {"n": edition.bank_houses},
            tables * edition.bank_houses,
        ),
        Need(
            _("Hotels (only %(n)s in each game)") % {"n": edition.bank_hotels},
            tables * edition.bank_hotels,
        ),
        _score_sheets(event, players, finalists),
        Need(
            _("Participant registration forms (sheets of %(n)s lines)") % {"n": REGISTRATION_LINES},
            -(-registrants // REGISTRATION_LINES),
        ),
        Need(_("Winner notification form"), 1),
    )
    return DayNeeds(
        players=players,
        basis=basis,
        tables=tables,
        officials=officials,
        materials=materials,
        houses_per_game=edition.bank_houses,
        hotels_per_game=edition.bank_hotels,
    )
