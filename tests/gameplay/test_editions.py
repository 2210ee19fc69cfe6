"""The shipped editions against the rule documents they come from."""

import dataclasses
import json

import pytest

from gameplay import EditionError, all_editions, load_edition
from gameplay import edition as edition_module

# Market Edition Rules, "Property Information": name, position (1-based there), price, base rent,
# group. Copied from the rule document, not from our data file.
MARKET_TABLE = """
Mediterranean Ave.|2|60|2|Purple
Baltic Ave.|4|60|4|Purple
Oriental Ave.|7|100|6|Light Green
Vermont Ave.|9|100|6|Light Green
Connecticut Ave.|10|120|8|Light Green
St. Charles Place|12|140|10|Violet
States Ave.|14|140|10|Violet
Virginia Ave.|15|160|12|Violet
St. James Place|17|180|14|Orange
Tennessee Ave.|19|180|14|Orange
New York Ave.|20|200|16|Orange
Kentucky Ave.|22|220|18|Red
Indiana Ave.|24|220|18|Red
Illinois Ave.|25|240|20|Red
Atlantic Ave.|27|260|22|Yellow
Ventnor Ave.|28|260|22|Yellow
Marvin Gardens|30|280|22|Yellow
Pacific Ave.|32|300|26|Dark Green
North Carolina Ave.|33|300|26|Dark Green
Pennsylvania Ave.|35|320|28|Dark Green
Park Place|38|350|35|Dark Blue
Boardwalk|40|400|50|Dark Blue
Electric Company|13|150||Utilities
Water Works|29|150||Utilities
Reading Railroad|6|200||Railroads
Pennsylvania Railroad|16|200||Railroads
B. & O. Railroad|26|200||Railroads
Short Line Railroad|36|200||Railroads
"""


def test_every_edition_is_a_playable_board():
    editions = all_editions()
    assert {e.slug for e in editions} >= {"classic-us", "classic-uk", "boutique", "india-rupee"}
    for edition in editions:
        assert len(edition.spaces) == 40
        assert len(edition.deeds) == 28
        assert {s.kind for s in edition.spaces} == {
            "street",
            "railroad",
            "utility",
            "tax",
            "card",
            "corner",
        }
        assert edition.railroad_rents == (25, 50, 100, 200)
        assert edition.utility_multipliers == (4, 10)
        assert (edition.bank_houses, edition.bank_hotels) == (32, 12)
        assert edition.starting_cash == 1500
        for street in (s for s in edition.deeds if s.kind == "street"):
            assert street.mortgage * 2 == street.price


def test_classic_us_title_deeds():
    edition = load_edition("classic-us")
    boardwalk = edition.spaces[39]
    assert (boardwalk.name, boardwalk.price, boardwalk.mortgage, boardwalk.house_cost) == (
        "Boardwalk",
        400,
        200,
        200,
    )
    assert boardwalk.rents == (50, 200, 600, 1400, 1700, 2000)
    assert edition.spaces[1].rents == (2, 10, 30, 90, 160, 250)
    assert edition.houses_per_hotel == 4
    assert edition.groups["dark-blue"].positions == (37, 39)
    assert edition.groups["railroad"].positions == (5, 15, 25, 35)


def test_both_official_starting_splits_make_1500():
    edition = load_edition("classic-us")
    # Championship Rules, PREPARATION: 2 each of 500s, 100s and 50s; 6 20s; 5 each of 10s, 5s, 1s.
    assert {500: 2, 100: 2, 50: 2, 20: 6, 10: 5, 5: 5, 1: 5} in edition.starting_splits
    assert len(edition.starting_splits) == 2
    for split in edition.starting_splits:
        assert sum(bill * count for bill, count in split.items()) == 1500


def test_london_board_has_the_same_numbers():
    us, uk = load_edition("classic-us"), load_edition("classic-uk")
    assert uk.currency_symbol == "£"
    assert uk.spaces[39].name == "Mayfair" and uk.spaces[1].name == "Old Kent Road"
    for us_space, uk_space in zip(us.spaces, uk.spaces, strict=True):
        assert (us_space.kind, us_space.price, us_space.rents, us_space.house_cost) == (
            uk_space.kind,
            uk_space.price,
            uk_space.rents,
            uk_space.house_cost,
        )


