"""The public selectors' own answers (spectator/selectors.py) for a championship, worked out
by hand field by field, rather than read off a page: the Spring Open of
tests/spectator/public_events.py, where its rounds, cash and points are written out."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.services.posting import round_post
from spectator.selectors import (
    PublicEvent,
    PublicRoundTables,
    PublicStage,
    PublicStanding,
    PublicTable,
    PublicTableResult,
    PublicWave,
    Release,
    Winner,
    final_stages,
    public_event,
    round_results,
    round_tables,
    standings,
    winner,
)
from tests.builders import an_event
from tests.spectator.public_events import (
    EVERYTHING,
    line,
    published,
)
from tournament.models import Event, Round, Wave

pytestmark = pytest.mark.django_db


def test_the_public_event_holds_the_events_public_facts():
    event = an_event(
        name="Spring Open",
        organization="Riverside Club",
        venue="Town Hall",
        date=datetime.date(2031, 3, 1),
        start_time=datetime.time(10, 0),
        round_minutes=75,
    )
    # The championship's defaults: three preliminary rounds, the US classic edition, points
    # posted; pre-registration closes three days before the start when the organizer sets
    # nothing (10:00 UTC on 1 March, so 10:00 on 26 February).
    assert public_event(pk=event.pk) == PublicEvent(
        pk=event.pk,
        name="Spring Open",
        organization="Riverside Club",
        venue="Town Hall",
        date=datetime.date(2031, 3, 1),
        start_time=datetime.time(10, 0),
        format_label="Championship",
        edition_label="Classic (US, Atlantic City)",
        edition="classic-us",
        preliminary_rounds=3,
        round_minutes=75,
        posts="points",
        registration_closes=datetime.datetime(2031, 2, 26, 10, 0, tzinfo=datetime.UTC),
    )
    closes = datetime.datetime(2031, 2, 20, 18, 0, tzinfo=datetime.UTC)
    Event.objects.filter(pk=event.pk).update(registration_closes=closes)
    assert public_event(pk=event.pk).registration_closes == closes


def test_a_club_event_posts_table_winners_and_an_unknown_event_raises():
    club = an_event(name="Charity Knockout", fmt="club")
    public = public_event(pk=club.pk)
    # Tournament Kit: two 90-minute preliminary rounds; a club names each table's winner.
    assert (public.format_label, public.preliminary_rounds, public.round_minutes) == (
        "Club / charity",
        2,
        90,
    )
    assert (public.posts, public.shows_table_winners, public.shows_points) == (
        "table_winners",
        True,
        False,
    )
    with pytest.raises(Event.DoesNotExist):
        public_event(pk=club.pk + 1000)


def test_a_rounds_tables_by_wave_table_and_seat(spring):
    public = round_tables(event_pk=spring.event.pk, number=1, release=EVERYTHING)
    # Waves in their order though table 1 plays in wave 2; aliases in seat order, neither
    # alphabetical nor the order the seats were written.
    assert public == PublicRoundTables(
        number=1,
        kind="preliminary",
        waves=(
            (
                PublicWave(number=1, scheduled_start=None),
                (PublicTable(number=2, wave=1, aliases=("H", "F", "E", "G")),),
            ),
            (
                PublicWave(number=2, scheduled_start=None),
                (PublicTable(number=1, wave=2, aliases=("D", "A", "C", "B")),),
            ),
        ),
    )


def test_tables_in_one_wave_come_by_number_with_the_waves_start(spring):
    start = datetime.datetime(2031, 3, 1, 13, 30, tzinfo=datetime.UTC)
    Wave.objects.filter(round=spring.round_2).update(scheduled_start=start)
    published(spring.round_2)
    public = round_tables(event_pk=spring.event.pk, number=2, release=EVERYTHING)
    assert public == PublicRoundTables(
        number=2,
        kind="preliminary",
        waves=(
            (
                PublicWave(number=1, scheduled_start=start),
                (
                    PublicTable(number=1, wave=1, aliases=("H", "D", "F", "E")),
                    PublicTable(number=2, wave=1, aliases=("B", "G", "A", "C")),
                ),
            ),
        ),
    )


def test_tables_stay_hidden_until_released_and_published(spring):
    # Round 2 is seated but not published; round 1 is published but the page is held back.
    assert round_tables(event_pk=spring.event.pk, number=2, release=EVERYTHING) is None
    assert round_tables(event_pk=spring.event.pk, number=1, release=Release(results=True)) is None
    with pytest.raises(Round.DoesNotExist):
        round_tables(event_pk=spring.event.pk, number=9, release=EVERYTHING)


def test_a_posted_rounds_results_give_places_and_points_by_table(spring):
    results = round_results(event_pk=spring.event.pk, number=1, release=EVERYTHING)
    # 19-10-5-3 for four players remaining; by place, whatever the seat order; no net worth
    # (Championship Rules, POSTING SCORES: "Point scores (not net worth)").
    assert results == (
        PublicTableResult(
            number=1,
            lines=(line("A", 1, "19"), line("B", 2, "10"), line("C", 3, "5"), line("D", 4, "3")),
        ),
        PublicTableResult(
            number=2,
            lines=(line("E", 1, "19"), line("F", 2, "10"), line("G", 3, "5"), line("H", 4, "3")),
        ),
    )


def test_results_wait_for_the_posting_and_the_release(spring):
    assert round_results(event_pk=spring.event.pk, number=2, release=EVERYTHING) is None
    assert round_results(event_pk=spring.event.pk, number=1, release=Release(tables=True)) is None
    spring.post_round_2()
    results = round_results(event_pk=spring.event.pk, number=2, release=EVERYTHING)
    # Table 1: three remaining score 22-12-6, D bankrupt is fourth with nothing.
    assert results == (
        PublicTableResult(
            number=1,
            lines=(
                line("E", 1, "22"),
                line("F", 2, "12"),
                line("H", 3, "6"),
                line("D", 4, "0", bankrupt=True),
            ),
        ),
        PublicTableResult(
            number=2,
            lines=(line("G", 1, "19"), line("C", 2, "10"), line("B", 3, "5"), line("A", 4, "3")),
        ),
    )
    with pytest.raises(Round.DoesNotExist):
        round_results(event_pk=spring.event.pk, number=9, release=EVERYTHING)


def standing(place, alias, games, points, wins, broken_by=""):
    return PublicStanding(
        place=place, alias=alias, games=games, values=(points, wins), tie_broken_by=broken_by
    )


def test_the_championship_standings_count_posted_rounds_only_and_show_shared_places(spring):
    assert standings(event_pk=spring.event.pk, release=Release(results=True)) is None
    public = standings(event_pk=spring.event.pk, release=EVERYTHING)
    assert public is not None
    # Points and games won are posted; net worth and best game rank but stay off the page.
    assert [(key, str(label)) for key, label in public.columns] == [
        ("points", "points"),
        ("wins", "games won"),
    ]
    assert public.order == ("points", "games won", "total net worth", "best game")
    assert (public.posted_rounds, public.table_winners) == ((1,), ())
    # Round 2 is not posted and Autumn Open's A won 9000 elsewhere: round 1 alone counts.
    # A and E are level on everything (19, one win, 4000, best 4000), and so on down: each
    # pair shares its place, alphabetically, and nothing broke a tie.
    assert public.rows == (
        standing("1=", "A", 1, "19", "1"),
        standing("1=", "E", 1, "19", "1"),
        standing("3=", "B", 1, "10", "0"),
        standing("3=", "F", 1, "10", "0"),
        standing("5=", "C", 1, "5", "0"),
        standing("5=", "G", 1, "5", "0"),
        standing("7=", "D", 1, "3", "0"),
        standing("7=", "H", 1, "3", "0"),
    )
    assert public.tie_breaks is False


def test_the_championship_standings_say_what_broke_each_tie(spring):
    spring.post_round_2()
    spring.seat_final()
    spring.play_final(post=True)
    public = standings(event_pk=spring.event.pk, release=EVERYTHING)
    assert public is not None
    # Two rounds, the final not counted (its own game):
    # E 19+22=41; G 5+19=24; A 19+3=22 with one win; F 10+12=22 with none, so games won put
    # A above F; B 10+5=15 and C 5+10=15, no wins, net worth B 3000+3000=6000 against
    # C 2000+3500=5500; H 3+6=9; D 3+0=3 (the bankrupt game still counts as a game).
    assert public.rows == (
        standing("1", "E", 2, "41", "2"),
        standing("2", "G", 2, "24", "1"),
        standing("3", "A", 2, "22", "1"),
        standing("4", "F", 2, "22", "0", "games won"),
        standing("5", "B", 2, "15", "0"),
        standing("6", "C", 2, "15", "0", "total net worth"),
        standing("7", "H", 2, "9", "0"),
        standing("8", "D", 2, "3", "0"),
    )
    assert public.posted_rounds == (1, 2)
    assert public.tie_breaks is True


def test_the_public_answers_never_load_a_registered_name(spring):
    """Aliases only: standings and the winner rank without reading a player's row."""
    spring.post_round_2()
    spring.seat_final()
    spring.play_final(post=True)
    with CaptureQueriesContext(connection) as queries:
        assert standings(event_pk=spring.event.pk, release=EVERYTHING) is not None
        assert winner(event_pk=spring.event.pk, release=EVERYTHING) is not None
    read = " ".join(q["sql"] for q in queries.captured_queries)
    assert "first_name" not in read
    assert "last_name" not in read


