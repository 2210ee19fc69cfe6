"""Every violation code, each triggered by the smallest sheet that breaks its rule.

The codes are a contract with the banker's tablet and the command line: their names must
not change.
"""

import pytest

from gameplay import check_sheet

MEDITERRANEAN, BALTIC, READING, ELECTRIC = 1, 3, 5, 12
ORIENTAL, VERMONT, CONNECTICUT = 6, 8, 9
PARK_PLACE, BOARDWALK = 37, 39
GREEN = (31, 32, 34)


def codes(report):
    return [error.code for error in report.errors]


def test_a_clean_sheet_has_no_violations(sheet, player, deed):
    report = check_sheet(
        sheet(
            player("P1", 500),
            player("P2", 10),
            properties=[
                deed(MEDITERRANEAN, "P1", houses=1),
                deed(BALTIC, "P1", houses=2),
                deed(READING, "P2", mortgaged=True),
                deed(ELECTRIC, None),
            ],
        )
    )
    assert report.valid, report.errors


@pytest.mark.parametrize(
    ("bills", "code"),
    [
        ({"100": -1}, "negative-count"),
        ({"100": 1.5}, "non-integer-count"),
        ({"100": "two"}, "non-integer-count"),
        ({"100": True}, "non-integer-count"),
        ({"25": 1}, "unknown-denomination"),
        ({"lots": 1}, "unknown-denomination"),
    ],
)
def test_bill_counts(sheet, bills, code):
    report = check_sheet(sheet({"id": "P1", "bills": bills}))
    assert codes(report) == [code]
    assert report.errors[0].player == "P1"


@pytest.mark.parametrize(("cash", "code"), [(-5, "negative-count"), (12.5, "non-integer-count")])
def test_counted_cash(sheet, player, cash, code):
    assert codes(check_sheet(sheet(player("P1", cash)))) == [code]


def test_bills_and_a_counted_total_that_disagree(sheet):
    report = check_sheet(sheet({"id": "P1", "bills": {"100": 3}, "cash": 250}))
    assert codes(report) == ["cash-total-mismatch"]


@pytest.mark.parametrize("position", [0, 4, 40, -1, "Boardwalk", None])
def test_unknown_property(sheet, player, deed, position):
    report = check_sheet(sheet(player("P1"), properties=[deed(position, "P1")]))
    assert codes(report) == ["unknown-property"]


def test_unknown_owner(sheet, player, deed):
    report = check_sheet(sheet(player("P1"), properties=[deed(BOARDWALK, "P9")]))
    assert codes(report) == ["unknown-owner"]
    assert report.errors[0].positions == (BOARDWALK,)
    assert "P9" in report.errors[0].message


def test_property_owned_twice(sheet, player, deed):
    report = check_sheet(
        sheet(player("P1"), player("P2"), properties=[deed(READING, "P1"), deed(READING, "P2")])
    )
    assert codes(report) == ["property-owned-twice"]
    assert "Reading Railroad" in report.errors[0].message


def test_property_listed_twice(sheet, player, deed):
    report = check_sheet(sheet(player("P1"), properties=[deed(READING, "P1"), deed(READING, "P1")]))
    assert codes(report) == ["property-listed-twice"]


@pytest.mark.parametrize("houses", [-1, 5, 2.5, "3"])
def test_houses_out_of_range(sheet, player, deed, houses):
    report = check_sheet(
        sheet(
            player("P1"),
            properties=[deed(PARK_PLACE, "P1"), deed(BOARDWALK, "P1", houses=houses)],
        )
    )
    assert codes(report) == ["houses-out-of-range"]
    assert report.errors[0].positions == (BOARDWALK,)


def test_houses_and_a_hotel_on_one_lot(sheet, player, deed):
    report = check_sheet(
        sheet(
            player("P1"),
            properties=[
                deed(PARK_PLACE, "P1", houses=4),
                deed(BOARDWALK, "P1", houses=4, hotel=True),
            ],
        )
    )
    assert codes(report) == ["houses-out-of-range"]


@pytest.mark.parametrize("state", [{"mortgaged": True}, {"houses": 1}, {"hotel": True}])
def test_unowned_property_state(sheet, player, deed, state):
    report = check_sheet(sheet(player("P1"), properties=[deed(BOARDWALK, None, **state)]))
    assert codes(report) == ["unowned-property-state"]


@pytest.mark.parametrize("position", [READING, ELECTRIC])
def test_building_on_railroad_or_utility(sheet, player, deed, position):
    report = check_sheet(sheet(player("P1"), properties=[deed(position, "P1", houses=1)]))
    assert codes(report) == ["building-on-railroad-or-utility"]


def test_building_without_monopoly(sheet, player, deed):
    report = check_sheet(
        sheet(
            player("P1"),
            player("P2"),
            properties=[deed(BOARDWALK, "P1", houses=1), deed(PARK_PLACE, "P2")],
        )
    )
    assert codes(report) == ["building-without-monopoly"]
    assert report.errors[0].player == "P1"
    assert report.errors[0].positions == (BOARDWALK,)


def test_building_without_owning_the_bank_held_lot(sheet, player, deed):
    report = check_sheet(sheet(player("P1"), properties=[deed(BOARDWALK, "P1", hotel=True)]))
    assert codes(report) == ["building-without-monopoly"]


def test_building_on_mortgaged_property(sheet, player, deed):
    report = check_sheet(
        sheet(
            player("P1"),
            properties=[deed(MEDITERRANEAN, "P1", houses=1, mortgaged=True), deed(BALTIC, "P1")],
        )
    )
    assert codes(report) == ["building-on-mortgaged-property"]
    assert report.errors[0].positions == (MEDITERRANEAN,)


