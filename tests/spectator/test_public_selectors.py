"""The public selectors' own answers (spectator/selectors.py), worked out by hand from small
events seated and played here, field by field, rather than read off a page.

The championship ("Spring Open", eight players A to H, Championship Rules, SCORING: points by
players remaining, 19-10-5-3 for four, 22-12-6 for three, nothing for a bankrupt player):

* Round 1, posted, one table a wave. Table 1 plays in wave 2 and table 2 in wave 1 (the
  waves swapped after seating); table 1 was seated B, D, A, C, then moved to D, A, C, B, so
  its seats are not in the order they were written; table 2 seats H, F, E, G.
  Cash: A 4000, B 3000, C 2000, D 1000; E 4000, F 3000, G 2000, H 1000. So A and E take
  19, B and F 10, C and G 5, D and H 3.
* Round 2, posted later. Table 1 seats H, D, F, E: E 5000, F 3000, H 2000, D goes bankrupt;
  three players remain, so E 22, F 12, H 6, D 0 (fourth). Table 2 seats B, G, A, C: G 6000,
  C 3500, B 3000, A 2000: G 19, C 10, B 5, A 3.
* The final (round 3) seats E, G, A, F: A 5000, E 4000, G 3000, F 2000: A wins it.

Another championship ("Autumn Open") has players called A and E too, and a posted round
where its A wins: none of it may reach the Spring Open's answers.
"""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.services.posting import round_post
from spectator.selectors import (
    HallRelease,
    PublicEvent,
    PublicLine,
    PublicRoundTables,
    PublicRoundWinners,
    PublicStage,
    PublicStanding,
    PublicTable,
    PublicTableResult,
    PublicWave,
    Release,
    Winner,
    final_stages,
    hall_release,
    public_event,
    public_site,
    release_for,
    round_results,
    round_tables,
    standings,
    winner,
)
from spectator.services import release_set
from tests.builders import an_event, players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Event, Round, Seat, Table, Wave
from tournament.public_site import PublicSite

pytestmark = pytest.mark.django_db

EVERYTHING = Release(home=True, tables=True, results=True, standings=True, final=True, winner=True)


def published(round_: Round) -> Round:
    round_.assignments_published = True
    round_.save(update_fields=["assignments_published"])
    return round_


def as_final(round_: Round) -> Round:
    round_.kind = Round.Kind.FINAL
    round_.save(update_fields=["kind"])
    return round_


def moved_to(table: Table, players: list) -> None:
    """The table's seats changed to ``players``' order (positions 1, 2, ...)."""
    seats = Seat.objects.filter(table=table)
    for seat in seats:
        Seat.objects.filter(pk=seat.pk).update(position=seat.position + 10)
    for position, player in enumerate(players, start=1):
        seats.filter(player=player).update(position=position)


def line(alias, place, points="", *, bankrupt=False, table_winner=False, net_worth=None):
    return PublicLine(
        alias=alias,
        place=place,
        points=points,
        net_worth=net_worth,
        bankrupt=bankrupt,
        table_winner=table_winner,
    )


# --- The championship ---------------------------------------------------------------------------


class Spring:
    def __init__(self):
        self.event = an_event(
            name="Spring Open",
            organization="Riverside Club",
            venue="Town Hall",
            date=datetime.date(2031, 3, 1),
            start_time=datetime.time(10, 0),
        )
        p = self.p = players_with_aliases(self.event, aliases=list("ABCDEFGH"))
        self.round_1 = published(
            make_round(
                self.event,
                1,
                [[p["B"], p["D"], p["A"], p["C"]], [p["H"], p["F"], p["E"], p["G"]]],
                tables_per_wave=1,
            )
        )
        table_1, table_2 = table_of(self.round_1, 1), table_of(self.round_1, 2)
        wave_1, wave_2 = table_1.wave, table_2.wave
        Table.objects.filter(pk=table_1.pk).update(wave=wave_2)
        Table.objects.filter(pk=table_2.pk).update(wave=wave_1)
        moved_to(table_1, [p["D"], p["A"], p["C"], p["B"]])
        play(table_of(self.round_1, 1), {p["A"]: 4000, p["B"]: 3000, p["C"]: 2000, p["D"]: 1000})
        play(table_of(self.round_1, 2), {p["E"]: 4000, p["F"]: 3000, p["G"]: 2000, p["H"]: 1000})
        round_post(round_=self.round_1, by=None)
        # Played, not published, not posted yet.
        self.round_2 = make_round(
            self.event, 2, [[p["H"], p["D"], p["F"], p["E"]], [p["B"], p["G"], p["A"], p["C"]]]
        )
        play(
            table_of(self.round_2, 1),
            {p["E"]: 5000, p["F"]: 3000, p["H"]: 2000},
            bankrupt=[p["D"]],
        )
        play(table_of(self.round_2, 2), {p["G"]: 6000, p["C"]: 3500, p["B"]: 3000, p["A"]: 2000})

    def post_round_2(self):
        round_post(round_=self.round_2, by=None)

    def seat_final(self) -> Round:
        p = self.p
        self.final = as_final(make_round(self.event, 3, [[p["E"], p["G"], p["A"], p["F"]]]))
        return self.final

    def play_final(self, *, post: bool):
        p = self.p
        play(table_of(self.final, 1), {p["A"]: 5000, p["E"]: 4000, p["G"]: 3000, p["F"]: 2000})
        if post:
            round_post(round_=self.final, by=None)


