"""Every violation code, each triggered by the smallest sheet that breaks its rule.

The codes are a contract with the banker's tablet and the command line: their names must
not change.
"""

import dataclasses
import json
from pathlib import Path

import pytest

import gameplay
from gameplay import VIOLATION_CODES, Violation, check_sheet

MEDITERRANEAN, BALTIC, READING, ELECTRIC = 1, 3, 5, 12
ORIENTAL, VERMONT, CONNECTICUT = 6, 8, 9
PARK_PLACE, BOARDWALK = 37, 39
GREEN = (31, 32, 34)


def codes(report):
    return [error.code for error in report.errors]


def params(report):
    """The only violation's params as a report stores them (JSON), to compare with a dict."""
    (error,) = report.to_dict()["errors"]
    assert json.loads(json.dumps(error["params"])) == error["params"]
    return error["params"]


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
    ("bills", "code", "expected"),
    [
        ({"100": -1}, "negative-count", {"field": "bills", "bill": 100, "value": -1}),
        ({"100": 1.5}, "non-integer-count", {"field": "bills", "bill": 100, "value": 1.5}),
        ({"100": "two"}, "non-integer-count", {"field": "bills", "bill": 100, "value": "two"}),
        ({"100": True}, "non-integer-count", {"field": "bills", "bill": 100, "value": True}),
        ({"100": [2]}, "non-integer-count", {"field": "bills", "bill": 100, "value": "[2]"}),
        ({"25": 1}, "unknown-denomination", {"bill": "25"}),
        ({"lots": 1}, "unknown-denomination", {"bill": "lots"}),
    ],
)
def test_bill_counts(sheet, bills, code, expected):
    report = check_sheet(sheet({"id": "P1", "bills": bills}))
    assert codes(report) == [code]
    assert report.errors[0].player == "P1"
    if code == "unknown-denomination":
        expected = {**expected, "denominations": [500, 100, 50, 20, 10, 5, 1]}
    assert params(report) == {"player": "P1", **expected}


@pytest.mark.parametrize(("cash", "code"), [(-5, "negative-count"), (12.5, "non-integer-count")])
def test_counted_cash(sheet, player, cash, code):
    report = check_sheet(sheet(player("P1", cash)))
    assert codes(report) == [code]
    assert params(report) == {"player": "P1", "field": "cash", "value": cash}


def test_bills_and_a_counted_total_that_disagree(sheet):
    report = check_sheet(sheet({"id": "P1", "bills": {"100": 3}, "cash": 250}))
    assert codes(report) == ["cash-total-mismatch"]
    assert params(report) == {"player": "P1", "bills_total": 300, "cash": 250}


@pytest.mark.parametrize("position", [0, 4, 40, -1, "Boardwalk", None])
def test_unknown_property(sheet, player, deed, position):
    report = check_sheet(sheet(player("P1"), properties=[deed(position, "P1")]))
    assert codes(report) == ["unknown-property"]
    assert params(report) == {"position": position, "owner": "P1"}


def test_unknown_owner(sheet, player, deed):
    report = check_sheet(sheet(player("P1"), properties=[deed(BOARDWALK, "P9")]))
    assert codes(report) == ["unknown-owner"]
    assert report.errors[0].positions == (BOARDWALK,)
    assert "P9" in report.errors[0].message
    assert params(report) == {"position": BOARDWALK, "owner": "P9"}


def test_property_owned_twice(sheet, player, deed):
    report = check_sheet(
        sheet(player("P1"), player("P2"), properties=[deed(READING, "P1"), deed(READING, "P2")])
    )
    assert codes(report) == ["property-owned-twice"]
    assert "Reading Railroad" in report.errors[0].message
    assert params(report) == {"position": READING, "owners": ["P1", "P2"]}


def test_property_owned_by_a_player_and_the_bank(sheet, player, deed):
    report = check_sheet(sheet(player("P1"), properties=[deed(READING, None), deed(READING, "P1")]))
    assert codes(report) == ["property-owned-twice"]
    assert params(report) == {"position": READING, "owners": [None, "P1"]}


