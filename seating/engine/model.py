"""The engine's input and output as frozen dataclasses, independent of Django models.

Rounds and tables are 0-based indices everywhere: ``pinned[(0, "p7")] == 2`` means p7 sits
at the third table of the first round, tables being listed largest first (the order of
``TablePattern.sizes``) so a judge's "table 1" is stable across re-seats.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

# Whatever ids the caller seats (player pks in the app, strings in the CLI and tests): the
# engine only hashes, compares and hands them back, so a caller gets its own type back.
PlayerId = Any
Pair = tuple[PlayerId, PlayerId]


def _frozen_mapping(value: Mapping[Any, Any] | None) -> Mapping[Any, Any]:
    # A read-only copy: the problem is shared between the search and the report, and a
    # caller mutating its dict afterwards must not change what was solved.
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True)
class SeatingProblem:
    """Everything the seating depends on; ``seat`` is a pure function of this value.

    ``families`` maps a player to a household group (or None); members of one group, and the
    two ends of every ``avoid`` pair, should never share a table. ``history`` lists earlier
    meetings (a pair may appear several times); ids not on the roster are ignored there, since
    players who dropped out still appear in old rounds. ``time_limit`` is a safety cap in
    seconds; ``max_iterations`` and ``stall_iterations`` bound the search by work instead,
    which keeps the result deterministic for a seed (a run cut by the clock is not, and the
    report says so).
    """

    players: tuple[PlayerId, ...]
    rounds: int
    families: Mapping[PlayerId, Hashable | None] = field(default_factory=dict)
    avoid: tuple[Pair, ...] = ()
    table_sizes: tuple[int, int] = (4, 5)
    history: tuple[Pair, ...] = ()
    pinned: Mapping[tuple[int, PlayerId], int] = field(default_factory=dict)
    seed: int = 0
    time_limit: float = 10.0
    max_iterations: int | None = None
    stall_iterations: int | None = 20_000

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "avoid", tuple(tuple(pair) for pair in self.avoid))
        object.__setattr__(self, "history", tuple(tuple(pair) for pair in self.history))
        object.__setattr__(self, "table_sizes", tuple(self.table_sizes))
        object.__setattr__(self, "families", _frozen_mapping(self.families))
        object.__setattr__(self, "pinned", _frozen_mapping(self.pinned))

    __hash__ = None  # type: ignore[assignment]  # mappings inside: equality only


@dataclass(frozen=True)
class SeatingReport:
    """What an organizer (and the tests) need to judge a seating.

    ``repeat_pairs`` lists each pair that meets again, with its total meetings counting
    history; ``conflicts`` lists (round, a, b) for family or keep-apart pairs at one table.
    ``stopped_by`` is "bound" (the lower bound was reached, so the seating is optimal on
    repeats), "iterations", "stall", "time" or "stopped" (the caller's stop check said so);
    only "time" and "stopped" make the run seed-unstable.
    """

    players: int
    rounds: int
    table_sizes: tuple[int, ...]
    size_rule: tuple[int, int]
    size_fallback: str | None
    repeat_meetings: int
    repeat_pairs: tuple[tuple[PlayerId, PlayerId, int], ...]
    pairs_met_three_plus: int
    family_conflicts: int
    conflicts: tuple[tuple[int, PlayerId, PlayerId], ...]
    five_table_exposure: tuple[tuple[PlayerId, int], ...]
    exposure_spread: int
    exposure_ideal_spread: int
    repeat_lower_bound: int
    gap: int
    constructed_rounds: int
    stopped_by: str
    iterations: int
    seconds: float
    seed: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; ids are kept as given (the CLI only ever uses strings)."""
        return {
            "players": self.players,
            "rounds": self.rounds,
            "table_sizes": list(self.table_sizes),
            "size_rule": list(self.size_rule),
            "size_fallback": self.size_fallback,
            "repeat_meetings": self.repeat_meetings,
            "repeat_pairs": [[a, b, count] for a, b, count in self.repeat_pairs],
            "pairs_met_three_plus": self.pairs_met_three_plus,
            "family_conflicts": self.family_conflicts,
            "conflicts": [[r, a, b] for r, a, b in self.conflicts],
            "five_table_exposure": dict(self.five_table_exposure),
            "exposure_spread": self.exposure_spread,
            "exposure_ideal_spread": self.exposure_ideal_spread,
            "repeat_lower_bound": self.repeat_lower_bound,
            "gap": self.gap,
            "constructed_rounds": self.constructed_rounds,
            "stopped_by": self.stopped_by,
            "iterations": self.iterations,
            "seconds": round(self.seconds, 4),
            "seed": self.seed,
        }


@dataclass(frozen=True)
class SearchProgress:
    """What a long search tells its caller while it runs (``seat(progress=...)``).

    ``repeat_meetings`` and ``family_conflicts`` describe the best seating found so far,
    counted like the report; ``bound`` is the report's lower bound, so ``repeat_meetings ==
    bound`` means nothing better exists; ``elapsed`` is seconds since ``seat`` started.
    """

    repeat_meetings: int
    family_conflicts: int
    bound: int
    elapsed: float


Table = tuple[PlayerId, ...]


@dataclass(frozen=True)
class Seating:
    """``rounds[r][t]`` is the tuple of players at table t of round r."""

    rounds: tuple[tuple[Table, ...], ...]
    report: SeatingReport
