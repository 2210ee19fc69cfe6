"""Fixtures for the scoring tests (helpers live in scoring_helpers.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, table_of
from tournament.models import Player, Round, Table


@pytest.fixture
def banker(db) -> User:
    return User.objects.create_user("banker", password="pw")


@pytest.fixture
def judge(db) -> User:
    return User.objects.create_user("judge", password="pw")


@pytest.fixture
def four(event) -> dict[str, Player]:
    return players_with_aliases(event, aliases=["Boot", "Car", "Hat", "Dog"])


@pytest.fixture
def round1(event, four) -> Round:
    """Round 1: one table of four, the game over."""
    return make_round(event, 1, [list(four.values())])


@pytest.fixture
def table(round1) -> Table:
    return table_of(round1, 1)
