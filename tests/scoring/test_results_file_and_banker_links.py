"""The round's results file as the posting desk reads it, and the banker's private link.

Expected values are worked by hand from the rule book (Championship Rules, SCORING: four
remaining 19/10/5/3), not read back from the code.
"""

from __future__ import annotations

import uuid

from django.db import connection
from django.test.utils import CaptureQueriesContext

from banker.links import banker_link_issue, banker_link_revoke
from scoring import selectors
from scoring.models import TableSheet
from scoring.services.posting import round_post
from scoring.services.results import write_results
from scoring.services.sheets import sheet_submit
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, sheet_data, table_of

HEADER = [
    "Stage",
    "Table",
    "Alias",
    "Bankrupt",
    "Net worth",
    "Unmortgaged property value",
    "Place",
]


def test_a_club_results_file_has_no_points_column_as_the_kit_awards_none(event):
    # Tournament Kit: a club game is won on total assets; no points are awarded, so the file
    # carries no column that could only ever be empty.
    event.format = "club"
    event.table_size_min, event.table_size_max = 3, 5
    event.save()
    p = players_with_aliases(event, aliases=["Ann", "Bob", "Cy"])
    round_ = make_round(event, 1, [[p["Ann"], p["Bob"], p["Cy"]]])
    play(table_of(round_, 1), {p["Ann"]: 3000, p["Bob"]: 2000, p["Cy"]: 1000})
    rows = selectors.results_csv_rows(round_=round_)
    assert rows == [
        HEADER,
        ["preliminary", "1", "Ann", "no", "3000", "0", "1"],
        ["preliminary", "1", "Bob", "no", "2000", "0", "2"],
        ["preliminary", "1", "Cy", "no", "1000", "0", "3"],
    ]


def test_players_sharing_a_place_are_listed_by_alias_with_no_points_until_decided(event):
    # Hat and Boot are level on net worth (cash only, so on unmortgaged property too): they
    # share first place and wait for the head judge. Hat is written first on the sheet; the
    # file still lists the pair by alias, so it reads the same however the sheet was filled.
    p = players_with_aliases(event, aliases=["Hat", "Boot", "Car", "Dog"])
    round_ = make_round(event, 1, [[p["Hat"], p["Boot"], p["Car"], p["Dog"]]])
    play(table_of(round_, 1), {p["Hat"]: 3000, p["Boot"]: 3000, p["Car"]: 2000, p["Dog"]: 1000})
    rows = selectors.results_csv_rows(round_=round_)
    assert rows[0] == [*HEADER, "Points"]
    assert rows[1:] == [
        ["preliminary", "1", "Boot", "no", "3000", "0", "1", ""],
        ["preliminary", "1", "Hat", "no", "3000", "0", "1", ""],
        ["preliminary", "1", "Car", "no", "2000", "0", "3", "5"],
        ["preliminary", "1", "Dog", "no", "1000", "0", "4", "3"],
    ]


def _results_file_queries(round_) -> int:
    with CaptureQueriesContext(connection) as queries:
        selectors.results_csv_rows(round_=round_)
    return len(queries)


def test_the_results_file_reads_its_lines_at_once_however_many_tables(event):
    # A file for a hall of a hundred tables must not ask the database once a line: its
    # tables and players come with the lines.
    p = players_with_aliases(event, aliases="ABCDEFGH")
    one = make_round(event, 1, [[p["A"], p["B"], p["C"], p["D"]]])
    play(table_of(one, 1), {p["A"]: 4, p["B"]: 3, p["C"]: 2, p["D"]: 1})
    two = make_round(event, 2, [[p["A"], p["B"], p["C"], p["D"]], [p["E"], p["F"], p["G"], p["H"]]])
    play(table_of(two, 1), {p["A"]: 4, p["B"]: 3, p["C"]: 2, p["D"]: 1})
    play(table_of(two, 2), {p["E"]: 4, p["F"]: 3, p["G"]: 2, p["H"]: 1})
    one, two = type(one).objects.get(pk=one.pk), type(two).objects.get(pk=two.pk)
    assert _results_file_queries(two) == _results_file_queries(one)


def test_a_banker_key_opens_its_own_table_and_no_other(event):
    p = players_with_aliases(event, aliases="ABCDEFGH")
    round_ = make_round(
        event, 1, [[p["A"], p["B"], p["C"], p["D"]], [p["E"], p["F"], p["G"], p["H"]]]
    )
    first, second = table_of(round_, 1), table_of(round_, 2)
    banker_link_issue(table=first, by=None)
    key = banker_link_issue(table=second, by=None).key
    assert selectors.banker_link_table(key=key) == second
    assert selectors.banker_link_table(key="not-a-key") is None
    assert selectors.banker_link_active(table=first).table == first
    assert selectors.banker_link_active(table=second).key == key


def test_a_revoked_or_replaced_banker_key_opens_nothing(event):
    p = players_with_aliases(event, aliases="ABCD")
    table = table_of(make_round(event, 1, [[p["A"], p["B"], p["C"], p["D"]]]), 1)
    old = banker_link_issue(table=table, by=None).key
    new = banker_link_issue(table=table, by=None).key
    # Issuing a new link stops the old one: only the new key opens the sheet.
    assert selectors.banker_link_table(key=old) is None
    assert selectors.banker_link_active(table=table).key == new
    banker_link_revoke(table=table, by=None)
    assert selectors.banker_link_table(key=new) is None
    assert selectors.banker_link_active(table=table) is None