def test_boutique_edition_renames_buildings_and_decks():
    edition = load_edition("boutique")
    assert edition.word("house") == "boutique" and edition.word("hotel", 2) == "malls"
    assert edition.word("chance") == "Instant Message"
    assert edition.word("community_chest") == "Text Message"
    assert edition.spaces[7].name == "Instant Message"
    assert edition.spaces[39].rents == load_edition("classic-us").spaces[39].rents


def test_market_edition_matches_its_property_table():
    edition = load_edition("india-rupee")
    assert edition.houses_per_hotel == 3 and edition.max_houses == 4
    assert edition.currency_code == "INR"
    for line in MARKET_TABLE.strip().splitlines():
        name, position, price, rent, group = line.split("|")
        space = edition.spaces[int(position) - 1]
        assert space.name == name
        assert space.price == int(price)
        if rent:
            assert space.rents[0] == int(rent)
        assert edition.groups[space.group].name == group


def test_unknown_edition_names_the_known_ones():
    with pytest.raises(EditionError, match="classic-us"):
        load_edition("monopoly-mars")


def classic_file() -> dict:
    """The classic board's file as written, to change one thing in."""
    return json.loads((edition_module.EDITIONS_DIR / "classic-us.json").read_text())


def test_a_broken_edition_file_is_refused(tmp_path, monkeypatch):
    data = classic_file()
    data["spaces"][39]["price"] = 401  # an odd price cannot be mortgaged at half
    del data["spaces"][5]
    (tmp_path / "broken.json").write_text(json.dumps(data))
    monkeypatch.setattr(edition_module, "EDITIONS_DIR", tmp_path)
    with pytest.raises(EditionError) as error:
        edition_module._build("broken", edition_module._raw("broken", ()))
    assert "positions must be 0..39" in str(error.value)
    assert "Boardwalk" in str(error.value)


def test_a_word_for_several_is_the_editions_own_plural_or_else_the_word_and_s():
    classic = load_edition("classic-us")
    # The edition's own plural where it is not the word and "s".
    assert classic.word("utility", 2) == "utilities"
    assert classic.word("utility", 1) == "utility"
    assert load_edition("classic-uk").word("railroad", 3) == "stations"
    assert load_edition("boutique").word("utility", 2) == "service providers"
    # A word the edition gives no plural for takes an "s" (and only for more than one).
    cabins = dataclasses.replace(classic, words={"house": "cabin"})
    assert cabins.word("house", 2) == "cabins"
    assert cabins.word("house", 0) == "cabins"
    assert cabins.word("house") == "cabin"
    # An edition's own plural wins over the word and "s", for any word.
    mice = dataclasses.replace(classic, words={"house": "mouse", "houses": "mice"})
    assert mice.word("house", 2) == "mice"


def _boardwalk(field, value):
    def change(data):
        data["spaces"][39][field] = value

    return change


def _split(index, bill, count):
    def change(data):
        data["starting_cash"]["splits"][index][bill] = count

    return change


def _top_level(field, value):
    def change(data):
        data[field] = value

    return change


def _move_bills(data):
    # 1500 still, but in 25s the edition does not print: five $5 bills become one $25.
    split = data["starting_cash"]["splits"][0]
    split["5"], split["25"] = 0, 1


# Each mistake an edition file can hold, one at a time on the classic board, and the
# sentence that names it (EditionError says which file and what is wrong where).
BROKEN = {
    "a free deed": (
        _boardwalk("price", 0),
        "position 39 (Boardwalk): price must be a positive even number",
    ),
    "an unknown kind": (
        _boardwalk("kind", "castle"),
        "position 39 (Boardwalk): unknown kind 'castle'",
    ),
    "an unknown group": (
        _boardwalk("group", "purple"),
        "position 39 (Boardwalk): unknown group 'purple'",
    ),
    "five rents": (
        _boardwalk("rents", [50, 200, 600, 1400, 1700]),
        "position 39 (Boardwalk): a street needs six rents and a house cost",
    ),
    "free houses": (
        _boardwalk("house_cost", 0),
        "position 39 (Boardwalk): a street needs six rents and a house cost",
    ),
    "a split short of the total": (
        _split(1, "1", 4),
        "a starting split does not add up to 1500",
    ),
    "a bill the edition lacks": (
        _move_bills,
        "a starting split uses a bill the edition does not have",
    ),
    "hotels from no houses": (
        _top_level("houses_per_hotel", 0),
        "houses_per_hotel must be between 1 and max_houses",
    ),
    "hotels from more houses than a lot holds": (
        _top_level("houses_per_hotel", 5),
        "houses_per_hotel must be between 1 and max_houses",
    ),
}


