"""Fixtures for the public site: a small played event, and a clean cache for every test.

The score-sheet helpers are the scoring tests' own (tests/scoring/scoring_helpers.py).
"""

from __future__ import annotations

import pytest
from django.core.cache import cache

from scoring.services.posting import round_post
from tests.builders import an_event, players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tests.spectator.public_events import Knockout, Spring, published
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


# The public selectors' small events (tests/spectator/public_events.py).


@pytest.fixture
def spring() -> Spring:
    # Another event's posted round first, so its rows come before ours in the tables too.
    autumn = an_event(name="Autumn Open")
    q = players_with_aliases(autumn, aliases=["A", "E", "X", "Y"])
    other = published(make_round(autumn, 1, [[q["A"], q["E"], q["X"], q["Y"]]]))
    play(table_of(other, 1), {q["A"]: 9000, q["E"]: 1000, q["X"]: 800, q["Y"]: 700})
    round_post(round_=other, by=None)
    return Spring()


@pytest.fixture
def knockout() -> Knockout:
    # Another club's posted round, its table winner called C as ours is.
    other = an_event(name="Other Knockout", fmt="club")
    q = players_with_aliases(other, aliases=["C", "Z", "Y"])
    round_ = published(make_round(other, 1, [[q["C"], q["Z"], q["Y"]]]))
    play(table_of(round_, 1), {q["Z"]: 3000, q["C"]: 2000, q["Y"]: 1000})
    round_post(round_=round_, by=None)
    return Knockout()
