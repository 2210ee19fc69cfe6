"""One winner for the whole event (scoring.selectors.event_winner), worked by hand.

Championship Rules, JUNIOR REGIONAL CHAMPIONSHIP DETAILS: "The Juniors will only be asked to play 1
game of MONOPOLY, with the competitor who accumulates the most assets (net worth) being the overall
winner". Championship Rules, TIE BREAKERS: "In the event of a tie of assets ... the player who has
the highest value of unmortgaged property". Sheets are cash only unless a deed is written, so
each net worth below is the cash typed plus the printed price of the deeds.
"""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.urls import reverse

from players.services import player_eject
from scoring.models import StandingsTieDecision, TableSheet
from scoring.selectors import event_winner
from scoring.services.advancement import advance_to_final
from scoring.services.posting import round_post
from scoring.services.sheets import sheet_approve, sheet_submit
from scoring.services.signatures import sheet_sign
from spectator.services import release_set
from tests.builders import an_event, players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Round, Table
from tournament.roles import ORGANIZER

BOARDWALK = 39  # printed price 400


@pytest.fixture(autouse=True)
def clean_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def junior(event):
    event.format = "junior"
    event.preliminary_rounds = 1
    event.save(update_fields=["format", "preliminary_rounds"])
    return event


def play_with_deeds(table: Table, cash: dict, deeds: dict) -> None:
    """A signed sheet where ``deeds`` maps a player to the positions they own, unmortgaged."""
    data = {
        "edition": "classic-us",
        "players": [{"id": str(p.pk), "bankrupt": False, "cash": c} for p, c in cash.items()],
        "properties": [
            {"position": position, "owner": str(p.pk)}
            for p, positions in deeds.items()
            for position in positions
        ],
    }
    sheet = sheet_submit(
        table=table, data=data, expected_version=0, submission_key=uuid.uuid4(), by=None
    )
    for player in cash:
        sheet_sign(sheet=sheet, player=player, initials=player.alias[:3], by=None)
    sheet_sign(sheet=sheet, initials="BNK", by=None)
    sheet_approve(sheet=sheet, by=None)  # a judge approves it before the round is posted


def eight(event):
    return players_with_aliases(event, aliases=["A", "B", "C", "D", "E", "F", "G", "H"])


def round_1_played(event, p: dict) -> Round:
    """Round 1 signed, not posted. Table 1: A 3000 wins it; table 2: E 3500 wins it. E has
    the most assets overall, A the next most."""
    round_ = make_round(
        event, 1, [[p["A"], p["B"], p["C"], p["D"]], [p["E"], p["F"], p["G"], p["H"]]]
    )
    play(table_of(round_, 1), {p["A"]: 3000, p["B"]: 2000, p["C"]: 1500, p["D"]: 1000})
    play(table_of(round_, 2), {p["E"]: 3500, p["F"]: 900, p["G"]: 800, p["H"]: 700})
    return round_


def test_a_junior_event_has_no_final_and_its_posted_round_names_the_winner(junior):
    p = eight(junior)
    round_ = round_1_played(junior, p)
    assert event_winner(event=junior) is None  # not posted yet
    round_post(round_=round_, by=None)
    winner = event_winner(event=junior)
    assert (winner.aliases, winner.round_number, winner.by_final) == (("E",), 1, False)
    assert winner.lines[0].net_worth == 3500 and winner.lines[0].player.pk == p["E"].pk
    with pytest.raises(ValidationError) as refused:
        advance_to_final(event=junior, by=None)
    assert refused.value.code == "no-final"


def test_equal_net_worth_goes_to_the_higher_unmortgaged_property_value(junior):
    p = eight(junior)
    round_ = make_round(
        junior, 1, [[p["A"], p["B"], p["C"], p["D"]], [p["E"], p["F"], p["G"], p["H"]]]
    )
    # A: 1400 cash + Boardwalk 400 = 1800, unmortgaged 400. E: 1800 cash, unmortgaged 0.
    play_with_deeds(
        table_of(round_, 1),
        {p["A"]: 1400, p["B"]: 1000, p["C"]: 900, p["D"]: 800},
        {p["A"]: [BOARDWALK]},
    )
    play(table_of(round_, 2), {p["E"]: 1800, p["F"]: 700, p["G"]: 600, p["H"]: 500})
    round_post(round_=round_, by=None)
    winner = event_winner(event=junior)
    assert winner.aliases == ("A",) and winner.lines[0].net_worth == 1800


def test_level_on_both_waits_for_the_head_judge(junior):
    p = eight(junior)
    round_ = make_round(
        junior, 1, [[p["A"], p["B"], p["C"], p["D"]], [p["E"], p["F"], p["G"], p["H"]]]
    )
    play(table_of(round_, 1), {p["A"]: 1800, p["B"]: 1000, p["C"]: 900, p["D"]: 800})
    play(table_of(round_, 2), {p["E"]: 1800, p["F"]: 700, p["G"]: 600, p["H"]: 500})
    round_post(round_=round_, by=None)
    assert event_winner(event=junior) is None
    StandingsTieDecision.objects.create(
        event=junior,
        order=[p["E"].pk, p["A"].pk],
        at=datetime.datetime(2030, 4, 20, 18, tzinfo=datetime.UTC),
        reason="Drawn by lot",
    )
    assert event_winner(event=junior).aliases == ("E",)