def _write_edition(tmp_path, monkeypatch, slug, data):
    (tmp_path / f"{slug}.json").write_text(json.dumps(data))
    monkeypatch.setattr(edition_module, "EDITIONS_DIR", tmp_path)


@pytest.mark.parametrize("mistake", BROKEN)
def test_each_mistake_in_an_edition_file_is_named(mistake, tmp_path, monkeypatch):
    change, sentence = BROKEN[mistake]
    data = classic_file()
    change(data)
    _write_edition(tmp_path, monkeypatch, "broken", data)
    with pytest.raises(EditionError) as error:
        edition_module._build("broken", edition_module._raw("broken", ()))
    assert str(error.value) == f"edition 'broken': {sentence}"


def test_two_mistakes_are_named_together(tmp_path, monkeypatch):
    data = classic_file()
    _boardwalk("price", 0)(data)
    _top_level("houses_per_hotel", 0)(data)
    _write_edition(tmp_path, monkeypatch, "broken", data)
    with pytest.raises(EditionError) as error:
        edition_module._build("broken", edition_module._raw("broken", ()))
    assert str(error.value) == (
        "edition 'broken': position 39 (Boardwalk): price must be a positive even number; "
        "houses_per_hotel must be between 1 and max_houses"
    )


def test_a_hotel_may_stand_for_a_single_house():
    """The check's own bounds: 1 up to max_houses houses make a hotel."""
    data = classic_file()
    data["houses_per_hotel"] = 1
    # The check asks a house to cost something: one is enough.
    data["spaces"][39]["house_cost"] = 1
    single = edition_module._build("single", data)
    assert (single.houses_per_hotel, single.spaces[39].house_cost) == (1, 1)


def test_an_edition_extending_itself_is_refused_with_the_chain(tmp_path, monkeypatch):
    monkeypatch.setattr(edition_module, "EDITIONS_DIR", tmp_path)
    (tmp_path / "north.json").write_text(json.dumps({"slug": "north", "extends": "south"}))
    (tmp_path / "south.json").write_text(json.dumps({"slug": "south", "extends": "north"}))
    with pytest.raises(EditionError) as error:
        edition_module._raw("north", ())
    assert str(error.value) == "edition 'north' extends itself through north -> south"


def test_an_override_of_a_space_the_board_lacks_is_refused(tmp_path, monkeypatch):
    base = classic_file()
    _write_edition(tmp_path, monkeypatch, "classic-us", base)
    override = {"slug": "moon", "extends": "classic-us", "spaces": [{"position": 40}]}
    (tmp_path / "moon.json").write_text(json.dumps(override))
    with pytest.raises(EditionError) as error:
        edition_module._raw("moon", ())
    assert str(error.value) == "override for unknown position 40"


def test_the_spaces_that_are_no_deeds_read_as_printed():
    """GO, the taxes and the card spaces of the classic board (the rule book's board)."""
    classic = load_edition("classic-us")
    go, chest, income, chance, luxury = (classic.spaces[p] for p in (0, 2, 4, 7, 38))
    # Nothing to buy, build or mortgage on a space without a deed; no tax where none is printed.
    assert (go.price, go.mortgage, go.house_cost, go.tax, go.deck) == (0, 0, 0, 0, None)
    assert (income.tax, luxury.tax, income.price) == (200, 100, 0)
    assert (chest.deck, chance.deck) == ("community_chest", "chance")
    # A deed's own numbers: Boardwalk costs 400, mortgages for 200, houses cost 200.
    boardwalk = classic.spaces[39]
    assert (boardwalk.price, boardwalk.mortgage, boardwalk.house_cost, boardwalk.tax) == (
        400,
        200,
        200,
        0,
    )


def test_each_group_has_the_colour_its_file_gives_or_black(tmp_path, monkeypatch):
    classic = load_edition("classic-us")
    assert (classic.groups["brown"].colour, classic.groups["dark-blue"].colour) == (
        "#8b4513",
        "#0072bb",
    )
    assert classic.notes.startswith("Numbers from the Parker Brothers rules")
    assert load_edition("classic-uk").notes.startswith("The London board")
    data = classic_file()
    for group in data["groups"]:
        group.pop("colour", None)
    del data["notes"]
    _write_edition(tmp_path, monkeypatch, "plain", data)
    plain = edition_module._build("plain", edition_module._raw("plain", ()))
    assert {group.colour for group in plain.groups.values()} == {"#000000"}
    assert plain.notes == ""