def test_property_listed_twice(sheet, player, deed):
    report = check_sheet(sheet(player("P1"), properties=[deed(READING, "P1"), deed(READING, "P1")]))
    assert codes(report) == ["property-listed-twice"]
    assert params(report) == {"position": READING, "owner": "P1"}


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
    assert params(report) == {
        "case": "count",
        "player": "P1",
        "position": BOARDWALK,
        "value": houses,
        "max_houses": 4,
    }


def test_houses_and_a_hotel_on_one_lot(sheet, player, deed):
    report = check_sheet(
        sheet(
            player("P1"),
            properties=[
                deed(PARK_PLACE, "P1", houses=4),
                deed(BOARDWALK, "P1", houses=3, hotel=True),
            ],
        )
    )
    assert codes(report) == ["houses-out-of-range"]
    assert params(report) == {"case": "hotel", "player": "P1", "position": BOARDWALK, "houses": 3}


@pytest.mark.parametrize("state", [{"mortgaged": True}, {"houses": 1}, {"hotel": True}])
def test_unowned_property_state(sheet, player, deed, state):
    report = check_sheet(sheet(player("P1"), properties=[deed(BOARDWALK, None, **state)]))
    assert codes(report) == ["unowned-property-state"]
    blank = {"mortgaged": False, "houses": 0, "hotel": False}
    assert params(report) == {"position": BOARDWALK, **blank, **state}


@pytest.mark.parametrize(("position", "kind"), [(READING, "railroad"), (ELECTRIC, "utility")])
def test_building_on_railroad_or_utility(sheet, player, deed, position, kind):
    report = check_sheet(sheet(player("P1"), properties=[deed(position, "P1", houses=1)]))
    assert codes(report) == ["building-on-railroad-or-utility"]
    assert params(report) == {
        "player": "P1",
        "position": position,
        "kind": kind,
        "mortgaged": False,
        "houses": 1,
        "hotel": False,
    }


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
    assert params(report) == {"player": "P1", "group": "dark-blue", "positions": [BOARDWALK]}


def test_building_without_monopoly_names_every_built_lot(sheet, player, deed):
    report = check_sheet(
        sheet(
            player("P1"),
            properties=[deed(ORIENTAL, "P1", houses=1), deed(VERMONT, "P1", houses=1)],
        )
    )
    assert codes(report) == ["building-without-monopoly"]
    assert params(report) == {"player": "P1", "group": "light-blue", "positions": [6, 8]}


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
    assert params(report) == {
        "player": "P1",
        "position": MEDITERRANEAN,
        "mortgaged": True,
        "houses": 1,
        "hotel": False,
    }


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
    assert params(report) == {"player": "P1", "group": "light-blue", "mortgaged": [CONNECTICUT]}


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
    assert params(report) == {
        "player": "P1",
        "group": "green",
        "lots": [
            {
                "position": position,
                "houses": 0 if level == "hotel" else level,
                "hotel": level == "hotel",
            }
            for position, level in zip(GREEN, levels, strict=True)
        ],
    }


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
    assert params(report) == {"count": 44, "stock": 32}


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
    assert params(report) == {"count": 22, "stock": 12}


@pytest.mark.parametrize("assets", ["cash", "deed"])
def test_bankrupt_player_has_assets(sheet, player, deed, assets):
    broke = {"id": "P2", "bankrupt": True, "cash": 50 if assets == "cash" else 0}
    properties = [deed(READING, "P2")] if assets == "deed" else []
    report = check_sheet(sheet(player("P1", 10), broke, properties=properties))
    assert codes(report) == ["bankrupt-player-has-assets"]
    assert report.errors[0].player == "P2"
    assert params(report) == {
        "player": "P2",
        "cash": 50 if assets == "cash" else 0,
        "positions": [READING] if assets == "deed" else [],
    }


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


def test_messages_use_the_editions_words_for_a_hotel(player):
    report = check_sheet(
        {
            "edition": "boutique",
            "players": [player("P1")],
            "properties": [
                {"position": PARK_PLACE, "owner": "P1", "houses": 4},
                {"position": BOARDWALK, "owner": "P1", "houses": 1, "hotel": True},
            ],
        }
    )
    assert codes(report) == ["houses-out-of-range"]
    assert "enter the mall alone" in report.errors[0].message


