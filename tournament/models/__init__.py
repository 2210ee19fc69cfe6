"""Database models for events and the people at them, one module per concept.

Models hold data and its invariants; workflows (registering, promoting an alternate,
ejecting) live in the apps' ``services.py`` so every entry point follows the same rules.
Every model keeps the ``tournament`` app label and its table; import them from here.
"""

from tournament.models.bankruptcy import Bankruptcy
from tournament.models.clock import Announcement, Clock, ClockAction
from tournament.models.event import Event, age_on, edition_choices
from tournament.models.official_writes import OfficialWrite
from tournament.models.officials import OfficialProfile
from tournament.models.people import Player
from tournament.models.play import Round, Seat, Table, TableStatus, Wave
from tournament.models.tablets import JudgeCall, KeptAnswer, TabletHeartbeat, TabletWrite

__all__ = [
    "Announcement",
    "Bankruptcy",
    "Clock",
    "ClockAction",
    "Event",
    "JudgeCall",
    "KeptAnswer",
    "OfficialProfile",
    "OfficialWrite",
    "Player",
    "Round",
    "Seat",
    "Table",
    "TableStatus",
    "TabletHeartbeat",
    "TabletWrite",
    "Wave",
    "age_on",
    "edition_choices",
]
