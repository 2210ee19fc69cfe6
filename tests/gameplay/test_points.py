"""Places and points (Championship Rules, SCORING and TIE BREAKERS)."""

import pytest

from gameplay import CHAMPIONSHIP_POINTS, PointsTable, Standing, check_sheet, rank_table

# The rule book's table, by the number of players still in the game at the end.
RULE_BOOK = {
    1: [28],
    2: [25, 14],
    3: [22, 12, 6],
    4: [19, 10, 5, 3],
    5: [16, 8, 4, 2, 1],
}


@pytest.mark.parametrize("remaining", sorted(RULE_BOOK))
def test_every_points_row(sheet, player, remaining):
    # Richest first: P1 has the most cash. Bankrupt players fill the table up to five.
    players = [player(f"P{i}", 1000 - i) for i in range(1, remaining + 1)]
    players += [
        {"id": f"B{i}", "bankrupt": True, "cash": 0, "out_order": i}
        for i in range(1, 6 - remaining)
    ]
    report = check_sheet(sheet(*players))
    assert report.valid
    result = report.to_dict()["players"]
    assert [p["points"] for p in result if not p["bankrupt"]] == RULE_BOOK[remaining]
    assert [p["place"] for p in result if not p["bankrupt"]] == list(range(1, remaining + 1))
    assert all(p["points"] == 0 for p in result if p["bankrupt"])


def test_ranking_does_not_depend_on_the_order_players_are_listed(sheet, player):
    report = check_sheet(sheet(player("A", 100), player("B", 300), player("C", 200)))
    points = {p["id"]: p["points"] for p in report.to_dict()["players"]}
    assert points == {"B": 22, "C": 12, "A": 6}


def test_bankrupt_players_are_placed_last_out_first(sheet, player):
    report = check_sheet(
        sheet(
            player("Winner", 5000),
            {"id": "First", "bankrupt": True, "out_order": 1},
            {"id": "Second", "bankrupt": True, "out_order": 2},
        )
    )
    places = {p["id"]: (p["place"], p["points"]) for p in report.to_dict()["players"]}
    assert places == {"Winner": (1, 28), "Second": (2, 0), "First": (3, 0)}


def test_bankrupt_players_without_an_order_have_no_place(sheet, player):
    report = check_sheet(sheet(player("A", 10), {"id": "B", "bankrupt": True}))
    assert report.to_dict()["players"][1] == {
        "id": "B",
        "bankrupt": True,
        "cash": 0,
        "deed_value": 0,
        "building_value": 0,
        "net_worth": 0,
        "unmortgaged_property_value": 0,
        "place": None,
        "points": 0,
    }


def test_a_tie_is_decided_by_unmortgaged_property_value(sheet, player, deed):
    # Both are worth 400: A has 200 cash and one railroad at its printed 200; B has 200 cash
    # and two mortgaged railroads at half of 200 each. A's unmortgaged property is worth more.
    report = check_sheet(
        sheet(
            player("A", 200),
            player("B", 200),
            properties=[
                deed(5, "A"),
                deed(15, "B", mortgaged=True),
                deed(25, "B", mortgaged=True),
            ],
        )
    )
    result = {p["id"]: p for p in report.to_dict()["players"]}
    assert result["A"]["net_worth"] == result["B"]["net_worth"] == 400
    assert (result["A"]["place"], result["A"]["points"]) == (1, 25)
    assert (result["B"]["place"], result["B"]["points"]) == (2, 14)
    assert report.unresolved_ties == ()


def test_a_tie_that_survives_is_reported_not_broken(sheet, player, deed):
    report = check_sheet(
        sheet(
            player("A", 300),
            player("B", 300),
            player("C", 100),
            properties=[deed(5, "A"), deed(15, "B")],
        )
    )
    result = {p["id"]: p for p in report.to_dict()["players"]}
    assert report.to_dict()["unresolved_ties"] == [["A", "B"]]
    # Both share first place; neither gets 22 or 12 until the judges decide.
    assert (result["A"]["place"], result["A"]["points"]) == (1, None)
    assert (result["B"]["place"], result["B"]["points"]) == (1, None)
    assert (result["C"]["place"], result["C"]["points"]) == (3, 6)


def test_a_format_can_bring_its_own_points_table():
    club = PointsTable(name="club", rows={2: (3, 1)})
    result = rank_table(
        [Standing("A", False, 10, 0), Standing("B", False, 20, 0)],
        table=club,
    )
    assert [(p.id, p.place, p.points) for p in result.placings] == [("A", 2, 1), ("B", 1, 3)]


def test_ranking_by_assets_alone_gives_places_without_points():
    result = rank_table([Standing("A", False, 10, 0), Standing("B", False, 20, 0)], table=None)
    assert [(p.place, p.points) for p in result.placings] == [(2, None), (1, None)]


def test_ranking_by_assets_alone_gives_a_bankrupt_player_a_place_and_no_points():
    """The junior game ranks by net worth: no points row, so no zero for the player out."""
    standings = [Standing("A", False, 10, 0), Standing("B", True, 0, 0, out_order=1)]
    result = rank_table(standings, table=None)
    assert [(p.id, p.place, p.points) for p in result.placings] == [("A", 1, None), ("B", 2, None)]
    # With a points table, the player out scores zero.
    result = rank_table(standings, table=CHAMPIONSHIP_POINTS)
    assert [(p.id, p.place, p.points) for p in result.placings] == [("A", 1, 28), ("B", 2, 0)]


def test_no_points_row_for_six_survivors():
    standings = [Standing(f"P{i}", False, 100 * i, 0) for i in range(6)]
    result = rank_table(standings, table=CHAMPIONSHIP_POINTS)
    assert all(p.points is None for p in result.placings)
    assert sorted(p.place for p in result.placings) == [1, 2, 3, 4, 5, 6]


def test_a_players_placing_is_found_by_their_id():
    result = rank_table(
        [Standing("A", False, 10, 0), Standing("B", False, 20, 0), Standing("C", True, 0, 0, 1)],
        table=CHAMPIONSHIP_POINTS,
    )
    # B richest of two remaining: 25; A 14; C out: third, 0.
    assert [(p.place, p.points) for p in map(result.placing, "ABC")] == [(2, 14), (1, 25), (3, 0)]