def test_params_are_read_only_and_leave_equality_alone():
    first = Violation("negative-count", "P1: cash cannot be negative (-5).", "P1", params={"a": 1})
    second = Violation("negative-count", "P1: cash cannot be negative (-5).", "P1")
    assert first == second and hash(first) == hash(second)
    with pytest.raises(TypeError):
        first.params["a"] = 2


def test_a_code_the_engine_does_not_list_is_refused():
    """Applications word each listed code; an unlisted one would reach people unworded."""
    with pytest.raises(ValueError, match="sentence in wording.py"):
        Violation("made-up-code", "Something is wrong.")


def test_every_code_is_documented():
    readme = (Path(gameplay.__file__).parent / "README.md").read_text(encoding="utf-8")
    assert [code for code in sorted(VIOLATION_CODES) if f"`{code}`" not in readme] == []


@pytest.mark.parametrize("data", [[1, 2], "classic-us", {"players": []}, {"edition": 7}])
def test_a_sheet_without_an_edition_named_is_refused_with_where_to_find_them(data):
    with pytest.raises(gameplay.SheetFormatError) as refusal:
        check_sheet(data)
    assert str(refusal.value) == (
        "'edition' must name an edition (see 'python -m gameplay editions')"
    )


def test_a_wrong_count_counts_as_none_in_the_cash(sheet):
    """A count that is not a whole number, or is negative, is reported and counts 0: the
    bills written correctly still add up."""
    for wrong in ("two", -1, 2.5):
        report = check_sheet(sheet({"id": "P1", "bills": {"100": wrong, "50": 1}}))
        (line,) = report.to_dict()["players"]
        assert line["cash"] == 50, wrong
    for wrong in ("ten", -10):
        (line,) = check_sheet(sheet({"id": "P1", "cash": wrong})).to_dict()["players"]
        assert line["cash"] == 0, wrong


def test_a_property_entry_that_is_not_an_object_is_refused_by_name(sheet, player):
    data = sheet(player("P1", 10), properties=[39])
    with pytest.raises(gameplay.SheetFormatError) as refusal:
        check_sheet(data)
    assert str(refusal.value) == "every entry of 'properties' must be an object"


def test_an_unknown_edition_is_refused_with_the_editions_there_are():
    with pytest.raises(gameplay.SheetFormatError) as refusal:
        check_sheet({"edition": "monopoly-mars", "players": [{"id": "A"}]})
    assert str(refusal.value) == (
        "no edition 'monopoly-mars'; known editions: boutique, classic-uk, classic-us, india-rupee"
    )


def test_every_group_is_checked_after_a_group_with_a_problem(sheet, player, deed):
    """A hotel without the monopoly in the light blues does not hide the greens' uneven
    building: the sheet lists every mistake."""
    report = check_sheet(
        sheet(
            player("P1", 10),
            player("P2", 10),
            properties=[
                deed(ORIENTAL, "P1", hotel=True),
                deed(VERMONT, "P2"),
                deed(CONNECTICUT, "P1"),
                deed(GREEN[0], "P1", hotel=True),
                deed(GREEN[1], "P1", houses=1),
                deed(GREEN[2], "P1", houses=4),
            ],
        )
    )
    assert codes(report) == ["building-without-monopoly", "uneven-building"]


def test_a_board_listing_its_railroads_first_still_checks_every_street(sheet, player, deed):
    """The groups are checked in the edition's order; one that is no street group is passed
    over, not the end of the check."""
    classic = gameplay.load_edition("classic-us")
    groups = dict(classic.groups)
    railroads_first = {"railroad": groups.pop("railroad"), **groups}
    edition = dataclasses.replace(classic, groups=railroads_first)
    data = sheet(
        player("P1", 10),
        properties=[
            deed(GREEN[0], "P1", hotel=True),
            deed(GREEN[1], "P1", houses=1),
            deed(GREEN[2], "P1", houses=4),
        ],
    )
    assert codes(check_sheet(data, edition=edition)) == ["uneven-building"]