def test_a_championship_winner_is_the_finals_first_place_once_posted(event):
    p = players_with_aliases(event, aliases=["Boot", "Car", "Hat", "Dog"])
    round_ = make_round(event, 1, [list(p.values())])
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 1500, p["Dog"]: 1000})
    round_post(round_=round_, by=None)
    assert event_winner(event=event) is None  # the preliminaries never name the winner
    final = advance_to_final(event=event, by=None, time_limit=1)
    table = table_of(final, 1)
    table.status = Table.Status.FINISHED
    table.save(update_fields=["status"])
    play(table, {p["Hat"]: 9000, p["Boot"]: 100, p["Car"]: 50, p["Dog"]: 10})
    assert event_winner(event=event) is None  # the final is not posted yet
    round_post(round_=final, by=None)
    winner = event_winner(event=event)
    assert (winner.aliases, winner.round_number, winner.by_final) == (("Hat",), 2, True)
    assert TableSheet.objects.count() == 2


def test_the_winner_shows_on_the_public_page_the_hall_and_the_organizers_standings(client, junior):
    p = eight(junior)
    round_ = make_round(
        junior, 1, [[p["A"], p["B"], p["C"], p["D"]], [p["E"], p["F"], p["G"], p["H"]]]
    )
    play(table_of(round_, 1), {p["A"]: 3000, p["B"]: 2000, p["C"]: 1500, p["D"]: 1000})
    play(table_of(round_, 2), {p["E"]: 3500, p["F"]: 900, p["G"]: 800, p["H"]: 700})
    winner_page = reverse("spectator:winner", kwargs={"pk": junior.pk})
    hall = reverse("spectator:hall_display", kwargs={"pk": junior.pk})
    hall_state = reverse("spectator:hall_state", kwargs={"pk": junior.pk})
    release_set(event=junior, pages={"winner": True}, by=None)
    assert "Nothing is posted here yet." in client.get(winner_page).content.decode()
    assert "Winner:" not in client.get(hall).content.decode()

    round_post(round_=round_, by=None)
    body = client.get(winner_page).content.decode()
    # A junior event posts net worth: it decides the winner.
    assert ">E<" in body and "Net worth: $3,500" in body and "highest net worth of round 1" in body
    assert "Winner: E" in client.get(hall).content.decode()
    assert client.get(hall_state).json()["texts"]["winner"] == "Winner: E"

    # Held back from the public while the organizer has not released the winner page.
    release_set(event=junior, pages={"winner": False}, by=None)
    assert "Winner:" not in client.get(hall).content.decode()

    organizer = User.objects.create_user("olive", password="pw")
    organizer.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(organizer)
    standings = client.get(reverse("scoring:standings", kwargs={"pk": junior.pk})).content.decode()
    assert "Seat the final" not in standings
    assert "E Player" in standings and "net worth $3,500" in standings


def test_an_ejected_junior_does_not_win_the_next_in_net_worth_does(junior):
    """Championship Rules, EJECTION OF PLAYER: E, top of the posted round by net worth, is
    ejected afterwards; A, next by net worth, is the winner."""
    p = eight(junior)
    round_post(round_=round_1_played(junior, p), by=None)
    player_eject(player=p["E"], reason="Cheating at the bank")
    winner = event_winner(event=junior)
    assert winner.aliases == ("A",)
    assert (winner.lines[0].player_id, winner.lines[0].net_worth) == (p["A"].pk, 3000)


def test_a_two_round_junior_names_its_winner_once_both_rounds_are_posted(junior):
    """The winner is known once every preliminary round is posted (another event's round
    still open changes nothing), and is of the last round, 2."""
    elsewhere = an_event(name="Club night")
    q = players_with_aliases(elsewhere, aliases=["W", "X", "Y", "Z"])
    make_round(elsewhere, 1, [[q["W"], q["X"], q["Y"], q["Z"]]])
    junior.preliminary_rounds = 2
    junior.save(update_fields=["preliminary_rounds"])
    p = eight(junior)
    round_post(round_=round_1_played(junior, p), by=None)
    second = make_round(
        junior, 2, [[p["A"], p["E"], p["B"], p["F"]], [p["C"], p["G"], p["D"], p["H"]]]
    )
    play(table_of(second, 1), {p["A"]: 3000, p["E"]: 2000, p["B"]: 1500, p["F"]: 1000})
    play(table_of(second, 2), {p["C"]: 2500, p["G"]: 900, p["D"]: 800, p["H"]: 700})
    assert event_winner(event=junior) is None  # round 2 not posted yet
    round_post(round_=second, by=None)
    winner = event_winner(event=junior)
    assert (winner.round_number, winner.by_final) == (2, False)
    assert winner.aliases == ("A",)  # 3000 + 3000 against E's 3500 + 2000
