"""Reading a score sheet: what is refused outright, in whose words, and what is read
around a mistake (gameplay/README.md, "The score sheet").

A sheet the engine cannot read at all is refused with one sentence naming the field; a
count or a deed it can read but not accept is reported and the rest of the sheet is still
read, so the banker sees every mistake at once.
"""

import pytest

from gameplay import SheetFormatError, check_sheet, load_edition
from gameplay.sheet import read_sheet

BOARDWALK = 39


def one(**player):
    return {"edition": "classic-us", "players": [{"id": "A", **player}]}


# What the engine refuses to read, and the sentence it says it in (the command line and the
# tablet print it as it is).
REFUSED = {
    "not an object": ([1, 2], "a score sheet must be a JSON object"),
    "no players": ({"players": []}, "'players' must be a non-empty list"),
    "players not a list": ({"players": {"id": "A"}}, "'players' must be a non-empty list"),
    "properties not a list": (
        {"players": [{"id": "A"}], "properties": {"position": 39}},
        "'properties' must be a list",
    ),
    "a player twice": (
        {"players": [{"id": "A"}, {"id": "A"}]},
        "every player needs a different 'id'",
    ),
    "two out at once": (
        {
            "players": [
                {"id": "A", "bankrupt": True, "out_order": 1},
                {"id": "B", "bankrupt": True, "out_order": 1},
            ]
        },
        "two bankrupt players cannot have the same 'out_order'",
    ),
    "out but not bankrupt": (
        {"players": [{"id": "A", "out_order": 1}]},
        "'out_order' is only for bankrupt players",
    ),
    "a player that is a word": (
        {"players": ["A"]},
        "every player needs an 'id' that is a non-empty string",
    ),
    "an id that is a number": (
        {"players": [{"id": 7}]},
        "every player needs an 'id' that is a non-empty string",
    ),
    "an empty id": (
        {"players": [{"id": ""}]},
        "every player needs an 'id' that is a non-empty string",
    ),
    "bankrupt as a word": (
        {"players": [{"id": "A", "bankrupt": "no"}]},
        "player A: 'bankrupt' must be true or false",
    ),
    "bills as a list": (
        {"players": [{"id": "A", "bills": [500, 500]}]},
        "player A: 'bills' must map denominations to counts",
    ),
    "out first as 0": (
        {"players": [{"id": "A", "bankrupt": True, "out_order": 0}]},
        "player A: 'out_order' must be a whole number from 1",
    ),
    "out order as a fraction": (
        {"players": [{"id": "A", "bankrupt": True, "out_order": 1.5}]},
        "player A: 'out_order' must be a whole number from 1",
    ),
    "mortgaged as a word": (
        {
            "players": [{"id": "A"}],
            "properties": [{"position": 39, "owner": "A", "mortgaged": "yes"}],
        },
        "Boardwalk (position 39): 'mortgaged' must be true or false",
    ),
    "hotel as a number": (
        {"players": [{"id": "A"}], "properties": [{"position": 39, "owner": "A", "hotel": 1}]},
        "Boardwalk (position 39): 'hotel' must be true or false",
    ),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_sheet_the_engine_cannot_read_is_refused_in_its_own_words(case):
    data, sentence = REFUSED[case]
    with pytest.raises(SheetFormatError) as refusal:
        read_sheet(data, edition=load_edition("classic-us"))
    assert str(refusal.value) == sentence


def test_a_whole_number_written_with_a_point_is_read_as_that_number():
    """JSON may carry 1500 as 1500.0; it is the same money."""
    (line,) = check_sheet(one(cash=1500.0)).to_dict()["players"]
    assert line["cash"] == 1500 and type(line["cash"]) is int
    (line,) = check_sheet(one(bills={"500": 3.0})).to_dict()["players"]
    assert line["cash"] == 1500


def test_bills_after_an_unknown_one_are_still_counted():
    (line,) = check_sheet(one(bills={"25": 1, "100": 2, "20": 1})).to_dict()["players"]
    # Two 100s and a 20; the 25 is reported, not counted.
    assert line["cash"] == 220


def test_a_wrong_cash_count_is_reported_in_the_editions_words():
    report = check_sheet(one(cash="ten"))
    (error,) = report.to_dict()["errors"]
    assert error["message"] == "A: cash must be a whole number, not 'ten'."


def test_deeds_after_a_mistaken_one_are_still_read():
    """An unknown position and an owner not at the table are reported; Boardwalk after
    them is still A's, and counts 400 in A's net worth."""
    data = one(cash=0)
    data["properties"] = [
        {"position": "Park Place", "owner": "A"},
        {"position": 37, "owner": "Z"},
        {"position": BOARDWALK, "owner": "A"},
    ]
    report = check_sheet(data)
    assert [e.code for e in report.errors] == ["unknown-property", "unknown-owner"]
    (line,) = report.to_dict()["players"]
    assert line["net_worth"] == 400
    # The report carries the sheet as read: Boardwalk, A's; the two mistaken deeds left out.
    assert [(h.position, h.owner) for h in report.sheet.holdings] == [(BOARDWALK, "A")]


def test_an_unknown_property_is_shown_beside_its_owner_only_when_the_owner_is_a_name():
    data = one()
    data["properties"] = [{"position": "Boardwalk", "owner": 7}]
    (error,) = check_sheet(data).to_dict()["errors"]
    assert (error["code"], error["player"], error["positions"]) == ("unknown-property", None, [])


def test_a_number_that_is_no_deed_is_pointed_at_as_written():
    """Position 40 is off the board and 0 is GO: neither is a deed, both are named."""
    for position in (40, 0):
        data = one()
        data["properties"] = [{"position": position, "owner": "A"}]
        (error,) = check_sheet(data).to_dict()["errors"]
        assert (error["code"], error["player"], error["positions"]) == (
            "unknown-property",
            "A",
            [position],
        )


def test_houses_out_of_range_count_as_none():
    """Seven houses on Boardwalk are reported and value nothing: the deed's 400 only."""
    data = one(cash=0)
    data["properties"] = [
        {"position": 37, "owner": "A"},
        {"position": BOARDWALK, "owner": "A", "houses": 7},
    ]
    report = check_sheet(data)
    assert [e.code for e in report.errors] == ["houses-out-of-range"]
    (line,) = report.to_dict()["players"]
    assert (line["building_value"], line["net_worth"]) == (0, 350 + 400)