def test_building_on_every_mortgaged_lot_is_reported_per_lot(sheet, player, deed):
    report = check_sheet(
        sheet(
            player("P1"),
            properties=[
                deed(MEDITERRANEAN, "P1", houses=1, mortgaged=True),
                deed(BALTIC, "P1", houses=1, mortgaged=True),
            ],
        )
    )
    assert codes(report) == ["building-on-mortgaged-property"] * 2


def test_building_in_group_with_mortgaged_lot(sheet, player, deed):
    report = check_sheet(
        sheet(
            player("P1"),
            properties=[
                deed(ORIENTAL, "P1", houses=1),
                deed(VERMONT, "P1", houses=1),
                deed(CONNECTICUT, "P1", mortgaged=True),
            ],
        )
    )
    assert codes(report) == ["building-in-group-with-mortgaged-lot"]
    assert set(report.errors[0].positions) == {ORIENTAL, VERMONT, CONNECTICUT}


@pytest.mark.parametrize(
    "levels",
    [
        (2, 0, 0),
        (3, 1, 2),
        ("hotel", 3, 4),  # a hotel stands only where every other lot has four houses
    ],
)
def test_uneven_building(sheet, player, deed, levels):
    properties = [
        deed(position, "P1", hotel=True) if level == "hotel" else deed(position, "P1", houses=level)
        for position, level in zip(GREEN, levels, strict=True)
    ]
    report = check_sheet(sheet(player("P1"), properties=properties))
    assert codes(report) == ["uneven-building"]
    assert report.errors[0].positions == GREEN


def test_even_building_allows_one_level_of_difference(sheet, player, deed):
    properties = [
        deed(GREEN[0], "P1", hotel=True),
        deed(GREEN[1], "P1", houses=4),
        deed(GREEN[2], "P1", hotel=True),
    ]
    assert check_sheet(sheet(player("P1"), properties=properties)).valid


def all_streets_at(level):
    """Every street on the board owned by P1 with ``level`` houses, or hotels."""
    streets = [p for p in range(40) if p in STREETS]
    if level == "hotel":
        return [{"position": p, "owner": "P1", "hotel": True} for p in streets]
    return [{"position": p, "owner": "P1", "houses": level} for p in streets]


STREETS = {1, 3, 6, 8, 9, 11, 13, 14, 16, 18, 19, 21, 23, 24, 26, 27, 29, 31, 32, 34, 37, 39}


def test_house_supply_exceeded(sheet, player):
    # 22 streets with two houses each is 44 houses; the bank has 32.
    report = check_sheet(sheet(player("P1"), properties=all_streets_at(2)))
    assert codes(report) == ["house-supply-exceeded"]
    assert "44" in report.errors[0].message and "32" in report.errors[0].message


def test_house_supply_met_exactly(sheet, player, deed):
    # Eight lots with four houses: 32, exactly the bank's stock.
    eight = [1, 3, 6, 8, 9, 37, 39, 11]
    properties = [deed(p, "P1", houses=4) for p in eight[:7]]
    properties += [deed(11, "P1", houses=4), deed(13, "P1", houses=3), deed(14, "P1", houses=3)]
    report = check_sheet(sheet(player("P1"), properties=properties))
    assert codes(report) == ["house-supply-exceeded"]  # 7*4 + 4 + 3 + 3 = 38
    properties = [deed(p, "P1", houses=4) for p in eight[:7]] + [
        deed(11, "P1", hotel=True),
        deed(13, "P1", houses=4),
        deed(14, "P1", hotel=True),
    ]
    assert check_sheet(sheet(player("P1"), properties=properties)).valid  # 28 + 4 houses


def test_hotel_supply_exceeded(sheet, player):
    # 22 hotels; the bank has 12.
    report = check_sheet(sheet(player("P1"), properties=all_streets_at("hotel")))
    assert codes(report) == ["hotel-supply-exceeded"]


@pytest.mark.parametrize("assets", ["cash", "deed"])
def test_bankrupt_player_has_assets(sheet, player, deed, assets):
    broke = {"id": "P2", "bankrupt": True, "cash": 50 if assets == "cash" else 0}
    properties = [deed(READING, "P2")] if assets == "deed" else []
    report = check_sheet(sheet(player("P1", 10), broke, properties=properties))
    assert codes(report) == ["bankrupt-player-has-assets"]
    assert report.errors[0].player == "P2"


def test_all_violations_are_reported_at_once(sheet, player, deed):
    report = check_sheet(
        sheet(
            {"id": "P1", "bills": {"100": -1, "7": 2}},
            {"id": "P2", "bankrupt": True, "cash": 5},
            properties=[deed(READING, "P1", houses=1), deed(BOARDWALK, "P3")],
        )
    )
    assert sorted(codes(report)) == sorted(
        [
            "negative-count",
            "unknown-denomination",
            "unknown-owner",
            "building-on-railroad-or-utility",
            "bankrupt-player-has-assets",
        ]
    )
    assert all(player["place"] is None for player in report.to_dict()["players"])


def test_messages_use_the_editions_words(player):
    report = check_sheet(
        {
            "edition": "boutique",
            "players": [player("P1")],
            "properties": [{"position": READING, "owner": "P1", "houses": 2}],
        }
    )
    assert codes(report) == ["building-on-railroad-or-utility"]
    assert "transportation space" in report.errors[0].message
