"""Token choice and the order of play at a table: the rolls of the Championship Rules' start of a
game, recorded on the table (moved out of the seating services, which seat players, not games)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournament.models import Table

# --- Token choice and order of play -------------------------------------------------------
#
# Championship Rules, TOKEN ASSIGNMENT & GAME START: "all players will roll 1 die to choose a token
# - the player with the highest roll will choose first, and then the next highest etc. After this
# each player will roll to decide who gets to start the game, with the highest roller going
# first, play then continues to the left of the first person." Seats are numbered round the
# table in the direction of play, so the order of play is the seat order turned to start at
# the highest roller (``selectors.play_order_from``).


def _roll_until_distinct(
    players: Sequence[int], dice: int, rng: random.Random
) -> tuple[list[int], dict[str, list[int]]]:
    """Highest roll first; players who tie roll again among themselves: the token choice."""
    rolls: dict[str, list[int]] = {str(p): [] for p in players}

    def order(group: list[int]) -> list[int]:
        if len(group) == 1:
            return group
        thrown = {p: sum(rng.randint(1, 6) for _ in range(dice)) for p in group}
        for p, value in thrown.items():
            rolls[str(p)].append(value)
        result = []
        for value in sorted(set(thrown.values()), reverse=True):
            result.extend(order([p for p in group if thrown[p] == value]))
        return result

    return order(list(players)), rolls


def _roll_for_start(players: Sequence[int], rng: random.Random) -> tuple[int, dict[str, list[int]]]:
    """Who starts: everyone rolls two dice, and only those tied for the highest roll again,
    among themselves, until one is highest. The other rolls order nobody."""
    rolls: dict[str, list[int]] = {str(p): [] for p in players}
    group = list(players)
    while True:
        thrown = {p: rng.randint(1, 6) + rng.randint(1, 6) for p in group}
        for p, value in thrown.items():
            rolls[str(p)].append(value)
        best = max(thrown.values())
        group = [p for p in group if thrown[p] == best]
        if len(group) == 1:
            return group[0], rolls


def _seat_order(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("player_id", flat=True))


def table_roll_play_order(*, table: Table, seed: int | None = None) -> dict:
    """Let the app roll: one die for token choice, two dice for who starts."""
    players = _seat_order(table)
    rng = random.Random(seed)
    token_order, token_rolls = _roll_until_distinct(players, 1, rng)
    starter, order_rolls = _roll_for_start(players, rng)
    table.play_order = {
        "source": "app",
        "token_order": token_order,
        "token_rolls": token_rolls,
        "starter": starter,
        "play_order": play_order_from(players, starter=starter),
        "order_rolls": order_rolls,
    }
    table.save(update_fields=["play_order"])
    return table.play_order


def table_record_play_order(*, table: Table, token_order: list[int], starter: int) -> dict:
    """The banker records the physical rolls' outcome: who chose a token first, who starts."""
    players = _seat_order(table)
    if sorted(token_order) != sorted(players):
        raise ValidationError(
            _("Give every player at the table exactly one place to pick a token.")
        )
    if starter not in players:
        raise ValidationError(_("Choose the player at this table who starts the game."))
    table.play_order = {
        "source": "table",
        "token_order": token_order,
        "starter": starter,
        "play_order": play_order_from(players, starter=starter),
    }
    table.save(update_fields=["play_order"])
    return table.play_order


def play_order_from(seated: Sequence[int], *, starter: int) -> list[int]:
    """The order of play: the seats, numbered round the table in the direction of play,
    turned to start at the highest roller (Championship Rules: "play then continues to the left of
    the first person"). Seats 13, 14, 15, 16 with 14 starting play 14, 15, 16, 13."""
    index = list(seated).index(starter)
    return [*seated[index:], *seated[:index]]
