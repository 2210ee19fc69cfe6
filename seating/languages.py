"""Same-language tables (Championship Rules: "same-language games"): the seating by game language.

When the organizer asks (``Event.same_language_tables``), every player is grouped by the
language they play in (``Player.game_language``, or the event's), the seating engine seats
each group at tables of its own (``seating.engine.seat_by_group``: the groups are
data, the engine knows no languages) and each table is marked with its game language
(``Table.language``). Otherwise the engine seats everyone together, as always.
"""

from __future__ import annotations

from collections.abc import Sequence

from seating.engine import Seating, SeatingProblem, seat, seat_by_group
from tournament.models import Event, Player, Round, Table


def language_groups(*, event: Event, players: Sequence[Player]) -> dict[int, str] | None:
    """Each player's game language when the event seats by language, else None."""
    if not event.same_language_tables:
        return None
    return {player.pk: player.game_language or event.language for player in players}


def language_groups_of(*, event: Event, player_ids: Sequence[int]) -> dict[int, str] | None:
    """``language_groups`` for players given by id (the long search job's problem)."""
    if not event.same_language_tables:
        return None
    return language_groups(event=event, players=list(Player.objects.filter(pk__in=player_ids)))


def seat_for_event(
    problem: SeatingProblem, *, event: Event, players: Sequence[Player]
) -> tuple[Seating, tuple[str, ...]]:
    """The engine's seating, and each table's game language (empty: not by language)."""
    groups = language_groups(event=event, players=players)
    if groups is None:
        return seat(problem), ()
    grouped = seat_by_group(problem, groups=groups)
    return grouped.seating, tuple(str(language) for language in grouped.table_groups)


def tables_mark_languages(*, round_: Round, languages: Sequence[str]) -> None:
    """Mark table 1, 2... of ``round_`` with ``languages`` (the seating's table order)."""
    for number, language in enumerate(languages, start=1):
        Table.objects.filter(round=round_, number=number).update(language=language)
