"""The small events the public selectors' tests play (test_public_selectors.py and
test_public_selectors_club.py), with the helpers they share.

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

The club knockout is described on ``Knockout``.
"""

from __future__ import annotations

import datetime

from scoring.services.posting import round_post
from spectator.selectors import (
    PublicLine,
    Release,
)
from tests.builders import an_event, players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Round, Seat, Table

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


# --- The club knockout ---------------------------------------------------------------------------


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
