"""Boardwalk's MONOPOLY rules engine: editions as data, score-sheet checks, valuation, points.

Pure Python with no Django import, so the tournament apps, the banker's tablet and the
command line (``python -m gameplay``) all share one source of truth for the game's numbers.
"""

from gameplay.check import PlayerResult, SheetReport, check_sheet
from gameplay.edition import (
    ColourGroup,
    Edition,
    EditionError,
    Space,
    all_editions,
    edition_slugs,
    load_edition,
)
from gameplay.points import CHAMPIONSHIP_POINTS, PointsTable, Standing, TableResult, rank_table
from gameplay.sheet import (
    VIOLATION_CODES,
    Holding,
    PlayerEntry,
    ScoreSheet,
    SheetFormatError,
    Violation,
)
from gameplay.valuation import Valuation, value_estate

__all__ = [
    "CHAMPIONSHIP_POINTS",
    "ColourGroup",
    "Edition",
    "EditionError",
    "Holding",
    "PlayerEntry",
    "PlayerResult",
    "PointsTable",
    "ScoreSheet",
    "SheetFormatError",
    "SheetReport",
    "Space",
    "Standing",
    "TableResult",
    "VIOLATION_CODES",
    "Valuation",
    "Violation",
    "all_editions",
    "check_sheet",
    "edition_slugs",
    "load_edition",
    "rank_table",
    "value_estate",
]
