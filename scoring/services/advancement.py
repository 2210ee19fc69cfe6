"""From the posted preliminary standings to the final, through a semifinal if needed."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser as User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.formats import RANKING_ASSETS, event_has_final, event_ranking
from tournament.models import Event, Player, Round, Table
from tournament.seating_services import stage_seat

from ..models import ResultLine, RoundPosting
from ..selectors import StandingRow, standings, table_winners


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
    *, event: Event, by: User | None, seed: int = 0, time_limit: float = 10.0
) -> Round:
    """Seat the next stage after the preliminaries: the final, or first a semifinal.

    Only posted scores count, so every preliminary round must be posted. Players who left
    the event (withdrawn, ejected) cannot advance and the next player moves up. A tie
    across the cut is refused until the head judge decides it. In formats ranked by assets
    (club, 000) every preliminary table winner (place 1) goes first, in standings order,
    then the best of the rest; if the winners alone are more than the places, the best
    winners go. Up to six finalists (or the event's largest table) play the final at one
    table (002: four finalists; 000: a six-player final). More play a semifinal (kind
    ``semifinal``) seated by the engine; called again once the semifinal is posted, this
    seats each semifinal table's winner at the final table.
    ``by`` is accepted for the audit trail of the views; the round records no author.
    """
    if not event_has_final(event=event):
        # 002 JUNIOR: "The Juniors will only be asked to play 1 game"; the posted round's
        # standings name the winner (scoring.selectors.event_winner).
        raise ValidationError(
            _("This format has no final: the posted standings name the winner."), code="no-final"
        )
    if Round.objects.filter(event=event, kind=Round.Kind.FINAL).exists():
        raise ValidationError(_("This event already has a final."), code="exists")
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
    rows = [
        row
        for row in standings(event=event, only_posted=True)
        if row.player.status == Player.Status.PLAYER
    ]
    count = event.advancing
    if len(rows) < count:
        raise ValidationError(
            _("Only %(count)s players can advance.") % {"count": len(rows)}, code="too-few"
        )
    if event_ranking(event=event) == RANKING_ASSETS:
        # 000: "table winners and highest total assets advance to a six-player final".
        winners_ids = table_winners(event=event, only_posted=True)
        winners = [row for row in rows if row.player.pk in winners_ids]
        others = [row for row in rows if row.player.pk not in winners_ids]
        if len(winners) >= count:
            chosen = _cut(winners, count)
        else:
            chosen = winners + _cut(others, count - len(winners))
    else:
        chosen = _cut(rows, count)
    finalists = [row.player for row in chosen]
    if count <= _final_table_max(event):
        return stage_seat(
            event=event, kind=Round.Kind.FINAL, players=finalists, table_sizes=(count, count)
        )
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


def _final_table_max(event: Event) -> int:
    """The most finalists one table seats: six (000's six-player final) or a bigger table."""
    return max(6, event.table_size_max)


def _final_from_semifinal(*, event: Event, semifinal: Round) -> Round:
    """The final: the winner (place 1) of each semifinal table, at one table.

    The semifinal must be posted, so every sheet is signed and every tie decided; a table
    whose first place is shared has no single winner and is refused until the head judge
    orders it.
    """
    if not RoundPosting.objects.filter(round=semifinal).exists():
        raise ValidationError(_("Post the semifinal before seating the final."), code="not-posted")
    finalists = []
    for table in Table.objects.filter(round=semifinal).order_by("number"):
        winners = list(ResultLine.objects.filter(table=table, place=1).select_related("player"))
        if len(winners) != 1:
            raise ValidationError(
                _("Semifinal table %(number)s has no single winner; the head judge decides.")
                % {"number": table.number},
                code="no-winner",
            )
        finalists.append(winners[0].player)
    count = len(finalists)
    return stage_seat(
        event=event, kind=Round.Kind.FINAL, players=finalists, table_sizes=(count, count)
    )
