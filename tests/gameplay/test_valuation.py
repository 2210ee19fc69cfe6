"""Valuation against the rule book's own numbers (Championship Rules, SCORING BY ROUND)."""

import pytest

from gameplay import Holding, check_sheet, load_edition
from gameplay.valuation import building_value, deed_value

BOARDWALK, PARK_PLACE, MEDITERRANEAN, BALTIC, READING = 39, 37, 1, 3, 5


def net_worth(report, player_id="P1"):
    return next(p for p in report.to_dict()["players"] if p["id"] == player_id)["net_worth"]


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        # 400 printed price + hotel: its 200 price plus the four 200 houses turned in.
        ({"hotel": True}, 1400),
        ({"houses": 4}, 1200),
        ({"mortgaged": True}, 200),
        ({}, 400),
    ],
)
def test_boardwalk_line_of_the_score_sheet(state, expected):
    edition = load_edition("classic-us")
    boardwalk = Holding(position=BOARDWALK, owner="P1", **state)
    assert deed_value(boardwalk, edition) + building_value(boardwalk, edition) == expected


def test_dark_blues_with_hotels_on_a_whole_sheet(sheet, player, deed):
    report = check_sheet(
        sheet(
            player("P1"),
            properties=[deed(BOARDWALK, "P1", hotel=True), deed(PARK_PLACE, "P1", hotel=True)],
        )
    )
    assert report.valid, report.errors
    # Boardwalk 1400; Park Place 350 + 200 + 4 x 200.
    assert net_worth(report) == 1400 + 1350


def test_mediterranean_mortgaged_is_worth_thirty(sheet, player, deed):
    report = check_sheet(
        sheet(player("P1"), properties=[deed(MEDITERRANEAN, "P1", mortgaged=True)])
    )
    assert report.valid
    assert net_worth(report) == 30
    assert report.players[0].valuation.unmortgaged_property_value == 0


def test_a_hand_counted_table(sheet, player, deed):
    """Worked by hand: P1 holds the browns with two houses each, a railroad and some bills."""
    report = check_sheet(
        sheet(
            {"id": "P1", "bills": {"500": 1, "100": 3, "50": 1, "20": 2, "5": 1, "1": 3}},
            player("P2", 275),
            properties=[
                deed(MEDITERRANEAN, "P1", houses=2),
                deed(BALTIC, "P1", houses=2),
                deed(READING, "P1"),
                deed(PARK_PLACE, "P2", mortgaged=True),
            ],
        )
    )
    assert report.valid, report.errors
    p1, p2 = report.to_dict()["players"]
    # bills 500 + 300 + 50 + 40 + 5 + 3 = 898; deeds 60 + 60 + 200; houses 4 x 50.
    assert (p1["cash"], p1["deed_value"], p1["building_value"]) == (898, 320, 200)
    assert p1["net_worth"] == 1418
    assert p1["unmortgaged_property_value"] == 320
    # 275 cash + Park Place at half of 350.
    assert p2["net_worth"] == 450
    assert p2["unmortgaged_property_value"] == 0
    assert (p1["place"], p1["points"], p2["place"], p2["points"]) == (1, 25, 2, 14)


def test_three_house_hotel_counts_three_houses():
    """In the market edition a hotel replaces three houses (Market Edition Rules, HOTELS; SHORT GAME
    5.)."""
    edition = load_edition("india-rupee")
    report = check_sheet(
        {
            "edition": "india-rupee",
            "players": [{"id": "A", "cash": 0}],
            "properties": [
                {"position": 37, "owner": "A", "hotel": True},
                {"position": 39, "owner": "A", "houses": 3},
            ],
        }
    )
    assert report.valid, report.errors
    assert edition.houses_per_hotel == 3
    # Park Place 350 + hotel (200 + 3 x 200); Boardwalk 400 + 3 x 200.
    assert report.players[0].valuation.net_worth == 350 + 800 + 400 + 600


def test_cash_typed_as_a_total_or_as_bills_agrees(sheet, player):
    as_bills = check_sheet(sheet({"id": "P1", "bills": {"500": 2, "100": 2, "20": 6}}))
    as_total = check_sheet(sheet(player("P1", 1320)))
    assert net_worth(as_bills) == net_worth(as_total) == 1320


def test_every_value_on_the_report_is_whole_money(sheet, player, deed):
    """Half of a price is still whole money: the report says 30, never 30.0."""
    report = check_sheet(
        sheet(
            player("P1", 15),
            properties=[deed(1, "P1", mortgaged=True), deed(3, "P1")],
        )
    )
    (line,) = report.to_dict()["players"]
    # Cash 15, Mediterranean mortgaged at half of 60, Baltic at 60.
    assert (line["deed_value"], line["net_worth"]) == (30 + 60, 15 + 30 + 60)
    assert all(type(line[key]) is int for key in ("cash", "deed_value", "net_worth"))
