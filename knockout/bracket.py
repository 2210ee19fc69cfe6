"""The club knockout's bracket: how many rounds, how many tables of which size, who goes on.

Pure Python (no Django), so the planner can be checked exhaustively and by hypothesis.

The charity/club kit (Tournament Kit, "THE DAY OF THE TOURNAMENT") runs a knockout:
"the first preliminary round ... will result in some outright winners, and others will win by
virtue of having the highest total assets at their table. The same method is used for the next
round of play, but there must be six tables to give you the required six players for the final.
Thus, if you start with 216 people, your first round will be 36 tables of six people each and
your second round six tables of six players each."

So every preliminary round has as many tables as the next round has players, and the last one
has six. Tables are "a minimum of three and a maximum of five players", yet the kit's own example
seats six: the planner keeps to the event's largest table and goes up to six
(``KIT_EXAMPLE_TABLE``) only where that saves a round (216: three rounds at tables of 3 to 5,
two at tables of six), or where the organizer allows six.

Not every field divides like that; the kit's choices are then to "seat people unevenly at
tables, i.e., half of them at tables of three and half at tables of four, and play as many
rounds as necessary to arrive at six finalists" (the *table winners* method, when some bracket
of tables of 3 to 6 reaches exactly six) or to "choose six winners from your preliminary round
by highest total assets" (the *highest assets* method, which fits any field). Tables are
"ideally ... for four players"; the planner takes the fewest rounds, then the tables closest to
four.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# Tournament Kit: "The final round must have six players."
FINALISTS = 6
# Tournament Kit: "Ideally, tables should be set up for four players."
IDEAL_TABLE = 4
# Tournament Kit: "if you start with 216 people, your first round will be 36 tables of six people
# each": the one place the kit goes past its "maximum of five players".
KIT_EXAMPLE_TABLE = 6
# Tournament Kit: "at least two rounds of play, each with a 90-minute time limit".
ROUND_MINUTES = 90
# Tournament Kit: "Set a time limit of about 15 minutes for questions, then begin the tournament."
BRIEFING_MINUTES = 15
# Between rounds: "to total assets at the end of each game" and seat the next round. The kit
# gives no figure; a quarter of an hour is the organizer's planning default.
CHANGEOVER_MINUTES = 15
# Beyond this many preliminary rounds a bracket is not a day's play (6^6 players).
MAX_ROUNDS = 6

TABLE_WINNERS = "table_winners"
HIGHEST_ASSETS = "highest_assets"
# Round 1's table winners play round 2, whose six highest asset totals play the final: the
# kit's "choose six winners ... by highest total assets" after a round of table winners, for
# the fields no bracket of table winners fits (37 to 53 at tables of 3 to 6).
WINNERS_ASSETS = "winners_assets"
METHODS = (TABLE_WINNERS, HIGHEST_ASSETS, WINNERS_ASSETS)


@dataclass(frozen=True)
class PlannedRound:
    """One preliminary round: its players, its table sizes (largest first), who goes on."""

    number: int
    players: int
    tables: tuple[int, ...]
    advancing: int

    @property
    def table_count(self) -> int:
        return len(self.tables)

    def size_counts(self) -> tuple[tuple[int, int], ...]:
        """(size, how many tables of it), largest first: "10 tables of 4 and 2 of 5"."""
        return tuple(
            (size, self.tables.count(size)) for size in sorted(set(self.tables), reverse=True)
        )


@dataclass(frozen=True)
class BracketPlan:
    """A whole day: the preliminary rounds, then a final of ``final_players`` at one table."""

    method: str
    players: int
    rounds: tuple[PlannedRound, ...]
    final_players: int
    minutes: int

    @property
    def round_count(self) -> int:
        """Every round played, the final included (the kit asks for at least two)."""
        return len(self.rounds) + 1

    def to_dict(self) -> dict:
        return {
            "method": self.method,
            "players": self.players,
            "rounds": [
                {
                    "number": r.number,
                    "players": r.players,
                    "tables": list(r.tables),
                    "advancing": r.advancing,
                }
                for r in self.rounds
            ],
            "final_players": self.final_players,
            "minutes": self.minutes,
        }

    @classmethod
    def from_dict(cls, data: dict) -> BracketPlan:
        return cls(
            method=data["method"],
            players=data["players"],
            rounds=tuple(
                PlannedRound(
                    number=r["number"],
                    players=r["players"],
                    tables=tuple(r["tables"]),
                    advancing=r["advancing"],
                )
                for r in data["rounds"]
            ),
            final_players=data["final_players"],
            minutes=data["minutes"],
        )


@dataclass(frozen=True)
class BracketOptions:
    """What the kit allows for this many players; ``table_winners`` is None when no bracket of
    tables of ``table_min`` to ``table_max`` reaches exactly six table winners."""

    players: int
    table_min: int
    table_max: int
    table_winners: BracketPlan | None
    highest_assets: BracketPlan | None
    # The nearest fields, below and above, that a table-winners bracket fits (None if none).
    fewer_fit: int | None
    more_fit: int | None
    # The table-winners plan's rounds at tables of table_min..table_max when it seats tables
    # of six beyond table_max to save them (None: no stretch, or none fits within the range).
    rounds_within_range: int | None = None
    # Just below this field (within one table of six) a plan of one round fewer fits: the
    # largest such field, e.g. 216 for 217 to 222 players (None when there is none so near).
    fewer_rounds_fit: int | None = None
    stretch_to: int | None = KIT_EXAMPLE_TABLE
    # Offered only where no bracket of table winners fits.
    winners_then_assets: BracketPlan | None = None

    @property
    def stretched(self) -> bool:
        """The table-winners plan seats tables larger than the event's largest."""
        plan = self.table_winners
        return plan is not None and any(
            size > self.table_max for round_ in plan.rounds for size in round_.tables
        )

    @property
    def fewer_rounds(self) -> int | None:
        """The preliminary rounds of the plan for ``fewer_rounds_fit`` players."""
        if not self.fewer_rounds_fit:
            return None
        plan = table_winners_plan(
            players=self.fewer_rounds_fit,
            table_min=self.table_min,
            table_max=self.table_max,
            stretch_to=self.stretch_to,
        )
        return len(plan.rounds) if plan else None

    @property
    def extra_players(self) -> int:
        """How many more players than ``fewer_rounds_fit`` are here (0 when there is none)."""
        return self.players - self.fewer_rounds_fit if self.fewer_rounds_fit else 0

    def plan(self, method: str) -> BracketPlan | None:
        return {
            TABLE_WINNERS: self.table_winners,
            HIGHEST_ASSETS: self.highest_assets,
            WINNERS_ASSETS: self.winners_then_assets,
        }.get(method)

    @property
    def recommended(self) -> BracketPlan | None:
        """Table winners when the field allows it (the kit's own plan), else highest assets."""
        return self.table_winners or self.highest_assets


