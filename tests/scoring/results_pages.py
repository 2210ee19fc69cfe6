"""What the results pages' tests share: the roles, the routes, four players with real names
behind their aliases, a signed round and a tied one.

The test modules bind the fixtures under their own names (``players = results_pages.players``)
rather than through tests/scoring/conftest.py, whose ``round1`` is another round.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.urls import URLPattern, reverse

from scoring import results_urls
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tests.url_names import qualified
from tournament.models import Player, Round
from tournament.roles import (
    BANKER,
    HEAD_JUDGE,
    HEAD_JUDGE_PERMISSION,
    JUDGE,
    JUDGE_PERMISSION,
    MANAGE,
    ORGANIZER,
)

ANONYMOUS = "anonymous"
ROLES = [ANONYMOUS, BANKER, JUDGE, HEAD_JUDGE, ORGANIZER]
ALLOWED = {
    ANONYMOUS: set(),
    BANKER: set(),
    JUDGE: {JUDGE_PERMISSION},
    HEAD_JUDGE: {JUDGE_PERMISSION, HEAD_JUDGE_PERMISSION},
    ORGANIZER: {JUDGE_PERMISSION, HEAD_JUDGE_PERMISSION, MANAGE},
}
# Who may do what, as the issue asks: judges read tables, approve and correct; the head
# judge decides ties and posts, and so opens the standings, where the ties the
# tie-breakers leave are decided; the organizer orders the tie-breakers, seats the final,
# exports.
EXPECTED = {
    "results_round": JUDGE_PERMISSION,
    "results_table": JUDGE_PERMISSION,
    "results_correct": JUDGE_PERMISSION,
    "results_approve": JUDGE_PERMISSION,
    "results_tie": HEAD_JUDGE_PERMISSION,
    "results_post": HEAD_JUDGE_PERMISSION,
    "results_unpost": HEAD_JUDGE_PERMISSION,
    "standings": HEAD_JUDGE_PERMISSION,
    "standings_tie": HEAD_JUDGE_PERMISSION,
    "standings_tie_breakers": MANAGE,
    "final_seat": MANAGE,
    "results_csv": MANAGE,
    "standings_csv": MANAGE,
}
ROUTES = [
    *[(pattern, "GET") for pattern in results_urls.page_patterns],
    *[(pattern, "POST") for pattern in results_urls.action_patterns],
]
# Real names that must never reach a public page (aliases are the players' tokens).
REAL_NAMES = {
    "Boot": ("Rosalind", "Quimby"),
    "Car": ("Ezekiel", "Marchbanks"),
    "Hat": ("Philippa", "Thorncastle"),
    "Dog": ("Barnaby", "Winterbottom"),
}


def user(role: str) -> User:
    person = User.objects.create_user(f"{role.lower().replace(' ', '-')}-user", password="pw")
    person.groups.add(Group.objects.get(name=role))
    return person


def login(client, role: str):
    if role != ANONYMOUS:
        client.force_login(user(role))
    return client


@pytest.fixture
def players(event) -> dict[str, Player]:
    people = players_with_aliases(event, aliases=list(REAL_NAMES))
    for alias, (first, last) in REAL_NAMES.items():
        Player.objects.filter(pk=people[alias].pk).update(first_name=first, last_name=last)
        people[alias].refresh_from_db()
    return people


@pytest.fixture
def round1(event, players) -> Round:
    """Round 1: one table of four, signed: Boot 3000 (19), Car 2000 (10), Hat 1500 (5),
    Dog 1000 (3)."""
    round_ = make_round(event, 1, [list(players.values())])
    p = players
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 1500, p["Dog"]: 1000})
    return round_


@pytest.fixture
def signed_round1(event, players) -> Round:
    """Round 1 as ``round1``, signed by its table but not yet approved by a judge."""
    round_ = make_round(event, 1, [list(players.values())])
    p = players
    play(
        table_of(round_, 1),
        {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 1500, p["Dog"]: 1000},
        approve=False,
    )
    return round_


@pytest.fixture
def tied_round(event, players) -> Round:
    """Round 1 with Car and Hat level on everything: the engine leaves them tied."""
    round_ = make_round(event, 1, [list(players.values())])
    p = players
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 2000, p["Dog"]: 1000})
    return round_


def url(name: str, event, **kwargs) -> str:
    return reverse(qualified(name), kwargs={"pk": event.pk, **kwargs})


def url_for_pattern(pattern: URLPattern, event) -> str:
    converters = pattern.pattern.converters
    kwargs = {}
    if "round_number" in converters:
        kwargs["round_number"] = 1
    if "table_number" in converters:
        kwargs["table_number"] = 1
    return url(pattern.name, event, **kwargs)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []
