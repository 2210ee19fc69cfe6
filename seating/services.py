"""Rounds, waves, tables and seats: pre-seating an event and changing seats before play.

The seating engine (``seating.engine``) is pure Python; this module feeds it what the
database knows (players, households, meetings, table sizes, game languages) and stores its
answer. Judges may move people until a round starts; after that, seats are facts.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.alternates import alternates_renumber
from players.services import alternate_fill_seat
from seating.draw import drawn, rounds_record_draw
from seating.engine import Seating, SeatingProblem, check_rounds, seat, table_pattern
from seating.languages import seat_for_event
from seating.round_tables import (
    round_store_tables,
    round_tables,
    rounds_store_seating,
    seat_refuse_if_moved,
    seating_refuse_if_changed,
)
from seating.table_settings import table_assign_banker  # noqa: F401 (callers import it from here)
from seating.vacancy_selectors import vacancies_refusal
from tournament.formats import event_is_knockout
from tournament.locks import event_lock
from tournament.models import Event, Player, Round, Seat, Table
from tournament.numbering import renumber
from tournament.signals import round_published


@dataclass(frozen=True)
class SeatingCost:
    """What a seating costs: the engine's objectives, counted over every preliminary round."""

    repeat_meetings: int
    family_conflicts: int


@dataclass(frozen=True)
class MoveCost:
    before: SeatingCost
    after: SeatingCost

    @property
    def new_repeats(self) -> int:
        return self.after.repeat_meetings - self.before.repeat_meetings

    @property
    def new_family_conflicts(self) -> int:
        return self.after.family_conflicts - self.before.family_conflicts

    @property
    def is_free(self) -> bool:
        return self.new_repeats <= 0 and self.new_family_conflicts <= 0


def rounds_ensure(*, event: Event) -> list[Round]:
    """The event's preliminary rounds, creating any that do not exist yet."""
    rounds = []
    for number in range(1, event.preliminary_rounds + 1):
        round_, _created = Round.objects.get_or_create(
            event=event, number=number, defaults={"kind": Round.Kind.PRELIMINARY}
        )
        rounds.append(round_)
    return rounds


def seating_roster(*, event: Event, only_checked_in: bool) -> list[Player]:
    players = Player.objects.filter(event=event, status=Player.Status.PLAYER)
    if only_checked_in:
        players = players.exclude(checked_in_at=None)
    return list(players.order_by("pk"))


def _households(players: Sequence[Player]) -> dict[int, str | None]:
    return {player.pk: player.household or None for player in players}


def meeting_history(*, rounds: QuerySet[Round]) -> list[tuple[int, int]]:
    """Every pair who shared a table in ``rounds``, once per meeting: the engine's history."""
    pairs: list[tuple[int, int]] = []
    for table in Table.objects.filter(round__in=rounds).prefetch_related("seats"):
        ids = sorted(s.player_id for s in table.seats.all())
        pairs.extend((a, b) for i, a in enumerate(ids) for b in ids[i + 1 :])
    return pairs


@transaction.atomic
def preseat_event(
    *,
    event: Event,
    only_checked_in: bool = True,
    seed: int = 0,
    time_limit: float = 10.0,
    players: Sequence[Player] | None = None,
    seen: str | None = None,
) -> Seating:
    """Seat every preliminary round that has not started, all at once.

    Rounds already played stay as they are and count as history, so a re-seat after a
    start still avoids rematches. The players (``players``, else the roster) are drawn
    from ``seed`` first, so round 1 is a draw (``draw.py``); the seed is noted on the
    rounds. The event stays locked while the engine seats, so a second tap waits, then is
    refused as already done when ``seen`` (the tables its page showed,
    ``round_tables.seating_stamp``) no longer matches.
    """
    event = event_lock(event_id=event.pk)
    seating_refuse_if_changed(event=event, seen=seen)
    if event_is_knockout(event=event):
        raise ValidationError(
            _(
                "This event is a knockout: confirm its bracket, then seat round 1 alone; each "
                "later round is seated from the table winners of the one before."
            ),
            code="knockout",
        )
    rounds = [r for r in rounds_ensure(event=event) if not r.has_started]
    if not rounds:
        raise ValidationError(_("Every preliminary round has started; nothing to seat."))
    if players is None:
        players = seating_roster(event=event, only_checked_in=only_checked_in)
    if len(players) < event.table_size_min:
        raise ValidationError(
            ngettext(
                "%(count)s player cannot fill a table of %(size)s.",
                "%(count)s players cannot fill a table of %(size)s.",
                len(players),
            )
            % {"count": len(players), "size": event.table_size_min}
        )
    players = drawn(players=players, seed=seed)
    problem = SeatingProblem(
        players=tuple(p.pk for p in players),
        rounds=len(rounds),
        families=_households(players),
        table_sizes=(event.table_size_min, event.table_size_max),
        history=tuple(
            meeting_history(
                rounds=Round.objects.filter(event=event).exclude(pk__in=[r.pk for r in rounds])
            )
        ),
        seed=seed,
        time_limit=time_limit,
    )
    seating, languages = seat_for_event(problem, event=event, players=players)
    rounds_store_seating(event=event, rounds=rounds, seating=seating, languages=languages)
    rounds_record_draw(rounds=rounds, seed=seed)
    return seating


