"""The event home ends the day as the hall display does: once the winner is posted it opens
on the winner instead of the last round, and no clock stopped at the final's end
is left on the page; a held winner page keeps the winner off the home too. Being the event
itself, the home has no "Back to the event" link; every other public page keeps one.

Championship Rules, JUNIOR: one game, the most net worth wins: Boot, with 3000.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from spectator.services import release_set
from tests.scoring.scoring_helpers import make_round, play, table_of
from tests.spectator.test_public_follows_the_day import official, post
from tournament.roles import HEAD_JUDGE


@pytest.fixture
def junior(event):
    event.format = "junior"
    event.preliminary_rounds = 1
    event.save(update_fields=["format", "preliminary_rounds"])
    return event


def now_section(html: str) -> str:
    found = re.search(r'<section aria-labelledby="now">(.*?)</section>', html, flags=re.S)
    assert found, html
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def winner_section(html: str) -> str:
    found = re.search(
        r'<section aria-labelledby="winner-heading"[^>]*>(.*?)</section>', html, flags=re.S
    )
    assert found, html
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


@pytest.mark.parametrize("held", [False, True], ids=["follows", "held"])
def test_the_event_home_names_the_winner_once_it_is_posted(junior, players, held):
    p = players
    round_ = make_round(junior, 1, [[p["Boot"], p["Car"], p["Hat"], p["Dog"]]])
    round_.assignments_published = True
    round_.save(update_fields=["assignments_published"])
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 1500, p["Dog"]: 1000})
    # The home is public either way; holding the site keeps the posted results back.
    release_set(event=junior, pages={"home": True}, by=None, held=held)
    phone = Client()
    home = reverse("spectator:event_home", kwargs={"pk": junior.pk})
    before = phone.get(home).content.decode()
    assert now_section(before).startswith("Now Round 1")
    assert "data-clock" in before

    post(official(HEAD_JUDGE), junior)
    after = phone.get(home).content.decode()
    live = phone.get(reverse("spectator:home_live", kwargs={"pk": junior.pk})).content.decode()
    if held:
        assert now_section(after).startswith("Now Round 1")
        assert 'aria-labelledby="winner-heading"' not in after
    else:
        for page in (after, live):
            # The winner first, where the round being played was; nothing is "now" any more.
            assert winner_section(page).startswith("The winner Boot")
            assert 'aria-labelledby="now"' not in page
        assert "data-clock" not in after


def test_the_event_home_has_no_link_back_to_itself_and_the_other_pages_do(event, round1):
    release_set(event=event, pages={"home": True, "tables": True}, by=None)
    phone = Client()
    home = phone.get(reverse("spectator:event_home", kwargs={"pk": event.pk})).content.decode()
    tables = phone.get(
        reverse("spectator:tables", kwargs={"pk": event.pk, "number": 1})
    ).content.decode()
    assert "Back to the event" not in home
    assert "Back to the event" in tables
