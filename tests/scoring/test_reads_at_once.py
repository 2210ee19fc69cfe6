"""The scoring reads behind the hall's busiest pages ask the database a fixed number of
times, however many tables and players: a page that asked once a line would slow down
with every table added on the day (the judges' desk of a 40-table round, the banker's
tablet polled every few seconds).
"""

from __future__ import annotations

import datetime

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from banker.tablet_services import heartbeat_record
from scoring import selectors
from scoring.bankruptcy_selectors import players_in_game
from scoring.models import TableSheet
from scoring.tablet_selectors import round_tablet_worries
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of


def queries(read) -> int:
    with CaptureQueriesContext(connection) as captured:
        read()
    return len(captured)


def test_each_tables_winner_is_read_at_once_however_many_tables(event):
    p = players_with_aliases(event, aliases="ABCDEFGH")
    one = make_round(event, 1, [[p[a] for a in "ABCD"]])
    two = make_round(event, 2, [[p[a] for a in "ABCD"], [p[a] for a in "EFGH"]])
    play(table_of(one, 1), {p["A"]: 4, p["B"]: 3, p["C"]: 2, p["D"]: 1})
    for number, seats in ((1, "ABCD"), (2, "EFGH")):
        play(table_of(two, number), {p[a]: 4 - i for i, a in enumerate(seats)})

    def winners(round_):
        return lambda: [w.winner.alias for w in selectors.round_table_winners(round_=round_)]

    assert queries(winners(two)) == queries(winners(one))


def test_the_players_still_in_a_game_are_read_at_once(event):
    p = players_with_aliases(event, aliases="ABCDEFGH")
    small = table_of(make_round(event, 1, [[p[a] for a in "AB"]]), 1)
    large = table_of(make_round(event, 2, [[p[a] for a in "ABCDEFGH"]]), 1)

    def names(table):
        return lambda: [player.alias for player in players_in_game(table=table)]

    def seated(table):
        return lambda: [player.alias for player in selectors.banker_table_players(table=table)]

    assert queries(names(large)) == queries(names(small))
    assert queries(seated(large)) == queries(seated(small))


def test_the_tablets_worries_name_their_tables_at_once(event):
    p = players_with_aliases(event, aliases="ABCDEFGH")
    round_ = make_round(event, 1, [[p[a] for a in "ABCD"], [p[a] for a in "EFGH"]])
    now = timezone.now()
    silent = now - datetime.timedelta(minutes=5)
    heartbeat_record(table=table_of(round_, 1), device="a", queued=1, now=silent)

    def worries():
        return [w.table.number for w in round_tablet_worries(round_=round_, now=now)]

    one = queries(worries)
    heartbeat_record(table=table_of(round_, 2), device="b", queued=1, now=silent)
    assert worries() == [1, 2]
    assert queries(worries) == one


def test_the_bankers_sheet_comes_with_its_signatures(event):
    p = players_with_aliases(event, aliases="ABCD")
    table = table_of(make_round(event, 1, [[p[a] for a in "ABCD"]]), 1)
    play(table, {p["A"]: 4, p["B"]: 3, p["C"]: 2, p["D"]: 1}, approve=False)
    assert TableSheet.objects.get(table=table).signatures.count() == 5  # four players, banker

    def sheet_and_signatures():
        # As the sheet page does: the players' initials, then the banker's.
        sheet = selectors.banker_sheet_get(table=table)
        players = [s.initials for s in sheet.signatures.all() if s.player_id]
        return players, [s.initials for s in sheet.signatures.all() if not s.player_id]

    # One read for the sheet, one for all its signatures, however often the page looks.
    assert queries(sheet_and_signatures) == 2