@pytest.fixture
def spring() -> Spring:
    # Another event's posted round first, so its rows come before ours in the tables too.
    autumn = an_event(name="Autumn Open")
    q = players_with_aliases(autumn, aliases=["A", "E", "X", "Y"])
    other = published(make_round(autumn, 1, [[q["A"], q["E"], q["X"], q["Y"]]]))
    play(table_of(other, 1), {q["A"]: 9000, q["E"]: 1000, q["X"]: 800, q["Y"]: 700})
    round_post(round_=other, by=None)
    return Spring()


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


# --- The club knockout --------------------------------------------------------------------------


class Knockout:
    """Tournament Kit: tables of three; only table winners go on.

    Round 1 (posted): table 1 A, B, C (C wins, 3000); table 2 D, E, F (D wins); table 3 G, H,
    I (H wins). Round 2 (played, posted later): table 1 C, E, G (G wins); table 2 H, D, A
    (A wins). The final (round 3): G, A, C, D, posted later, D wins with 7000.
    """

    def __init__(self):
        self.event = an_event(name="Charity Knockout", fmt="club")
        p = self.p = players_with_aliases(self.event, aliases=list("ABCDEFGHI"))
        self.round_1 = published(
            make_round(
                self.event,
                1,
                [[p["A"], p["B"], p["C"]], [p["D"], p["E"], p["F"]], [p["G"], p["H"], p["I"]]],
            )
        )
        for number, cash in (
            (1, {"C": 3000, "A": 2000, "B": 1000}),
            (2, {"D": 3000, "E": 2000, "F": 1000}),
            (3, {"H": 3000, "I": 2000, "G": 1000}),
        ):
            self._play(self.round_1, number, cash)
        round_post(round_=self.round_1, by=None)
        self.round_2 = make_round(
            self.event, 2, [[p["C"], p["E"], p["G"]], [p["H"], p["D"], p["A"]]]
        )
        self._play(self.round_2, 1, {"G": 4000, "C": 2500, "E": 1500})
        self._play(self.round_2, 2, {"A": 5000, "H": 4500, "D": 500})

    def _play(self, round_, number, cash):
        play(table_of(round_, number), {self.p[alias]: amount for alias, amount in cash.items()})

    def post_round_2(self):
        round_post(round_=self.round_2, by=None)

    def final(self, *, post: bool) -> Round:
        p = self.p
        final = as_final(make_round(self.event, 3, [[p["G"], p["A"], p["C"], p["D"]]]))
        self._play(final, 1, {"D": 7000, "G": 6000, "A": 3000, "C": 2000})
        if post:
            round_post(round_=final, by=None)
        return final


@pytest.fixture
def knockout() -> Knockout:
    # Another club's posted round, its table winner called C as ours is.
    other = an_event(name="Other Knockout", fmt="club")
    q = players_with_aliases(other, aliases=["C", "Z", "Y"])
    round_ = published(make_round(other, 1, [[q["C"], q["Z"], q["Y"]]]))
    play(table_of(round_, 1), {q["Z"]: 3000, q["C"]: 2000, q["Y"]: 1000})
    round_post(round_=round_, by=None)
    return Knockout()


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