def test_the_banker_page_gets_its_table_round_event_and_wave_in_one_read(event):
    p = players_with_aliases(event, aliases="ABCD")
    table = table_of(make_round(event, 1, [[p["A"], p["B"], p["C"], p["D"]]]), 1)
    key = banker_link_issue(table=table, by=None).key
    with CaptureQueriesContext(connection) as queries:
        opened = selectors.banker_link_table(key=key)
        assert (opened.round.event, opened.wave.number) == (event, 1)
    assert len(queries) == 1


def test_a_bankrupt_players_place_is_left_empty_while_the_order_out_is_unknown(event):
    # Bankrupt players follow the survivors, the last one out first; with two out and no
    # order written down, neither place is known, and the file says nothing rather than guess.
    # Points are by the players remaining (Championship Rules, SCORING).
    p = players_with_aliases(event, aliases=["Ann", "Bob", "Cy", "Dee"])
    round_ = make_round(event, 1, [[p["Ann"], p["Bob"], p["Cy"], p["Dee"]]])
    data = sheet_data({p["Ann"]: 3000, p["Bob"]: 2000}, [p["Cy"], p["Dee"]])
    for player in data["players"]:
        player.pop("out_order", None)
    sheet = sheet_submit(
        table=table_of(round_, 1),
        data=data,
        expected_version=0,
        submission_key=uuid.uuid4(),
        by=None,
    )
    write_results(sheet=sheet)
    # Two remain, so the two-player row of the points table: "2 Players 25 14".
    rows = selectors.results_csv_rows(round_=round_)
    # Where an unknown place sorts (first or last) is the database's choice.
    assert sorted(row[2:] for row in rows[1:]) == [
        ["Ann", "no", "3000", "0", "1", "25"],
        ["Bob", "no", "2000", "0", "2", "14"],
        ["Cy", "yes", "0", "0", "", "0"],
        ["Dee", "yes", "0", "0", "", "0"],
    ]


def test_each_table_of_a_round_names_its_winner_or_the_players_sharing_first(event):
    # Tournament Kit, THE DAY OF THE TOURNAMENT: each table has "an outright winner" or the
    # player "having the highest total assets at their table"; two level on everything
    # share first place until the head judge orders them. Table 3 has no sheet yet.
    p = players_with_aliases(event, aliases="ABCDEFGHIJKL")
    round_ = make_round(
        event, 1, [[p[a] for a in "ABCD"], [p[a] for a in "EFGH"], [p[a] for a in "IJKL"]]
    )
    play(table_of(round_, 1), {p["A"]: 1000, p["B"]: 4000, p["C"]: 2000, p["D"]: 3000})
    play(table_of(round_, 2), {p["H"]: 3000, p["E"]: 3000, p["F"]: 2000, p["G"]: 1000})
    winners = selectors.round_table_winners(round_=round_)
    assert [(w.table.number, [x.alias for x in w.winners]) for w in winners] == [
        (1, ["B"]),
        (2, ["E", "H"]),
        (3, []),
    ]
    assert [w.winner.alias if w.winner else None for w in winners] == ["B", None, None]


def test_the_standings_file_has_a_column_per_tie_breaker_and_points_only_where_awarded(event):
    p = players_with_aliases(event, aliases=["Ann", "Bob", "Cy"])
    round_ = make_round(event, 1, [[p["Ann"], p["Bob"], p["Cy"]]])
    play(table_of(round_, 1), {p["Ann"]: 3000, p["Bob"]: 2000, p["Cy"]: 1000})
    round_post(round_=round_, by=None)
    keys = ["Games won", "Total net worth", "Best game", "Unmortgaged property value"]
    rows = selectors.standings_csv_rows(event=event, only_posted=True)
    # Championship Rules, SCORING: three remaining score 22 / 12 / 6.
    assert rows[0] == ["Rank", "Alias", "Games", "Points", *keys]
    assert rows[1] == ["1", "Ann", "1", "22", "1", "3000", "3000", "0"]
    # Tournament Kit: a club ranks by assets and awards no points: no column of nothing.
    event.format = "club"
    event.save()
    rows = selectors.standings_csv_rows(event=event, only_posted=True)
    assert rows[0] == ["Rank", "Alias", "Games", *keys]
    assert rows[1] == ["1", "Ann", "1", "1", "3000", "3000", "0"]


def test_a_sheet_the_engine_has_not_read_yet_has_no_open_tie(event):
    # The sheet row exists before its first entries (created empty on first use): no
    # report, so nothing for the head judge to decide yet, and nothing to hold a posting.
    p = players_with_aliases(event, aliases="ABCD")
    table = table_of(make_round(event, 1, [[p[a] for a in "ABCD"]], finished=False), 1)
    assert selectors.sheet_open_ties(sheet=TableSheet.objects.create(table=table)) == []
