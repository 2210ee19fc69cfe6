"""Pre-seating MONOPOLY tournament rounds: tables of 4 (5 where needed), no family at one
table, as few rematches as possible.

Pure Python, standard library only, and no Django import anywhere below this package (the
app wraps it; tests and the command line use it directly). Entry points:

- ``seat(SeatingProblem(...)) -> Seating`` — the engine (engine.py explains the pipeline);
  ``seat(..., progress=callback, should_stop=check)`` lets a long search be watched and stopped;
- ``check_seating(problem, seating)`` — an independent recount used by the tests;
- ``table_pattern`` and ``repeat_lower_bound`` — the size rule and the optimality bound;
- ``python -m seating.engine PLAYERS.json --rounds R`` — the command line.
"""

from seating.engine.bounds import repeat_lower_bound
from seating.engine.check import SeatingCheck, check_rounds, check_seating
from seating.engine.engine import seat
from seating.engine.groups import GroupedSeating, seat_by_group
from seating.engine.model import SearchProgress, Seating, SeatingProblem, SeatingReport
from seating.engine.sizes import TablePattern, table_pattern

__all__ = [
    "GroupedSeating",
    "Seating",
    "SeatingCheck",
    "SeatingProblem",
    "SeatingReport",
    "SearchProgress",
    "TablePattern",
    "check_rounds",
    "check_seating",
    "repeat_lower_bound",
    "seat",
    "seat_by_group",
    "table_pattern",
]