@transaction.atomic
def stage_seat(
    *,
    event: Event,
    kind: str,
    players: Sequence[Player],
    table_sizes: tuple[int, int],
    households_apart: bool = False,
    seed: int = 0,
    time_limit: float = 10.0,
) -> Round:
    """Seat a stage after the preliminaries (a semifinal or the final) as the next round.

    The engine sees every preliminary meeting, so a semifinal avoids rematches where it
    can; ``households_apart`` keeps families at different tables (a semifinal of several
    tables; the final is one table and cannot).
    """
    event_lock(event_id=event.pk)
    problem = SeatingProblem(
        players=tuple(p.pk for p in players),
        rounds=1,
        families=_households(players) if households_apart else {},
        table_sizes=table_sizes,
        history=tuple(
            meeting_history(rounds=Round.objects.filter(event=event, kind=Round.Kind.PRELIMINARY))
        ),
        seed=seed,
        time_limit=time_limit,
    )
    seating = seat(problem)
    last = Round.objects.filter(event=event).order_by("-number").first()
    stage = Round.objects.create(
        event=event,
        number=(last.number if last else 0) + 1,
        kind=kind,
        seating_report=seating.report.to_dict(),
    )
    round_store_tables(round_=stage, tables=seating.rounds[0], event=event)
    return stage


@transaction.atomic
def round_seat_exact(
    *,
    event: Event,
    number: int,
    players: Sequence[Player],
    sizes: Sequence[int],
    seed: int = 0,
    time_limit: float = 10.0,
) -> Round:
    """Seat preliminary round ``number`` alone, at exactly ``sizes`` (a knockout's plan).

    The engine picks its own sizes within a range (``table_pattern``), which may differ from
    the plan's (20 at six tables is 4+4+3+3+3+3 in the plan, 5 tables of 4 to the engine).
    So each table one short of the largest gets an empty seat pinned to it, every table is
    then the same size, and the empty seats are taken away afterwards. Households are kept
    apart and earlier rounds count as history, as everywhere. A round that has started is
    refused; one seated but not started is seated again.
    """
    sizes = sorted(sizes, reverse=True)
    if sum(sizes) != len(players) or not sizes or sizes[0] - sizes[-1] > 1:
        raise ValidationError(
            ngettext(
                "%(count)s player cannot sit at tables of %(sizes)s.",
                "%(count)s players cannot sit at tables of %(sizes)s.",
                len(players),
            )
            % {"count": len(players), "sizes": "+".join(str(size) for size in sizes)}
        )
    event_lock(event_id=event.pk)
    round_, _created = Round.objects.get_or_create(
        event=event, number=number, defaults={"kind": Round.Kind.PRELIMINARY}
    )
    if round_.has_started or round_.kind != Round.Kind.PRELIMINARY:
        raise ValidationError(_("Round %(number)s has started.") % {"number": number})
    short = [index for index, size in enumerate(sizes) if size < sizes[0]]
    # Negative ids never clash with a player's pk.
    empty = [-(i + 1) for i in range(len(short))]
    problem = SeatingProblem(
        players=(*(p.pk for p in drawn(players=players, seed=seed)), *empty),
        rounds=1,
        families=_households(players),
        table_sizes=(sizes[0], sizes[0]),
        history=tuple(
            meeting_history(rounds=Round.objects.filter(event=event).exclude(pk=round_.pk))
        ),
        pinned={(0, seat): table for seat, table in zip(empty, short, strict=True)},
        seed=seed,
        time_limit=time_limit,
    )
    seating = seat(problem)
    tables = [[p for p in table if p > 0] for table in seating.rounds[0]]
    tables.sort(key=len, reverse=True)
    if [len(table) for table in tables] != sizes:
        raise AssertionError("the engine did not keep the pinned empty seats apart")
    round_store_tables(round_=round_, tables=tables, event=event)
    report = seating.report.to_dict()
    report["players"] = len(players)
    report["table_sizes"] = sizes
    report["five_table_exposure"] = {
        k: v for k, v in report["five_table_exposure"].items() if not (isinstance(k, int) and k < 0)
    }
    round_.seating_report = report
    round_.assignments_published = False
    round_.save(update_fields=["seating_report", "assignments_published"])
    rounds_record_draw(rounds=[round_], seed=seed)
    return round_


