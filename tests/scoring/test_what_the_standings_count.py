"""Which games the standings add up: the event's own preliminary games, nothing else.

Championship Rules, SCORING: points by the players remaining (four: 19 10 5 3). The final is
its own game: it names the winner and adds nothing to the preliminary standings.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.selectors import StandingRow, players_with_unposted_results, standings
from scoring.services.posting import round_post
from tests.builders import an_event, players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Round


def points(event) -> dict[str, Decimal]:
    return {row.alias: row.points for row in standings(event=event, only_posted=False)}


def one_table_played(event, *, aliases: str) -> None:
    """``aliases`` registered and seated at round 1's one table, finishing in that order."""
    players = players_with_aliases(event, aliases=aliases)
    play(
        table_of(make_round(event, 1, [list(players.values())]), 1),
        dict(zip(players.values(), (4, 3, 2, 1), strict=True)),
    )


def test_an_events_standings_count_only_its_own_games(event):
    other = an_event(name="Autumn Championship")
    one_table_played(event, aliases="ABCD")
    one_table_played(other, aliases="EFGH")
    assert points(event) == {"A": 19, "B": 10, "C": 5, "D": 3}
    assert points(other) == {"E": 19, "F": 10, "G": 5, "H": 3}


def test_the_final_adds_nothing_to_the_preliminary_standings(event):
    p = players_with_aliases(event, aliases="ABCD")
    round1 = make_round(event, 1, [[p[a] for a in "ABCD"]])
    play(table_of(round1, 1), {p["A"]: 4000, p["B"]: 3000, p["C"]: 2000, p["D"]: 1000})
    round_post(round_=round1, by=None)
    final = make_round(event, 2, [[p[a] for a in "DCBA"]])
    Round.objects.filter(pk=final.pk).update(kind=Round.Kind.FINAL)
    # D wins the final: the event's winner, but still fourth of the preliminaries.
    play(table_of(final, 1), {p["D"]: 4000, p["C"]: 3000, p["B"]: 2000, p["A"]: 1000})
    rows = standings(event=event, only_posted=False)
    assert [(r.alias, r.games, r.points) for r in rows] == [
        ("A", 1, 19),
        ("B", 1, 10),
        ("C", 1, 5),
        ("D", 1, 3),
    ]


def test_only_an_unposted_preliminary_game_of_the_event_flags_a_standing(event):
    """The organizer's standings flag "includes unposted results" on the rows whose points
    hold a preliminary game of a round not posted yet: a played final, which adds nothing
    to them, flags no one, and neither does another event's unposted round."""
    # Registered first and never seated, so the players' ids are not the result lines'.
    players_with_aliases(event, aliases=["Spare"])
    p = players_with_aliases(event, aliases="ABCDEFGH")
    round1 = make_round(event, 1, [[p[a] for a in "ABCD"]])
    play(table_of(round1, 1), {p["A"]: 4000, p["B"]: 3000, p["C"]: 2000, p["D"]: 1000})
    round_post(round_=round1, by=None)
    round2 = make_round(event, 2, [[p[a] for a in "EFGH"]])
    play(table_of(round2, 1), {p["E"]: 4000, p["F"]: 3000, p["G"]: 2000, p["H"]: 1000})
    final = make_round(event, 3, [[p[a] for a in "ABCD"]])
    Round.objects.filter(pk=final.pk).update(kind=Round.Kind.FINAL)
    play(table_of(final, 1), {p["D"]: 4000, p["C"]: 3000, p["B"]: 2000, p["A"]: 1000})
    one_table_played(an_event(name="Autumn Championship"), aliases="IJKL")
    round2_players = {p[a].pk for a in "EFGH"}
    assert players_with_unposted_results(event=event) == round2_players
    # A page asks about its own rows only.
    assert players_with_unposted_results(event=event, among={p["A"].pk, p["E"].pk}) == {p["E"].pk}
    round_post(round_=round2, by=None)
    assert players_with_unposted_results(event=event) == set()


def test_asking_a_standing_for_an_unknown_key_names_the_key():
    row = StandingRow(
        player_id=1,
        alias="A",
        games=1,
        points=Decimal(19),
        wins=1,
        net_worth=4000,
        best_game=4000,
        unmortgaged=0,
        rank=1,
        tied=False,
    )
    assert row.key("wins") == 1
    with pytest.raises(KeyError, match="rank"):
        row.key("rank")  # a field, but not a tie-breaker
