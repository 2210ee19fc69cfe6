"""Fixtures for the public site: a small played event, and a clean cache for every test.

The score-sheet helpers are the scoring tests' own (tests/scoring/scoring_helpers.py).
"""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tests.spectator.spectator_names import REAL_NAMES
from tournament.models import Player, Round


@pytest.fixture(autouse=True)
def clean_cache():
    """Local-memory cache outlives a test; each starts with no versions and no pages."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def players(event) -> dict[str, Player]:
    people = players_with_aliases(event, aliases=list(REAL_NAMES))
    for alias, (first, last) in REAL_NAMES.items():
        Player.objects.filter(pk=people[alias].pk).update(
            first_name=first, last_name=last, email=f"{first.lower()}@example.net"
        )
        people[alias].refresh_from_db()
    return people


@pytest.fixture
def round1(event, players) -> Round:
    """Round 1 played and signed (one table of four), published, not posted yet."""
    p = players
    round_ = make_round(event, 1, [list(p.values())])
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 1500, p["Dog"]: 1000})
    round_.assignments_published = True
    round_.save(update_fields=["assignments_published"])
    return round_