# --- Judges' changes before play -----------------------------------------------------


def seating_cost(*, event: Event, replace: dict[int, list[list[int]]] | None = None) -> SeatingCost:
    """Repeats and family conflicts over every seated round, with ``replace`` applied.

    ``replace`` maps a round number to a proposed list of tables, so a judge's move can be
    priced before it is made.
    """
    replace = replace or {}
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    seated = [replace.get(r.number) or round_tables(r) for r in rounds]
    seated = [tables for tables in seated if tables]
    households = Player.objects.filter(event=event, seats__isnull=False).distinct()
    roster = sorted({p for tables in seated for table in tables for p in table})
    problem = SeatingProblem(
        players=tuple(roster),
        rounds=len(seated),
        families={pk: h or None for pk, h in households.values_list("pk", "household")},
        table_sizes=(event.table_size_min, event.table_size_max),
    )
    counted = check_rounds(problem, seated)
    return SeatingCost(counted.repeat_meetings, counted.family_conflicts)


def _editable(round_: Round) -> None:
    if round_.has_started:
        raise ValidationError(_("This round has started; seats can no longer change."))


def _proposed_swap(round_: Round, a: int, b: int) -> list[list[int]]:
    tables = round_tables(round_)
    return [[b if p == a else a if p == b else p for p in table] for table in tables]


def _proposed_move(round_: Round, player_id: int, to_table: int) -> list[list[int]]:
    tables = [[p for p in table if p != player_id] for table in round_tables(round_)]
    if not 1 <= to_table <= len(tables):
        raise ValidationError(_("There is no table %(number)s.") % {"number": to_table})
    tables[to_table - 1].append(player_id)
    return tables


def swap_cost(*, seat_a: Seat, seat_b: Seat) -> MoveCost:
    round_ = seat_a.round
    proposed = _proposed_swap(round_, seat_a.player_id, seat_b.player_id)
    return MoveCost(
        before=seating_cost(event=round_.event),
        after=seating_cost(event=round_.event, replace={round_.number: proposed}),
    )


def move_cost(*, seat_: Seat, to_table: int) -> MoveCost:
    round_ = seat_.round
    proposed = _proposed_move(round_, seat_.player_id, to_table)
    return MoveCost(
        before=seating_cost(event=round_.event),
        after=seating_cost(event=round_.event, replace={round_.number: proposed}),
    )


@transaction.atomic
def seats_swap(
    *, seat_a: Seat, seat_b: Seat, from_table: int | None = None, dry_run: bool = False
) -> None:
    """Two players trade places in one round; table sizes do not change. ``from_table``:
    where ``seat_a``'s player sat on the judge's page (a second tap is refused).

    ``dry_run``: refuse as the swap would, and change nothing: the judge's page asks this
    before showing the price, so the page and the swap decide in one place."""
    if seat_a.round_id != seat_b.round_id:
        raise ValidationError(_("Only players of the same round can swap seats."))
    # Locked and read again: a round started meanwhile refuses, and seats are as they are now.
    event_lock(event_id=seat_a.round.event_id)
    seat_a.refresh_from_db()
    seat_b.refresh_from_db()
    seat_a.round.refresh_from_db()
    _editable(seat_a.round)
    seat_refuse_if_moved(seat_=seat_a, from_table=from_table)
    if dry_run:
        return
    a_table, a_position = seat_a.table_id, seat_a.position
    b_table, b_position = seat_b.table_id, seat_b.position
    # Park one seat out of the way: (table, position) is unique.
    seat_a.position = 1000
    seat_a.save(update_fields=["position"])
    seat_b.table_id, seat_b.position = a_table, a_position
    seat_b.save(update_fields=["table", "position"])
    seat_a.table_id, seat_a.position = b_table, b_position
    seat_a.save(update_fields=["table", "position"])