def balanced_tables(players: int, tables: int) -> tuple[int, ...]:
    """``players`` at ``tables`` tables whose sizes differ by at most one, largest first.

    For a fixed number of tables this is as close to four as the field allows (the distance
    from four is convex in the size), and it is the kit's "half of them at tables of three and
    half at tables of four".
    """
    base, extra = divmod(players, tables)
    return (base + 1,) * extra + (base,) * (tables - extra)


def _distance(sizes: tuple[int, ...]) -> int:
    return sum(abs(size - IDEAL_TABLE) for size in sizes)


def _table_counts(players: int, table_min: int, table_max: int) -> range:
    """Every number of tables that seats ``players`` at tables of ``table_min``..``table_max``."""
    return range(math.ceil(players / table_max), players // table_min + 1)


def _best_split(players: int, table_min: int, table_max: int) -> tuple[int, ...] | None:
    """One round's tables closest to four; on a tie the fewer tables (fewer games, bankers)."""
    best: tuple[int, ...] | None = None
    for count in _table_counts(players, table_min, table_max):
        sizes = balanced_tables(players, count)
        if best is None or _distance(sizes) < _distance(best):
            best = sizes
    return best


@lru_cache(maxsize=4096)
def _knockout(
    players: int, rounds: int, table_min: int, table_max: int
) -> tuple[int, tuple[tuple[int, ...], ...]] | None:
    """The closest-to-four way for ``players`` to reach six table winners in ``rounds`` rounds.

    Returns (total distance from four, each round's table sizes) or None. Each round's table
    count is the next round's field; the last round has ``FINALISTS`` tables.
    """
    if rounds == 1:
        if not FINALISTS * table_min <= players <= FINALISTS * table_max:
            return None
        sizes = balanced_tables(players, FINALISTS)
        return _distance(sizes), (sizes,)
    best = None
    # The next round's field must itself reach six in rounds - 1: at least six tables of the
    # smallest size per round to come, at most six of the largest.
    lowest, highest = FINALISTS * table_min ** (rounds - 1), FINALISTS * table_max ** (rounds - 1)
    for count in _table_counts(players, table_min, table_max):
        if not lowest <= count <= highest:
            continue
        rest = _knockout(count, rounds - 1, table_min, table_max)
        if rest is None:
            continue
        sizes = balanced_tables(players, count)
        cost = _distance(sizes) + rest[0]
        if best is None or cost < best[0]:
            best = (cost, (sizes, *rest[1]))
    return best


def _day_minutes(preliminary_rounds: int, round_minutes: int) -> int:
    """Briefing, each preliminary round and the changeover after it, then the final."""
    return (
        BRIEFING_MINUTES + preliminary_rounds * (round_minutes + CHANGEOVER_MINUTES) + round_minutes
    )


def _rounds(players: int, splits: tuple[tuple[int, ...], ...], last_advancing: int):
    planned = []
    field = players
    for number, sizes in enumerate(splits, start=1):
        advancing = len(sizes) if number < len(splits) else last_advancing
        planned.append(
            PlannedRound(number=number, players=field, tables=sizes, advancing=advancing)
        )
        field = advancing
    return tuple(planned)


def _fewest_rounds(players: int, table_min: int, table_max: int):
    for rounds in range(1, MAX_ROUNDS + 1):
        found = _knockout(players, rounds, table_min, table_max)
        if found is not None:
            return found
    return None


def table_winners_plan(
    *,
    players: int,
    table_min: int = 3,
    table_max: int = 5,
    round_minutes: int = ROUND_MINUTES,
    stretch_to: int | None = KIT_EXAMPLE_TABLE,
) -> BracketPlan | None:
    """The fewest rounds whose table winners are exactly six, tables closest to four.

    Tables of ``table_min``..``table_max``; up to ``stretch_to`` only when that takes fewer
    rounds than any plan within the range (or when none fits within it).
    """
    found = _fewest_rounds(players, table_min, table_max)
    if stretch_to is not None and stretch_to > table_max:
        wider = _fewest_rounds(players, table_min, stretch_to)
        if wider is not None and (found is None or len(wider[1]) < len(found[1])):
            found = wider
    if found is None:
        return None
    return BracketPlan(
        method=TABLE_WINNERS,
        players=players,
        rounds=_rounds(players, found[1], FINALISTS),
        final_players=FINALISTS,
        minutes=_day_minutes(len(found[1]), round_minutes),
    )


def highest_assets_plan(
    *, players: int, table_min: int = 3, table_max: int = 5, round_minutes: int = ROUND_MINUTES
) -> BracketPlan | None:
    """One preliminary round, then the six highest asset totals of the whole field play the
    final (Tournament Kit: "semi-finalists are to be chosen from among the entire group")."""
    if players <= FINALISTS:
        # Everyone fits at the final table: no preliminary round is needed.
        return BracketPlan(
            method=HIGHEST_ASSETS,
            players=players,
            rounds=(),
            final_players=players,
            minutes=_day_minutes(0, round_minutes),
        )
    sizes = _best_split(players, table_min, table_max)
    if sizes is None:
        return None
    return BracketPlan(
        method=HIGHEST_ASSETS,
        players=players,
        rounds=_rounds(players, (sizes,), FINALISTS),
        final_players=FINALISTS,
        minutes=_day_minutes(1, round_minutes),
    )


def winners_then_assets_plan(
    *, players: int, table_min: int = 3, table_max: int = 5, round_minutes: int = ROUND_MINUTES
) -> BracketPlan | None:
    """Round 1 at tables closest to four; its table winners play round 2, again at tables
    closest to four; the six highest asset totals of round 2 play the final. None when round
    1 would not leave more than six table winners (they would be the final already)."""
    first = _best_split(players, table_min, table_max)
    if first is None or len(first) <= FINALISTS:
        return None
    second = _best_split(len(first), table_min, table_max)
    if second is None:
        return None
    return BracketPlan(
        method=WINNERS_ASSETS,
        players=players,
        rounds=_rounds(players, (first, second), FINALISTS),
        final_players=FINALISTS,
        minutes=_day_minutes(2, round_minutes),
    )


def _fits(players: int, table_min: int, table_max: int) -> bool:
    return any(
        _knockout(players, rounds, table_min, table_max) is not None
        for rounds in range(1, MAX_ROUNDS + 1)
    )


def _nearest_fit(players: int, step: int, table_min: int, table_max: int) -> int | None:
    field = players + step
    limit = FINALISTS * table_max**MAX_ROUNDS
    while FINALISTS * table_min <= field <= limit:
        if _fits(field, table_min, table_max):
            return field
        field += step
    return None


def _fewer_rounds_fit(players: int, plan: BracketPlan | None, plan_args: dict) -> int | None:
    """The largest field within one table of six below ``players`` whose table-winners plan
    has fewer rounds: those players play the kit's shorter day, the rest are extra."""
    if plan is None:
        return None
    for field in range(players - 1, max(players - 1 - KIT_EXAMPLE_TABLE, FINALISTS), -1):
        shorter = table_winners_plan(players=field, **plan_args)
        if shorter is not None and len(shorter.rounds) < len(plan.rounds):
            return field
    return None


def bracket_options(
    *,
    players: int,
    table_min: int = 3,
    table_max: int = 5,
    round_minutes: int = ROUND_MINUTES,
    stretch_to: int | None = KIT_EXAMPLE_TABLE,
) -> BracketOptions:
    """Both of the kit's methods for this field, and the nearest fields a knockout fits."""
    if table_min < 2 or table_max < table_min:
        raise ValueError(f"table sizes {table_min}..{table_max} are not a range of tables")
    plan_args: dict[str, Any] = {
        "table_min": table_min,
        "table_max": table_max,
        "round_minutes": round_minutes,
        "stretch_to": stretch_to,
    }
    knockout = table_winners_plan(players=players, **plan_args)
    # The fields a knockout fits, tables of six included where they would be planned.
    widest = max(table_max, stretch_to or table_max)
    options = BracketOptions(
        players=players,
        table_min=table_min,
        table_max=table_max,
        table_winners=knockout,
        highest_assets=highest_assets_plan(
            players=players, table_min=table_min, table_max=table_max, round_minutes=round_minutes
        ),
        fewer_fit=None if knockout else _nearest_fit(players, -1, table_min, widest),
        more_fit=None if knockout else _nearest_fit(players, 1, table_min, widest),
        fewer_rounds_fit=_fewer_rounds_fit(players, knockout, plan_args),
        stretch_to=stretch_to,
        winners_then_assets=None
        if knockout
        else winners_then_assets_plan(
            players=players, table_min=table_min, table_max=table_max, round_minutes=round_minutes
        ),
    )
    if options.stretched:
        within = _fewest_rounds(players, table_min, table_max)
        return dataclasses.replace(options, rounds_within_range=len(within[1]) if within else None)
    return options
