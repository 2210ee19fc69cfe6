"""A round's start as the head judge sees it: its empty seats and the alternates in order.

Championship Rules, ALTERNATES: "Alternates will be ordered prior to the tournament start to
determine who should step-up to take vacancies should they come available. [...] Alternates will
not step in mid-game. Use of alternates is at the discretion of the Head Judge." So nothing fills
an empty seat by itself: at the start of each round the head judge sees the seats of those who left
(no-shows, withdrawals, ejections) and the alternates, and chooses (``seating.vacancy_services``);
the round cannot start while a seat is undecided.
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.alternates import alternates_in_order
from players.no_show_selectors import wave_official_start
from tournament.formats import event_is_knockout
from tournament.models import Clock, Player, Round, Seat, Table, Wave


def round_vacancies(*, round_: Round) -> list[Seat]:
    """The round's seats whose player has left the event, by table and seat."""
    return list(
        Seat.objects.filter(round=round_)
        .exclude(player__status=Player.Status.PLAYER)
        .select_related("player", "table")
        .order_by("table__number", "position")
    )


def vacancies_refusal(*, round_: Round) -> str | None:
    """Why ``round_`` cannot start yet (empty seats nobody decided on), or None."""
    count = Seat.objects.filter(round=round_).exclude(player__status=Player.Status.PLAYER).count()
    if not count:
        return None
    return ngettext(
        "Round %(number)s has %(count)s empty seat to decide first: on the round's start "
        "page, fill it with an alternate, leave the table short or rebalance the tables.",
        "Round %(number)s has %(count)s empty seats to decide first: on the round's start "
        "page, fill them with alternates, leave the tables short or rebalance the tables.",
        count,
    ) % {"number": round_.number, "count": count}


def _sizes_after_leaving(round_: Round) -> dict[int, int]:
    """Each table's number of players once the empty seats are taken away."""
    staying = Counter(
        Seat.objects.filter(round=round_, player__status=Player.Status.PLAYER).values_list(
            "table__number", flat=True
        )
    )
    return {
        number: staying.get(number, 0)
        for number in Table.objects.filter(round=round_).values_list("number", flat=True)
    }


def leave_refusal(*, round_: Round) -> str | None:
    """Why the tables cannot simply play short: one would fall below the format's minimum
    (Championship Rules, NUMBER OF PLAYERS: "a goal of seating four players per table")."""
    minimum = round_.event.table_size_min
    for number, size in sorted(_sizes_after_leaving(round_).items()):
        if size < minimum:
            return _(
                "Table %(table)s would have %(size)s players, fewer than the %(minimum)s "
                "its format needs: fill the seat or rebalance the tables."
            ) % {"table": number, "size": size, "minimum": minimum}
    return None


@dataclass(frozen=True)
class WaveStart:
    wave: Wave
    start: datetime.datetime | None
    clock_started: bool


@dataclass(frozen=True)
class RoundStartPage:
    """What the head judge needs at a round's start, in the page's order."""

    round: Round
    started: bool
    waves: tuple[WaveStart, ...]
    vacancies: tuple[Seat, ...]
    alternates: tuple[Player, ...]
    # Who would take each empty seat if the head judge fills them (None: nobody left).
    fill_preview: tuple[tuple[Seat, Player | None], ...]
    leave_refusal: str | None
    # A knockout's later rounds: the table's next player by assets stands in, not alternates.
    stand_ins: bool
    # Seated players of this round not checked in at the desk (once anyone has been).
    not_checked_in: tuple[Seat, ...]


def round_start_page(*, round_: Round) -> RoundStartPage:
    event = round_.event
    waves = tuple(
        WaveStart(
            wave=wave,
            start=wave_official_start(wave=wave),
            clock_started=Clock.objects.filter(wave=wave).exists(),
        )
        for wave in Wave.objects.filter(round=round_).select_related("round__event")
    )
    vacancies = tuple(round_vacancies(round_=round_))
    stand_ins = event_is_knockout(event=event) and round_.number > 1
    alternates = () if stand_ins else tuple(alternates_in_order(event_id=event.pk))
    preview = tuple(
        (seat_, alternates[i] if i < len(alternates) else None) for i, seat_ in enumerate(vacancies)
    )
    absent = Seat.objects.none()
    if Player.objects.filter(event=event, checked_in_at__isnull=False).exists():
        absent = (
            Seat.objects.filter(
                round=round_, player__status=Player.Status.PLAYER, player__checked_in_at=None
            )
            .select_related("player", "table")
            .order_by("table__number", "position")
        )
    return RoundStartPage(
        round=round_,
        started=round_.has_started or any(w.clock_started for w in waves),
        waves=waves,
        vacancies=vacancies,
        alternates=alternates,
        fill_preview=() if stand_ins else preview,
        leave_refusal=leave_refusal(round_=round_) if vacancies else None,
        stand_ins=stand_ins,
        not_checked_in=tuple(absent),
    )
