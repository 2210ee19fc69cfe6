"""From the posted preliminary standings to the final, through a semifinal if needed; the
club knockout's rounds one after another."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from knockout.bracket import HIGHEST_ASSETS, WINNERS_ASSETS
from knockout.selectors import confirmed_plan
from knockout.services import knockout_seat_round
from scoring.knockout_stand_ins import knockout_goers, round_highest_assets
from scoring.models import RoundPosting
from scoring.selectors import StandingRow, round_table_winners, standings
from seating.round_tables import seating_refuse_if_changed
from seating.services import stage_seat
from tournament.formats import event_has_final, event_is_knockout
from tournament.locks import event_lock
from tournament.models import Event, Player, Round


def _cut(rows: list[StandingRow], count: int) -> list[StandingRow]:
    """The first ``count`` rows, refused if players tied in the standings straddle the cut."""
    if len(rows) > count and rows[count - 1].rank == rows[count].rank:
        raise ValidationError(
            _("Players tied at place %(rank)s straddle the cut; the head judge decides first.")
            % {"rank": rows[count - 1].rank},
            code="tie-at-cut",
        )
    return rows[:count]


@transaction.atomic
def advance_to_final(
    *,
    event: Event,
    by: User | None,
    seed: int = 0,
    time_limit: float = 10.0,
    seen: str | None = None,
) -> Round:
    """Seat the next stage after the preliminaries: the final, or first a semifinal.

    Only posted scores count, so every preliminary round must be posted. Players who left
    the event (withdrawn, ejected) cannot advance and the next player moves up. A tie
    across the cut is refused until the head judge decides it. Up to six finalists (or the
    event's largest table) play the final at one table (Championship Rules: four finalists;
    Tournament Kit: a six-player final). More play a semifinal (kind ``semifinal``) seated by the
    engine; called again once the semifinal is posted, this seats each semifinal table's winner at
    the final table. A knockout (Tournament Kit) goes its own way: ``knockout_advance``.
    ``by`` is accepted for the audit trail of the views; the round records no author.
    Decided holding the event's lock: a second tap waits for the first, then finds its
    stage seated (refused as already done when ``seen``, the tables its page showed,
    differs; else as "already has a final").
    """
    event = event_lock(event_id=event.pk)
    seating_refuse_if_changed(event=event, seen=seen)
    if not event_has_final(event=event):
        # Championship Rules, JUNIOR: "The Juniors will only be asked to play 1 game"; the posted
        # round's standings name the winner (scoring.selectors.event_winner).
        raise ValidationError(
            _("This format has no final: the posted standings name the winner."), code="no-final"
        )
    if Round.objects.filter(event=event, kind=Round.Kind.FINAL).exists():
        raise ValidationError(_("This event already has a final."), code="exists")
    if event_is_knockout(event=event):
        return knockout_advance(event=event, seed=seed, time_limit=time_limit)
    semifinal = Round.objects.filter(event=event, kind=Round.Kind.SEMIFINAL).first()
    if semifinal is not None:
        return _final_from_semifinal(event=event, semifinal=semifinal)
    preliminaries = Round.objects.filter(event=event, kind=Round.Kind.PRELIMINARY)
    if not preliminaries.exists():
        raise ValidationError(_("No preliminary round has been played."), code="no-rounds")
    if preliminaries.filter(posting__isnull=True).exists():
        raise ValidationError(
            _("Post every preliminary round before seating the final."), code="not-posted"
        )
    count = event.advancing
    rows = _players_in(event)
    if len(rows) < count:
        raise ValidationError(
            ngettext(
                "Only %(count)s player can advance.",
                "Only %(count)s players can advance.",
                len(rows),
            )
            % {"count": len(rows)},
            code="too-few",
        )
    finalists = [row.registered for row in _cut(rows, count)]
    if count <= _final_table_max(event):
        return _seat_final(event, finalists)
    # More than one table can hold: a semifinal seated by the engine (event's table sizes,
    # households apart, avoiding preliminary rematches); its table winners play the final.
    return stage_seat(
        event=event,
        kind=Round.Kind.SEMIFINAL,
        players=finalists,
        table_sizes=(event.table_size_min, event.table_size_max),
        households_apart=True,
        seed=seed,
        time_limit=time_limit,
    )


def _players_in(event: Event) -> list[StandingRow]:
    """The posted standings of the players still in the event."""
    return [
        row
        for row in standings(event=event, only_posted=True)
        if row.registered.status == Player.Status.PLAYER
    ]


def _seat_final(event: Event, finalists: list[Player]) -> Round:
    count = len(finalists)
    return stage_seat(
        event=event, kind=Round.Kind.FINAL, players=finalists, table_sizes=(count, count)
    )


def _final_table_max(event: Event) -> int:
    """The most finalists one table seats: six (the Tournament Kit's six-player final) or a bigger
    table."""
    return max(6, event.table_size_max)


def _single_winners(round_: Round, refused: str) -> list[Player]:
    """The one winner of each table of ``round_``; a shared first place is refused with
    ``refused`` (a sentence taking the table's %(number)s) until the head judge orders it."""
    winners = []
    for row in round_table_winners(round_=round_):
        if row.winner is None:
            raise ValidationError(refused % {"number": row.table.number}, code="no-winner")
        winners.append(row.winner)
    return winners


def _final_from_semifinal(*, event: Event, semifinal: Round) -> Round:
    """The final: the winner (place 1) of each semifinal table, at one table.

    The semifinal must be posted, so every sheet is signed and every tie decided; a table
    whose first place is shared has no single winner and is refused until the head judge
    orders it.
    """
    if not RoundPosting.objects.filter(round=semifinal).exists():
        raise ValidationError(_("Post the semifinal before seating the final."), code="not-posted")
    finalists = _single_winners(
        semifinal, _("Semifinal table %(number)s has no single winner; the head judge decides.")
    )
    return _seat_final(event, finalists)


# --- The club knockout (Tournament Kit)
# --------------------------------------------------------------


@transaction.atomic
def knockout_advance(*, event: Event, seed: int = 0, time_limit: float = 10.0) -> Round:
    """The next round of a knockout once the last one is posted, or its final.

    Tournament Kit, THE DAY OF THE TOURNAMENT: each round "will result in some outright winners, and
    others will win by virtue of having the highest total assets at their table. The same
    method is used for the next round of play, but there must be six tables to give you the
    required six players for the final." With the confirmed bracket's ``table_winners``
    method the winner of each table goes on (one who has left the event is replaced by that
    table's next player by assets, ``knockout_stand_ins``); after
    the bracket's last round they play the final. With ``highest_assets`` ("choose six
    winners from your preliminary round by highest total assets") the six highest asset
    totals of the whole round play the final, and a tie at the cut waits for the head judge.
    With ``winners_assets`` round 1's table winners play round 2, whose six highest asset
    totals play the final.
    """
    event = event_lock(event_id=event.pk)
    if Round.objects.filter(event=event, kind=Round.Kind.FINAL).exists():
        raise ValidationError(_("This event already has a final."), code="exists")
    plan = confirmed_plan(event=event)
    if plan is None:
        raise ValidationError(
            _("Confirm the bracket on the seating page, then seat round 1 there."),
            code="no-plan",
        )
    last = (
        Round.objects.filter(event=event, kind=Round.Kind.PRELIMINARY, tables__isnull=False)
        .order_by("-number")
        .first()
    )
    if last is None:
        raise ValidationError(_("Seat round 1 on the seating page first."), code="no-rounds")
    if not RoundPosting.objects.filter(round=last).exists():
        raise ValidationError(
            _("Post round %(number)s before seating the next round.") % {"number": last.number},
            code="not-posted",
        )
    if event.knockout_method == HIGHEST_ASSETS:
        finalists = [row.registered for row in _cut(_players_in(event), plan.final_players)]
    elif event.knockout_method == WINNERS_ASSETS and last.number == len(plan.rounds):
        # Round 1's table winners played this round: its six highest asset totals go on.
        finalists = round_highest_assets(round_=last, count=plan.final_players)
    else:
        # A winner who left is replaced by their table's next player by assets (Tournament Kit: "The
        # final round must have six players").
        finalists = knockout_goers(round_=last)
        if last.number < len(plan.rounds):
            return knockout_seat_round(
                event=event,
                number=last.number + 1,
                players=finalists,
                seed=seed,
                time_limit=time_limit,
            )
    if not finalists:
        raise ValidationError(_("Nobody is left to play the final."), code="too-few")
    return _seat_final(event, finalists)
