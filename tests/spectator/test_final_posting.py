"""The public final page shows the final's places only once the final is posted.

Championship Rules, POSTING SCORES: scores are posted at the end of each round, by the head judge. A
final whose sheets are all signed (its results computed, waiting for the head judge) is still
only a seating to the public: its tables by alias, no place and no points.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import ResultLine
from scoring.services.posting import round_post
from tests.spectator.final_day import play_to_the_final

ROUND_1 = {"A": 4000, "B": 3000, "C": 2000, "D": 1000, "E": 4100, "F": 3100, "G": 2100, "H": 1100}
# The final's order differs from round 1's, so its places cannot come from round 1.
FINAL = {"F": 5000, "B": 4000, "E": 3000, "A": 2000}


def _final_signed_not_posted(event):
    return play_to_the_final(event, round_1=ROUND_1, final=FINAL, post_final=False)[1]


def _final_page(client, event) -> str:
    response = client.get(reverse("spectator:final", kwargs={"pk": event.pk}))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_a_signed_final_shows_its_seats_but_no_places_until_it_is_posted(client, event):
    final = _final_signed_not_posted(event)
    # The sheets are signed and scored: the places exist, waiting for the head judge.
    assert ResultLine.objects.filter(table__round=final).count() == 4
    page = _final_page(client, event)
    assert 'id="final-table-1"' in page
    for alias in FINAL:
        assert f'<li class="alias">{alias}</li>' in page
    assert 'id="results-table-1"' not in page
    assert 'class="num points"' not in page

    round_post(round_=final, by=None)
    page = _final_page(client, event)
    assert 'id="results-table-1"' in page and 'id="final-table-1"' not in page
    # The places are the final's own (F, B, E, A by net worth), not round 1's.
    places = [line for line in page.split("<tr") if 'class="alias"' in line]
    assert [line.split('class="alias">')[1][0] for line in places] == ["F", "B", "E", "A"]