def test_the_final_stage_as_seated_then_as_posted(spring):
    assert final_stages(event_pk=spring.event.pk, release=Release(winner=True)) is None
    # Released, with no final seated yet: nothing to show, but not "held".
    assert final_stages(event_pk=spring.event.pk, release=EVERYTHING) == ()
    spring.post_round_2()
    spring.seat_final()
    seated = PublicRoundTables(
        number=3,
        kind="final",
        waves=(
            (
                PublicWave(number=1, scheduled_start=None),
                (PublicTable(number=1, wave=1, aliases=("E", "G", "A", "F")),),
            ),
        ),
    )
    expected = PublicStage(number=3, kind="final", kind_label="Final", tables=seated, results=None)
    assert final_stages(event_pk=spring.event.pk, release=EVERYTHING) == (expected,)
    spring.play_final(post=False)
    # Played but not posted: still no result.
    assert final_stages(event_pk=spring.event.pk, release=EVERYTHING) == (expected,)
    spring.final.refresh_from_db()
    round_post(round_=spring.final, by=None)
    # Four players remain at the final: 19-10-5-3.
    assert final_stages(event_pk=spring.event.pk, release=EVERYTHING) == (
        PublicStage(
            number=3,
            kind="final",
            kind_label="Final",
            tables=seated,
            results=(
                PublicTableResult(
                    number=1,
                    lines=(
                        line("A", 1, "19"),
                        line("E", 2, "10"),
                        line("G", 3, "5"),
                        line("F", 4, "3"),
                    ),
                ),
            ),
        ),
    )


def test_the_winner_is_named_once_the_final_is_posted_and_released(spring):
    spring.post_round_2()
    # E leads the standings, but a championship's winner is the final's.
    assert winner(event_pk=spring.event.pk, release=EVERYTHING) is None
    spring.seat_final()
    spring.play_final(post=False)
    assert winner(event_pk=spring.event.pk, release=EVERYTHING) is None
    round_post(round_=spring.final, by=None)
    assert winner(event_pk=spring.event.pk, release=Release(final=True)) is None
    # A won the final with 5000; a championship posts no net worth.
    assert winner(event_pk=spring.event.pk, release=EVERYTHING) == Winner(
        aliases=("A",), round_number=3, by_final=True, net_worth=None
    )
