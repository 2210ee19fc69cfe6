"""The public selectors' answers for a club knockout, a junior game, the hall display and
the release switches, worked out by hand (tests/spectator/public_events.py has the events)."""

from __future__ import annotations

import pytest

from scoring.services.posting import round_post
from spectator.selectors import (
    HallRelease,
    PublicRoundWinners,
    PublicTable,
    PublicTableResult,
    Release,
    Winner,
    final_stages,
    hall_release,
    public_site,
    release_for,
    round_results,
    standings,
    winner,
)
from spectator.services import release_set
from tests.builders import an_event, players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tests.spectator.public_events import (
    EVERYTHING,
    line,
    published,
)
from tournament.models import Wave
from tournament.public_site import PublicSite

pytestmark = pytest.mark.django_db


def test_a_club_posts_each_rounds_table_winners_instead_of_a_ranking(knockout):
    public = standings(event_pk=knockout.event.pk, release=EVERYTHING)
    assert public is not None
    # Only table winners go through: no ranked rows, no columns; the order still says how
    # the organizer's pages rank (the kit's assets first).
    assert (public.columns, public.rows) == ((), ())
    assert public.order == ("total net worth", "games won", "best game")
    assert public.posted_rounds == (1,)
    # Round 2 is played but not posted; the other club's Z is no winner here.
    assert public.table_winners == (
        PublicRoundWinners(number=1, tables=((1, ("C",)), (2, ("D",)), (3, ("H",)))),
    )
    assert public.tie_breaks is False

    knockout.post_round_2()
    knockout.final(post=True)
    public = standings(event_pk=knockout.event.pk, release=EVERYTHING)
    assert public is not None
    # Rounds in order, tables in order; the final is not a preliminary round.
    assert public.posted_rounds == (1, 2)
    assert public.table_winners == (
        PublicRoundWinners(number=1, tables=((1, ("C",)), (2, ("D",)), (3, ("H",)))),
        PublicRoundWinners(number=2, tables=((1, ("G",)), (2, ("A",)))),
    )
    assert standings(event_pk=knockout.event.pk, release=Release(final=True)) is None


def test_a_clubs_results_mark_the_table_winner_and_show_no_points(knockout):
    results = round_results(event_pk=knockout.event.pk, number=1, release=EVERYTHING)
    # Places by cash, the first of each table marked; no points, no net worth.
    assert results == (
        PublicTableResult(
            number=1,
            lines=(line("C", 1, table_winner=True), line("A", 2), line("B", 3)),
        ),
        PublicTableResult(
            number=2,
            lines=(line("D", 1, table_winner=True), line("E", 2), line("F", 3)),
        ),
        PublicTableResult(
            number=3,
            lines=(line("H", 1, table_winner=True), line("I", 2), line("G", 3)),
        ),
    )
    assert round_results(event_pk=knockout.event.pk, number=2, release=EVERYTHING) is None


def test_a_clubs_final_and_winner(knockout):
    knockout.post_round_2()
    final = knockout.final(post=False)
    assert winner(event_pk=knockout.event.pk, release=EVERYTHING) is None
    (stage,) = final_stages(event_pk=knockout.event.pk, release=EVERYTHING) or ()
    assert (stage.number, stage.kind, stage.results) == (3, "final", None)
    assert stage.tables.waves[0][1] == (
        PublicTable(number=1, wave=1, aliases=("G", "A", "C", "D")),
    )
    round_post(round_=final, by=None)
    (stage,) = final_stages(event_pk=knockout.event.pk, release=EVERYTHING) or ()
    assert stage.results == (
        PublicTableResult(
            number=1,
            lines=(
                line("D", 1, table_winner=True),
                line("G", 2),
                line("A", 3),
                line("C", 4),
            ),
        ),
    )
    assert winner(event_pk=knockout.event.pk, release=EVERYTHING) == Winner(
        aliases=("D",), round_number=3, by_final=True, net_worth=None
    )


# --- The junior game: net worth posted ----------------------------------------------------------


def test_a_junior_game_posts_net_worth_and_its_winner_has_the_most_assets():
    """Championship Rules, JUNIOR: one game, "the most assets (net worth)" wins."""
    junior = an_event(name="Junior Cup", fmt="junior")
    p = players_with_aliases(junior, aliases=["Kit", "Lu", "Mo", "Ned"])
    round_ = published(make_round(junior, 1, [[p["Lu"], p["Kit"], p["Ned"], p["Mo"]]]))
    play(table_of(round_, 1), {p["Kit"]: 2500, p["Lu"]: 4100, p["Mo"]: 1800, p["Ned"]: 900})
    assert winner(event_pk=junior.pk, release=EVERYTHING) is None
    round_post(round_=round_, by=None)
    assert round_results(event_pk=junior.pk, number=1, release=EVERYTHING) == (
        PublicTableResult(
            number=1,
            lines=(
                line("Lu", 1, net_worth=4100),
                line("Kit", 2, net_worth=2500),
                line("Mo", 3, net_worth=1800),
                line("Ned", 4, net_worth=900),
            ),
        ),
    )
    assert winner(event_pk=junior.pk, release=EVERYTHING) == Winner(
        aliases=("Lu",), round_number=1, by_final=False, net_worth=4100
    )


# --- The hall display and the switches' names ---------------------------------------------------


def test_the_hall_shows_the_clock_with_the_home_and_tables_once_published(spring):
    wave_1 = Wave.objects.get(round=spring.round_1, number=1)
    unpublished = Wave.objects.get(round=spring.round_2, number=1)
    event = spring.event
    assert hall_release(event=event, wave=None) == HallRelease(clock=False, tables=False)
    # Posting round 1 opened pages on its own; the organizer switches them all off.
    release_set(event=event, pages=dict.fromkeys(EVERYTHING.__dict__, False), by=None)
    assert hall_release(event=event, wave=wave_1) == HallRelease(clock=False, tables=False)
    release_set(event=event, pages={"home": True}, by=None)
    assert hall_release(event=event, wave=wave_1) == HallRelease(clock=True, tables=False)
    assert hall_release(event=event, wave=None) == HallRelease(clock=False, tables=False)
    release_set(event=event, pages={"tables": True}, by=None)
    assert hall_release(event=event, wave=wave_1) == HallRelease(clock=True, tables=True)
    assert hall_release(event=event, wave=unpublished) == HallRelease(clock=True, tables=False)
    release_set(event=event, pages={"home": False}, by=None)
    assert hall_release(event=event, wave=wave_1) == HallRelease(clock=False, tables=True)


LABELS = {
    # The release switches' own names (spectator.models.PublicRelease).
    "home": "event home",
    "tables": "table assignments",
    "results": "round results",
    "standings": "standings",
    "final": "final table",
    "winner": "winner",
}


def test_the_switches_go_by_the_names_the_organizers_page_gives_them():
    event = an_event(name="Labels Open")
    other = an_event(name="Other Open")
    # Nothing switched yet: nothing released, nothing held.
    assert public_site(event.pk) == PublicSite(held=False, released=frozenset(), labels=LABELS)
    release_set(event=event, pages={"tables": True, "winner": True}, by=None, held=True)
    release_set(event=other, pages={"results": True}, by=None)
    assert public_site(event.pk) == PublicSite(
        held=True, released=frozenset({"tables", "winner"}), labels=LABELS
    )
    assert release_for(event_pk=event.pk) == Release(tables=True, winner=True)
    assert release_for(event_pk=an_event(name="Never Switched").pk) == Release()
