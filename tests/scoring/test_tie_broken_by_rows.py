"""What each standings row says parted it from the row above, worked by hand.

The standings' pages write, under a player level on points with the player above them,
what put that player higher: the first tie-breaker where the two differ, or the head
judge's decision. Players level on everything whom no one has ordered yet are shown
tied, and nothing parted them: their rows say nothing.
"""

from __future__ import annotations

from scoring.selectors import standings
from scoring.services.posting import round_post
from scoring.services.ties import standings_tie_decide
from scoring.tie_breakers import DECIDED_BY_HEAD_JUDGE
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of

WINNERS = {"Iron": 3500, "Boot": 3000, "Hat": 3000, "Car": 3000}
LOSERS = ("W", "X", "Y", "Z")


def test_a_tied_group_names_what_parted_it_from_above_and_nothing_within_it(event):
    # Round 1, four tables of two (Championship Rules: "2 Players 25 14"): each winner
    # has 25 points and one win; Iron won with 3500, the other three with 3000, so Iron is
    # above them by net worth and they are level on every tie-breaker. The losers all
    # have 14 points and 1000.
    p = players_with_aliases(event, aliases=[*WINNERS, *LOSERS])
    round1 = make_round(
        event, 1, [[p[w], p[loser]] for w, loser in zip(WINNERS, LOSERS, strict=True)]
    )
    for number, (winner, loser) in enumerate(zip(WINNERS, LOSERS, strict=True), start=1):
        play(table_of(round1, number), {p[winner]: WINNERS[winner], p[loser]: 1000})
    round_post(round_=round1, by=None)

    def said() -> list[tuple[str, int, bool, str]]:
        return [
            (r.alias, r.rank, r.tied, r.broken_by) for r in standings(event=event, only_posted=True)
        ]

    assert said() == [
        ("Iron", 1, False, ""),
        ("Boot", 2, True, "net_worth"),
        ("Car", 2, True, ""),
        ("Hat", 2, True, ""),
        # Below the winners on points: nothing to say; level with each other: tied.
        ("W", 5, True, ""),
        ("X", 5, True, ""),
        ("Y", 5, True, ""),
        ("Z", 5, True, ""),
    ]

    standings_tie_decide(
        event=event, order=[p["Car"].pk, p["Hat"].pk, p["Boot"].pk], by=None, reason="Dice"
    )
    assert said()[:4] == [
        ("Iron", 1, False, ""),
        ("Car", 2, False, "net_worth"),
        ("Hat", 3, False, DECIDED_BY_HEAD_JUDGE),
        ("Boot", 4, False, DECIDED_BY_HEAD_JUDGE),
    ]
