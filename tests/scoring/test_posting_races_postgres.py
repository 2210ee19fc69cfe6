"""Posting, withdrawing a posting and seating the final, tapped four times at once.

Threads released together (a barrier), each its own client and database connection, as
in tests/players/test_officials_races_postgres.py: every answer a redirect, never a
500, and each write applied once. Needs PostgreSQL (row locks, concurrent connections).
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring.models import RoundPosting
from scoring.services.posting import round_post
from tests.builders import an_event, players_with_aliases, user_with
from tests.resilience.test_burst_postgres import run_together
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Round
from tournament.roles import HEAD_JUDGE, ORGANIZER

pytestmark = pytest.mark.django_db(transaction=True)

# As in test_officials_double_taps.py: 19/10/5/3 at each table; A, E (19), B, F (10) advance.
CASH = [{"A": 3000, "B": 2000, "C": 1500, "D": 1000}, {"E": 2800, "F": 2500, "G": 1200, "H": 900}]


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: concurrent connections and row locks; SQLite serialises")


@pytest.fixture
def played():
    event = an_event(name="Posting Cup")
    players = players_with_aliases(event, aliases="ABCDEFGH")
    round_1 = make_round(event, 1, [[players[a] for a in table] for table in CASH])
    for number, cash in enumerate(CASH, start=1):
        play(table_of(round_1, number), {players[a]: amount for a, amount in cash.items()})
    return round_1


def clients(role: str, name: str, count: int) -> list[Client]:
    user = user_with(role, name)
    made = []
    for _ in range(count):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        made.append(client)
    return made


def texts_of(outcomes) -> list[str]:
    """Each answer's page after its redirect, as text: never a 500, never an exception."""
    texts = []
    for outcome in outcomes:
        assert not isinstance(outcome, Exception), outcome
        assert outcome.status_code == 200, outcome.status_code
        assert outcome.redirect_chain and outcome.redirect_chain[0][1] == 302
        texts.append(" ".join(outcome.content.decode().split()))
    return texts


def test_four_posts_at_once_post_once_and_four_withdrawals_withdraw_once(played):
    judges = clients(HEAD_JUDGE, "hugo", 4)
    kwargs = {"pk": played.event_id, "round_number": 1}
    post = reverse("scoring:results_post", kwargs=kwargs)
    texts = texts_of(run_together(lambda c: c.post(post, follow=True), judges))
    assert sum("Round 1 is posted" in t for t in texts) == 1
    assert sum("This round is already posted." in t for t in texts) == 3
    assert RoundPosting.objects.filter(round=played).count() == 1

    unpost = reverse("scoring:results_unpost", kwargs=kwargs)
    texts = texts_of(run_together(lambda c: c.post(unpost, follow=True), judges))
    assert sum("Round 1 is no longer posted" in t for t in texts) == 1
    assert sum("This round is not posted." in t for t in texts) == 3
    assert not RoundPosting.objects.filter(round=played).exists()


def test_four_taps_on_seat_the_final_seat_it_once(played):
    round_post(round_=played, by=None)
    organizers = clients(ORGANIZER, "olive", 4)
    event_pk = played.event_id
    action = reverse("scoring:final_seat", kwargs={"pk": event_pk})
    page = organizers[0].get(reverse("scoring:standings", kwargs={"pk": event_pk}))
    form = page.content.decode().split(f'action="{action}"', 1)[1].split("</form>", 1)[0]
    seen = re.search(r'name="seen" value="([^"]*)"', form).group(1)
    texts = texts_of(
        run_together(lambda c: c.post(action, {"seen": seen}, follow=True), organizers)
    )
    assert sum("Already seated: the tables changed" in t for t in texts) == 3
    final = Round.objects.get(event_id=event_pk, kind=Round.Kind.FINAL)
    assert set(final.seats.values_list("player__alias", flat=True)) == {"A", "B", "E", "F"}
    assert Round.objects.filter(event_id=event_pk).count() == 2
