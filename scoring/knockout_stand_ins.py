"""Who goes on from a knockout table when its winner has left (reads).

Tournament Kit, THE DAY OF THE TOURNAMENT: a round "will result in some outright winners, and others
will win by virtue of having the highest total assets at their table ... there must be six tables
to give you the required six players for the final", and "The final round must have six
players". A table winner who withdraws (or is ejected) before the next round must not leave
the bracket a player short, so the table's next player by assets goes on in their place: when
the next round is seated (``knockout_goers``), or at its start if they leave after it was
seated (``stand_in_for``, handed down to ``knockout.services``).
"""

from __future__ import annotations

from collections.abc import Collection

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from knockout.bracket import HIGHEST_ASSETS
from scoring.models import ResultLine
from scoring.selectors import round_table_winners
from tournament.models import Player, Round, Table


def next_by_assets(*, table: Table, taken: Collection[int] = ()) -> Player | None:
    """The best-placed player of ``table`` still in the event and not in ``taken``.

    Places are the posted order (assets, then unmortgaged property value, then the head
    judge); two such players sharing that place are refused until the head judge orders them.
    """
    lines = [
        line
        for line in ResultLine.objects.filter(table=table, place__isnull=False)
        .select_related("player")
        .order_by("place", "pk")
        if line.player.status == Player.Status.PLAYER and line.player_id not in taken
    ]
    if not lines:
        return None
    if len(lines) > 1 and lines[0].place == lines[1].place:
        raise ValidationError(
            _(
                "Table %(number)s: the players who would go on in the winner's place share "
                "place %(place)s; the head judge orders them first."
            )
            % {"number": table.number, "place": lines[0].place},
            code="stand-in-tie",
        )
    return lines[0].player


def knockout_goers(*, round_: Round) -> list[Player]:
    """One player from each table of posted ``round_``: its winner, or if the winner has left
    the event, the table's next player by assets. A shared first place is refused until the
    head judge orders it; a table with nobody left sends nobody."""
    goers = []
    for row in round_table_winners(round_=round_):
        if row.winner is None:
            raise ValidationError(
                _("Table %(number)s has no single winner; the head judge orders the tie.")
                % {"number": row.table.number},
                code="no-winner",
            )
        if row.winner.status == Player.Status.PLAYER:
            goers.append(row.winner)
            continue
        stand_in = next_by_assets(table=row.table, taken={p.pk for p in goers})
        if stand_in is not None:
            goers.append(stand_in)
    return goers


def stand_in_for(left: Player, round_: Round) -> Player | None:
    """Who takes ``left``'s seat at the start of knockout round ``round_``: the next player
    by assets at the table ``left`` won in the round before (tables-winners brackets only;
    the highest-assets final is the standings' to fill)."""
    event = round_.event
    if event.knockout_method == HIGHEST_ASSETS:
        return None
    before = (
        Round.objects.filter(
            event=event, kind=Round.Kind.PRELIMINARY, number__lt=round_.number, tables__isnull=False
        )
        .order_by("-number")
        .first()
    )
    if before is None:
        return None
    won = ResultLine.objects.filter(table__round=before, player=left, place=1).first()
    if won is None:
        return None
    seated = set(round_.seats.values_list("player_id", flat=True))
    return next_by_assets(table=won.table, taken=seated)


def round_highest_assets(*, round_: Round, count: int) -> list[Player]:
    """The ``count`` highest asset totals of ``round_`` among the players still in the event
    (Tournament Kit: "choose six winners from your preliminary round by highest total assets"), the
    higher unmortgaged property value first on equal assets (Championship Rules, TIE BREAKERS).
    Players level on both across the cut are refused: the head judge decides who goes on."""
    lines = sorted(
        (
            line
            for line in ResultLine.objects.filter(table__round=round_).select_related("player")
            if line.player.status == Player.Status.PLAYER
        ),
        key=lambda line: (-line.net_worth, -line.unmortgaged_property_value, line.pk),
    )
    if len(lines) > count:
        last_in, first_out = lines[count - 1], lines[count]
        if (last_in.net_worth, last_in.unmortgaged_property_value) == (
            first_out.net_worth,
            first_out.unmortgaged_property_value,
        ):
            raise ValidationError(
                _(
                    "%(first)s and %(second)s are level on assets and unmortgaged property "
                    "value at the cut; the head judge decides who goes on."
                )
                % {"first": last_in.player.alias, "second": first_out.player.alias},
                code="tie-at-cut",
            )
    return [line.player for line in lines[:count]]