@transaction.atomic
def seat_move(
    *, seat_: Seat, to_table: int, from_table: int | None = None, dry_run: bool = False
) -> None:
    """Move a player to another table of the same round, within the format's sizes
    (``from_table`` and ``dry_run``: as in ``seats_swap``)."""
    event = event_lock(event_id=seat_.round.event_id)
    seat_.refresh_from_db()
    round_ = seat_.round
    round_.refresh_from_db()
    _editable(round_)
    seat_refuse_if_moved(seat_=seat_, from_table=from_table)
    target = Table.objects.filter(round=round_, number=to_table).first()
    if target is None:
        raise ValidationError(_("There is no table %(number)s.") % {"number": to_table})
    if target.pk == seat_.table_id:
        return
    source_size = seat_.table.seats.count()
    target_size = target.seats.count()
    if source_size - 1 < event.table_size_min or target_size + 1 > event.table_size_max:
        raise ValidationError(
            _(
                "Tables must keep %(min)s to %(max)s players; swap two players instead of "
                "moving one."
            )
            % {"min": event.table_size_min, "max": event.table_size_max}
        )
    if dry_run:
        return
    old_table = seat_.table
    seat_.table = target
    seat_.position = target_size + 1
    seat_.save(update_fields=["table", "position"])
    _renumber_seats(old_table)


def _renumber_seats(table: Table) -> None:
    for position, seat_ in enumerate(table.seats.order_by("position"), start=1):
        if seat_.position != position:
            seat_.position = position
            seat_.save(update_fields=["position"])


# --- The start of a round ---------------------------------------------------------------


@dataclass(frozen=True)
class VacancyResult:
    replaced: tuple[tuple[Player, Player], ...]  # (left, stepped in)
    removed: tuple[Player, ...]  # left, with no alternate to take the seat
    moved: tuple[tuple[Player, int, int], ...]  # (player, from table, to table)


@transaction.atomic
def round_fill_vacancies(*, round_: Round, rest: str = "rebalance") -> VacancyResult:
    """At the start of a round, alternates take the seats of those who left, in order.

    When the alternates run out, ``rest`` says what becomes of the seats left: "rebalance" drops
    them and rebalances the tables within the format's sizes, moving as few players as possible;
    "keep" leaves them for the head judge to decide (Championship Rules: alternates step in at
    the start of a round, never mid-game, at the Head Judge's discretion).
    """
    # Locked, then read again: a second tap finds the seats the first one left.
    event = event_lock(event_id=round_.event_id)
    round_.refresh_from_db()
    _editable(round_)
    # A list left with a gap or a stale number must not stop the round: mended here.
    alternates_renumber(event_id=event.pk)
    # A knockout's later rounds hold those who won their way in: an alternate who never
    # played round 1 takes no seat there; the next player by assets at the table the
    # leaver won does (knockout_stand_in, below), else the table plays short.
    alternates_step_in = not (event_is_knockout(event=event) and round_.number > 1)
    replaced, removed = [], []
    vacant = (
        Seat.objects.filter(round=round_)
        .exclude(player__status=Player.Status.PLAYER)
        .select_related("player", "table")
        .order_by("table__number", "position")
    )
    # Alternates already promoted when someone was marked a no-show hold a player's place
    # but no table seat yet: they step in first, then the alternates still waiting.
    promoted = list(
        Player.objects.filter(event=event, status=Player.Status.PLAYER, replaces__isnull=False)
        .exclude(seats__round=round_)
        .order_by("status_changed_at", "pk")
    )
    if not alternates_step_in:
        promoted = []
    for seat_ in vacant:
        left = seat_.player
        waiting = next((p for p in promoted if p.replaces_id == left.pk), None)
        waiting = waiting or (promoted[0] if promoted else None)
        if waiting is not None:
            promoted.remove(waiting)
        stepping_in = waiting or (
            alternate_fill_seat(event=event, replacing=left)
            if alternates_step_in
            else knockout_stand_in(left=left, round_=round_)
        )
        if stepping_in is None and rest == "keep":
            continue
        if stepping_in is None:
            removed.append(left)
            table = seat_.table
            seat_.delete()
            _renumber_seats(table)
            continue
        seat_.player = stepping_in
        seat_.save(update_fields=["player"])
        replaced.append((left, stepping_in))
    moved = _rebalance(round_=round_) if removed else []
    return VacancyResult(tuple(replaced), tuple(removed), tuple(moved))


