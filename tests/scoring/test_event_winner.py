"""Who the event's winner is, the one player the Winner Notification Form is printed for.

Tournament Kit, THE DAY OF THE TOURNAMENT: "To arrive at a winner, you must have at least two rounds
of play"; the last is the six-player final. Championship Rules, JUNIOR: "The Juniors will only be
asked to play 1 game of MONOPOLY, with the competitor who accumulates the most assets (net worth)
being the overall winner".
"""

from __future__ import annotations

import datetime

import pytest

from scoring.selectors import event_winner
from scoring.services.posting import round_post
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Round
from tournament.services import event_create


def test_no_winner_until_the_final_is_posted(event, four, round1):
    boot, car, hat, dog = four.values()
    play(table_of(round1, 1), {boot: 3000, car: 2000, hat: 1000, dog: 500})
    round_post(round_=round1, by=None)
    assert event_winner(event=event) is None  # preliminaries only: no final yet

    final = make_round(event, 2, [[boot, car]])
    final.kind = Round.Kind.FINAL
    final.save()
    assert event_winner(event=event) is None  # seated, not played
    # Car wins the final with $4,100 to Boot's $900, whatever round 1 said.
    play(table_of(final, 1), {boot: 900, car: 4100})
    assert event_winner(event=event) is None  # signed, not posted
    round_post(round_=final, by=None)
    assert event_winner(event=event).player == car


def test_an_outright_final_winner_is_the_winner(event, four):
    """Hat wins the final outright, the others bankrupt (Tournament Kit, BANKRUPTCY: "The last
    player left in the game wins")."""
    boot, car, hat, dog = four.values()
    final = make_round(event, 1, [[boot, car, hat, dog]])
    final.kind = Round.Kind.FINAL
    final.save()
    play(table_of(final, 1), {hat: 7300}, bankrupt=[boot, dog, car])
    round_post(round_=final, by=None)
    assert event_winner(event=event).player == hat


@pytest.fixture
def junior(db):
    return event_create(
        name="Junior Regional",
        organization="Club",
        venue="Hall",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
        format="junior",
    )


def test_the_junior_winner_has_the_most_assets_of_the_posted_game(junior):
    players = players_with_aliases(
        junior, aliases=["Boot", "Car", "Hat", "Dog", "Iron", "Ship", "Cat", "Duck"]
    )
    boot, car, hat, dog, iron, ship, cat, duck = players.values()
    round_ = make_round(junior, 1, [[boot, car, hat, dog], [iron, ship, cat, duck]])
    # Table 2's winner, Ship ($2,650), has more than table 1's, Car ($2,600).
    play(table_of(round_, 1), {boot: 1500, car: 2600, hat: 900, dog: 40})
    play(table_of(round_, 2), {iron: 1200, ship: 2650, cat: 2000, duck: 300})
    assert event_winner(event=junior) is None  # not posted
    round_post(round_=round_, by=None)
    assert event_winner(event=junior).player == ship


def test_no_junior_winner_while_two_are_level_at_the_top(junior):
    players = players_with_aliases(
        junior, aliases=["Boot", "Car", "Hat", "Dog", "Iron", "Ship", "Cat", "Duck"]
    )
    boot, car, hat, dog, iron, ship, cat, duck = players.values()
    round_ = make_round(junior, 1, [[boot, car, hat, dog], [iron, ship, cat, duck]])
    play(table_of(round_, 1), {boot: 1500, car: 2600, hat: 900, dog: 40})
    play(table_of(round_, 2), {iron: 1200, ship: 2600, cat: 2000, duck: 300})
    round_post(round_=round_, by=None)
    assert event_winner(event=junior) is None


def car_wins_the_final(event, boot, car) -> None:
    """A final of two, posted: Car $4,100, Boot $900."""
    final = make_round(event, 1, [[boot, car]])
    final.kind = Round.Kind.FINAL
    final.save()
    play(table_of(final, 1), {boot: 900, car: 4100})
    round_post(round_=final, by=None)


def test_the_final_winners_line_names_them_and_their_final_net_worth(event, four):
    # Car wins the final with $4,100 to Boot's $900; a second event of the same day has no
    # final yet, so no winner: another event's final is not its own.
    boot, car, hat, dog = four.values()
    car_wins_the_final(event, boot, car)
    winner = event_winner(event=event)
    (line,) = winner.lines
    assert (line.player_id, line.alias, line.net_worth, line.player) == (car.pk, "Car", 4100, car)
    assert (winner.round_number, winner.by_final) == (1, True)
    other = event_create(
        name="Evening Championship",
        organization="Club",
        venue="Hall",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(18, 0),
    )
    assert event_winner(event=other) is None


def test_the_public_reads_the_winner_by_alias_without_the_registered_person(event, four):
    boot, car, hat, dog = four.values()
    car_wins_the_final(event, boot, car)
    winner = event_winner(event=event, with_players=False)
    assert winner.aliases == ("Car",)
    assert winner.lines[0].player is None and winner.player is None
