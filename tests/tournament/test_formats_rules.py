"""What each format decides, from the rule books (the Tournament Kit for clubs, the Championship
Rules for the championship and the junior event), and that a format this version does not know
behaves as the championship (tournament/formats.py says so)."""

from __future__ import annotations

import pytest
from django.utils import translation

from gameplay import CHAMPIONSHIP_POINTS, load_edition
from tests.builders import an_event
from tournament.formats import (
    POSTS_NET_WORTH,
    POSTS_POINTS,
    POSTS_TABLE_WINNERS,
    RANKING_ASSETS,
    RANKING_POINTS,
    age_refusal,
    age_rule,
    edition_in_language,
    event_has_final,
    event_has_last_turn,
    event_is_knockout,
    event_minimum_players,
    event_points_table,
    event_posts,
    event_ranking,
)
from tournament.models import Event

pytestmark = pytest.mark.django_db


def facts(event) -> dict:
    return {
        "ranking": event_ranking(event=event),
        "points": event_points_table(event=event),
        "posts": event_posts(event=event),
        "final": event_has_final(event=event),
        "last turn": event_has_last_turn(event=event),
        "knockout": event_is_knockout(event=event),
    }


def test_the_championship_scores_by_points_and_plays_a_last_turn_to_a_final():
    # Championship Rules: points by players remaining (4 remaining: 19 10 5 3), "point scores (not
    # net worth) will be posted", the top players progress to the final, a last turn.
    event = an_event(fmt="championship")
    assert facts(event) == {
        "ranking": RANKING_POINTS,
        "points": CHAMPIONSHIP_POINTS,
        "posts": POSTS_POINTS,
        "final": True,
        "last turn": True,
        "knockout": False,
    }
    assert event_points_table(event=event).points(remaining=4, place=2) == 10


def test_a_club_knockout_ranks_by_assets_and_stops_when_time_is_called():
    # Tournament Kit: a knockout of at least 24 players, assets decide, table winners go on, and
    # when time is called "the game must stop".
    event = an_event(fmt="club")
    assert facts(event) == {
        "ranking": RANKING_ASSETS,
        "points": None,
        "posts": POSTS_TABLE_WINNERS,
        "final": True,
        "last turn": False,
        "knockout": True,
    }
    assert event_minimum_players(event=event) == 24


def test_the_junior_event_is_one_game_won_by_net_worth():
    # Championship Rules, JUNIOR: one game, "the most assets (net worth)" wins, no final.
    event = an_event(fmt="junior")
    assert facts(event) == {
        "ranking": RANKING_ASSETS,
        "points": None,
        "posts": POSTS_NET_WORTH,
        "final": False,
        "last turn": True,
        "knockout": False,
    }


def test_a_format_this_version_does_not_know_behaves_as_the_championship():
    event = an_event(fmt="championship")
    Event.objects.filter(pk=event.pk).update(format="a-retired-format")
    event.refresh_from_db()
    assert facts(event) == {
        "ranking": RANKING_POINTS,
        "points": CHAMPIONSHIP_POINTS,
        "posts": POSTS_POINTS,
        "final": True,
        "last turn": True,
        "knockout": False,
    }
    # No format's floor to enforce: one player is enough.
    assert event_minimum_players(event=event) == 1


def test_a_regional_that_ends_with_its_qualifiers_has_no_final():
    event = an_event(fmt="championship", ends_with_qualifiers=True)
    assert event_has_final(event=event) is False


def test_the_age_limits_are_the_events_own_and_say_where_to_play_instead():
    senior = an_event(fmt="championship")
    assert age_refusal(event=senior, age=16) is None
    refused = age_refusal(event=senior, age=15)
    assert "at least 16" in refused and "(15 then)" in refused
    assert refused.endswith("Players under 16 play the junior championship.")
    assert age_rule(event=senior) == (
        "Players must be 16 or over on the day of the event. "
        "Players under 16 play the junior championship."
    )
    junior = an_event(fmt="junior")
    assert age_refusal(event=junior, age=8) is None and age_refusal(event=junior, age=15) is None
    assert "at least 8" in age_refusal(event=junior, age=7)
    assert age_refusal(event=junior, age=16) == (
        "This event is for players up to 15 (16 on the day). "
        "Players of 16 or over play the senior championship."
    )
    assert age_rule(event=junior) == (
        "Players must be 8 to 15 years old on the day of the event. "
        "Players of 16 or over play the senior championship."
    )
    club = an_event(fmt="club")
    assert age_rule(event=club) == "Players must be 8 or over on the day of the event."
    assert age_refusal(event=club, age=7) == (
        "Players must be at least 8 on the day of the event (7 then)."
    )


def test_the_editions_words_are_shown_in_the_readers_language_their_rules_unchanged():
    edition = load_edition("classic-us")
    with translation.override("fr"):
        french = edition_in_language(edition)
    assert french.words["house"] == "maison"
    assert french.words["community_chest"] != "Community Chest"
    assert set(french.words) == set(edition.words)
    with translation.override("en"):
        assert edition_in_language(edition).words == edition.words
    # Only the words change: the board and the money are the edition's.
    assert french.__class__ is edition.__class__
    assert {k: v for k, v in vars(french).items() if k != "words"} == {
        k: v for k, v in vars(edition).items() if k != "words"
    }
