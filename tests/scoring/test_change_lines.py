"""What changed between two versions of a sheet, in the words the banker and the judges read.

The banker's conflict screen and the judges' revision history show the same lines
(``scoring.diff.describe_changes``); the expected lines here are written out by hand.
"""

from gameplay import load_edition
from scoring.diff import describe_changes, sheet_changes

CLASSIC = load_edition("classic-us")
ALIASES = {"7": "Steady Wheelbarrow"}
BEFORE = {
    "edition": "classic-us",
    "players": [{"id": "7", "bankrupt": False, "cash": 100, "bills": {"500": 1}}],
    "properties": [{"position": 39, "owner": "7", "houses": 2}],
}
AFTER = {
    "edition": "classic-us",
    "players": [{"id": "7", "bankrupt": False, "cash": 1550, "bills": {"500": 3, "50": 1}}],
    "properties": [{"position": 5, "owner": "7"}, {"position": 39, "owner": None, "houses": 2}],
}


def test_each_change_names_the_deed_the_alias_and_the_money():
    lines = describe_changes(sheet_changes(BEFORE, AFTER), aliases=ALIASES, edition=CLASSIC)
    assert [(line["what"], line["field"], line["before"], line["after"]) for line in lines] == [
        ("Steady Wheelbarrow", "counted cash", "100", "1550"),
        ("Steady Wheelbarrow", "bills", "1 × $500", "3 × $500, 1 × $50"),
        # A deed listed on one side only: its entries, owner by alias, never the id "7".
        ("Reading Railroad", "", "—", "owner: Steady Wheelbarrow"),
        ("Boardwalk", "owner", "Steady Wheelbarrow", "Bank"),
    ]


def test_without_the_edition_the_lines_still_read():
    lines = describe_changes(sheet_changes(BEFORE, AFTER), aliases=ALIASES, edition=None)
    assert lines[1]["before"] == "1 × 500"
    assert [line["what"] for line in lines[2:]] == ["space 5", "space 39"]
