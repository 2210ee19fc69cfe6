"""Posting, withdrawing a posting and seating the final, each sent twice.

The second tap waits for the first (the event's lock, tournament/locks.py), then finds it
done: "already posted", "not posted", "already seated", a message and a redirect, and the
write applied once. The same from threads at once, on PostgreSQL:
tests/players/test_officials_races_postgres.py.
"""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.models import RoundPosting
from scoring.services.posting import round_post, round_unpost
from tests.builders import players_with_aliases, user_with
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Round
from tournament.roles import ORGANIZER

# Eight players, two tables of four, one round, cash only (Championship Rules, SCORING, four
# remaining: 19/10/5/3): A 19, B 10, C 5, D 3 at table 1; E 19, F 10, G 5, H 3 at table 2. The four
# best by points: A and E (19), then B and F (10); C and G (5) are below the cut.
CASH = [{"A": 3000, "B": 2000, "C": 1500, "D": 1000}, {"E": 2800, "F": 2500, "G": 1200, "H": 900}]


@pytest.fixture
def played(event):
    players = players_with_aliases(event, aliases="ABCDEFGH")
    round_1 = make_round(event, 1, [[players[a] for a in table] for table in CASH])
    for number, cash in enumerate(CASH, start=1):
        play(table_of(round_1, number), {players[a]: amount for a, amount in cash.items()})
    return round_1


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.mark.django_db
def test_posting_twice_posts_once_and_withdrawing_twice_withdraws_once(played):
    round_post(round_=played, by=None)
    with pytest.raises(ValidationError, match="This round is already posted."):
        round_post(round_=Round.objects.get(pk=played.pk), by=None)
    assert RoundPosting.objects.filter(round=played).count() == 1
    round_unpost(round_=played)
    with pytest.raises(ValidationError, match="This round is not posted."):
        round_unpost(round_=Round.objects.get(pk=played.pk))
    assert not RoundPosting.objects.filter(round=played).exists()


@pytest.mark.django_db
def test_a_double_tap_on_seat_the_final_seats_it_once(client, event, played):
    round_post(round_=played, by=None)
    client.force_login(user_with(ORGANIZER, "olive"))
    action = reverse("scoring:final_seat", kwargs={"pk": event.pk})
    page = client.get(reverse("scoring:standings", kwargs={"pk": event.pk})).content.decode()
    form = page.split(f'action="{action}"', 1)[1].split("</form>", 1)[0]
    seen = re.search(r'name="seen" value="([^"]*)"', form).group(1)
    first = client.post(action, {"seen": seen}, follow=True)
    second = client.post(action, {"seen": seen}, follow=True)
    assert (first.status_code, second.status_code) == (200, 200)
    assert messages_of(second)[0].startswith("Already seated:")
    final = Round.objects.get(event=event, kind=Round.Kind.FINAL)
    seated = set(final.seats.values_list("player__alias", flat=True))
    assert seated == {"A", "B", "E", "F"}
    # Without the page's "seen" (a caller with no page), the second is refused all the same.
    third = client.post(action, follow=True)
    assert messages_of(third) == ["This event already has a final."]