# Who takes a knockout seat that a table winner left before the round started: that
# winner's table's next player by assets (Tournament Kit: "others will win by virtue of having the
# highest total assets at their table"). Results are scoring's, so scoring hands the
# lookup down (scoring/apps.py) rather than the seating importing it.
_STAND_INS: list[Callable[[Player, Round], Player | None]] = []


def knockout_stand_in_register(find: Callable[[Player, Round], Player | None]) -> None:
    """Add the lookup of who steps in for a knockout player who left before ``round``."""
    if find not in _STAND_INS:
        _STAND_INS.append(find)


def knockout_stand_in(*, left: Player, round_: Round) -> Player | None:
    """The player who takes ``left``'s seat in knockout round ``round_``, or None."""
    for find in _STAND_INS:
        found = find(left, round_)
        if found is not None:
            return found
    return None


def _rebalance(*, round_: Round, even: bool = False) -> list[tuple[Player, int, int]]:
    """Bring table sizes back within the rule by moving the fewest players.

    The target is the engine's table pattern for the players left. Tables are matched to
    target sizes largest to largest, so only the surplus of each table moves; the players
    who move are those whose move adds the fewest repeat meetings. ``even``: the head
    judge asked for the pattern itself, even when every table is already within the rule.
    """
    event = round_.event
    tables = list(Table.objects.filter(round=round_).prefetch_related("seats").order_by("number"))
    sizes = {t.pk: t.seats.count() for t in tables}
    if not even and all(event.table_size_min <= s <= event.table_size_max for s in sizes.values()):
        return []
    if not any(sizes.values()):
        return []
    pattern = table_pattern(sum(sizes.values()), event.table_size_min, event.table_size_max)
    ranked = sorted(tables, key=lambda t: sizes[t.pk], reverse=True)
    target = {t.pk: 0 for t in tables}
    targets = sorted(pattern.sizes, reverse=True) if even else pattern.sizes
    for table, size in zip(ranked, targets, strict=False):
        target[table.pk] = size
    moved = []
    receivers = [t for t in ranked if sizes[t.pk] < target[t.pk]]
    for giver in [t for t in ranked if sizes[t.pk] > target[t.pk]]:
        surplus = list(giver.seats.select_related("player").order_by("-position"))
        surplus = surplus[: sizes[giver.pk] - target[giver.pk]]
        for seat_ in surplus:
            receiver = next(t for t in receivers if sizes[t.pk] < target[t.pk])
            seat_.table = receiver
            seat_.position = sizes[receiver.pk] + 1
            seat_.save(update_fields=["table", "position"])
            sizes[giver.pk] -= 1
            sizes[receiver.pk] += 1
            moved.append((seat_.player, giver.number, receiver.number))
    for table in tables:
        if target[table.pk] == 0:
            table.delete()
        else:
            _renumber_seats(table)
    _renumber_tables(round_)
    return moved


def _renumber_tables(round_: Round) -> None:
    renumber(list(Table.objects.filter(round=round_).order_by("number")), field="number")


@transaction.atomic
def round_start(*, round_: Round, now: datetime.datetime | None = None) -> VacancyResult:
    """Freeze the seats: from here on the round is being played.

    Refused while a seat of someone who left is undecided: Championship Rules, ALTERNATES, "Use of
    alternates is at the discretion of the Head Judge", so the start never fills a seat by
    itself; the head judge chooses first (``vacancy_services.round_vacancies_decide``).
    """
    event_lock(event_id=round_.event_id)
    round_.refresh_from_db()
    if round_.has_started:
        raise ValidationError(
            _("Round %(number)s has already started.") % {"number": round_.number},
            code="already",
        )
    refusal = vacancies_refusal(round_=round_)
    if refusal is not None:
        raise ValidationError(refusal, code="vacancies")
    # Nothing is empty now; this mends a broken alternates list before play.
    result = round_fill_vacancies(round_=round_)
    round_.started_at = now or timezone.now()
    round_.save(update_fields=["started_at"])
    return result


def round_publish(*, round_: Round, published: bool = True) -> Round:
    if published and not Seat.objects.filter(round=round_).exists():
        raise ValidationError(_("Seat the round before publishing its table assignments."))
    round_.assignments_published = published
    round_.save(update_fields=["assignments_published"])
    if published:
        round_published.send(sender=Round, round_=round_)
    return round_
