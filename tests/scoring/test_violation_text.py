"""The engine's violations as people read them: translated sentences, aliases, never ids.

Every code comes from the engine itself: SAMPLES holds the smallest sheet that breaks each
rule, and a test checks they cover ``gameplay.VIOLATION_CODES``, so a new code without a
sample (and so without a checked sentence) fails here.
"""

from __future__ import annotations

import gettext
import uuid

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from gameplay import VIOLATION_CODES, check_sheet, load_edition
from scoring.models import TableSheet
from scoring.services.sheets import SheetInvalid, sheet_submit
from scoring.violations import seating_violation, violation_text
from tests.scoring.scoring_helpers import sheet_data
from tournament.roles import JUDGE

CLASSIC = load_edition("classic-us")
# Player ids as the app gives them (str(pk)), chosen to appear nowhere else in a sentence.
ONE, TWO = "101", "102"
ALIASES = {ONE: "Steady Wheelbarrow", TWO: "Lucky Thimble"}
MEDITERRANEAN, BALTIC, READING, ELECTRIC = 1, 3, 5, 12
ORIENTAL, VERMONT, CONNECTICUT = 6, 8, 9
PARK_PLACE, BOARDWALK = 37, 39
STREETS = (1, 3, 6, 8, 9, 11, 13, 14, 16, 18, 19, 21, 23, 24, 26, 27, 29, 31, 32, 34, 37, 39)


def player(pid: str, cash: int = 0, **extra) -> dict:
    return {"id": pid, "bankrupt": False, "cash": cash, **extra}


def deed(position, owner, **state) -> dict:
    return {"position": position, "owner": owner, **state}


def sheet(*players, properties=()) -> dict:
    return {"edition": "classic-us", "players": list(players), "properties": list(properties)}


# One minimal sheet per sentence the engine can ask for (some codes have two shapes).
SAMPLES = {
    "non-integer-count (bills)": sheet({"id": ONE, "bills": {"100": "two"}}),
    "non-integer-count (cash)": sheet(player(ONE, 12.5)),
    "negative-count (bills)": sheet({"id": ONE, "bills": {"100": -1}}),
    "negative-count (cash)": sheet(player(ONE, -5)),
    "unknown-denomination": sheet({"id": ONE, "bills": {"25": 1}}),
    "cash-total-mismatch": sheet({"id": ONE, "bills": {"100": 3}, "cash": 250}),
    "unknown-property": sheet(player(ONE), properties=[deed("Boardwalk", ONE)]),
    "unknown-owner": sheet(player(ONE), properties=[deed(BOARDWALK, "999")]),
    "property-owned-twice": sheet(
        player(ONE), player(TWO), properties=[deed(READING, ONE), deed(READING, TWO)]
    ),
    "property-owned-twice (bank)": sheet(
        player(ONE), properties=[deed(READING, None), deed(READING, ONE)]
    ),
    "property-listed-twice": sheet(
        player(ONE), properties=[deed(READING, ONE), deed(READING, ONE)]
    ),
    "houses-out-of-range (count)": sheet(
        player(ONE), properties=[deed(PARK_PLACE, ONE), deed(BOARDWALK, ONE, houses=7)]
    ),
    "houses-out-of-range (hotel)": sheet(
        player(ONE),
        properties=[deed(PARK_PLACE, ONE, houses=4), deed(BOARDWALK, ONE, houses=1, hotel=True)],
    ),
    "unowned-property-state": sheet(player(ONE), properties=[deed(BOARDWALK, None, houses=1)]),
    "building-on-railroad-or-utility": sheet(
        player(ONE), properties=[deed(ELECTRIC, ONE, houses=1)]
    ),
    "building-on-mortgaged-property": sheet(
        player(ONE),
        properties=[deed(MEDITERRANEAN, ONE, houses=1, mortgaged=True), deed(BALTIC, ONE)],
    ),
    "building-without-monopoly": sheet(
        player(ONE), player(TWO), properties=[deed(BOARDWALK, ONE, houses=1), deed(PARK_PLACE, TWO)]
    ),
    "building-without-monopoly (two lots)": sheet(
        player(ONE), properties=[deed(ORIENTAL, ONE, houses=1), deed(VERMONT, ONE, houses=1)]
    ),
    "building-in-group-with-mortgaged-lot": sheet(
        player(ONE),
        properties=[
            deed(ORIENTAL, ONE, houses=1),
            deed(VERMONT, ONE, houses=1),
            deed(CONNECTICUT, ONE, mortgaged=True),
        ],
    ),
    "building-in-group-with-mortgaged-lot (two lots)": sheet(
        player(ONE),
        properties=[
            deed(ORIENTAL, ONE, houses=1),
            deed(VERMONT, ONE, mortgaged=True),
            deed(CONNECTICUT, ONE, mortgaged=True),
        ],
    ),
    "uneven-building": sheet(
        player(ONE),
        properties=[deed(31, ONE, hotel=True), deed(32, ONE, houses=1), deed(34, ONE, houses=4)],
    ),
    # With a railroad and nothing on it, which is no part of the shortage.
    "house-supply-exceeded": sheet(
        player(ONE), properties=[*(deed(p, ONE, houses=2) for p in STREETS), deed(READING, ONE)]
    ),
    "hotel-supply-exceeded": sheet(
        player(ONE), properties=[deed(p, ONE, hotel=True) for p in STREETS]
    ),
    "bankrupt-player-has-assets": sheet(
        player(TWO, 10),
        {"id": ONE, "bankrupt": True, "cash": 50},
        properties=[deed(READING, ONE)],
    ),
}


def single_violation(data: dict) -> dict:
    """The one violation a sheet breaks, as a stored report holds it."""
    (violation,) = check_sheet(data).to_dict()["errors"]
    return violation


def only_violation(name: str) -> dict:
    """The one violation the sample sheet ``name`` breaks, as a stored report holds it."""
    violation = single_violation(SAMPLES[name])
    assert violation["code"] == name.split(" ")[0]
    return violation


def test_the_samples_cover_every_code_the_engine_can_emit():
    assert {only_violation(name)["code"] for name in SAMPLES} == VIOLATION_CODES


@pytest.mark.parametrize("name", SAMPLES)
def test_every_violation_has_its_own_sentence(name):
    violation = {**only_violation(name), "message": "THE ENGINE'S SENTENCE"}
    text = violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC)
    assert text and "THE ENGINE'S SENTENCE" not in text


@pytest.mark.parametrize("name", SAMPLES)
def test_the_english_sentence_says_what_the_engine_says(name):
    """With ids for aliases, the msgid is the engine's own sentence: the params lose nothing."""
    violation = only_violation(name)
    ids = {ONE: ONE, TWO: TWO}
    assert (
        violation_text(violation=violation, aliases=ids, edition=CLASSIC) == (violation["message"])
    )


@pytest.mark.parametrize("name", SAMPLES)
def test_players_are_named_by_alias_and_never_by_id(name):
    violation = only_violation(name)
    text = violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC)
    assert ONE not in text and TWO not in text
    for pid, alias in ALIASES.items():
        # Each time the engine names a player, the sentence names the alias.
        assert text.count(alias) == violation["message"].count(pid)


def test_building_without_monopoly_names_the_alias_in_both_places():
    """The tablet once showed "Steady Wheelbarrow: ... but 1 does not own every property"."""
    data = sheet(player("1"), properties=[deed(BOARDWALK, "1", houses=1)])
    (violation,) = check_sheet(data).to_dict()["errors"]
    text = violation_text(violation=violation, aliases={"1": "Steady Wheelbarrow"}, edition=CLASSIC)
    assert text == (
        "Steady Wheelbarrow: Boardwalk has buildings, but Steady Wheelbarrow does not own "
        "every property of the Dark Blue group."
    )
    assert "1" not in text


def test_a_plural_sentence_for_several_lots():
    violation = only_violation("building-without-monopoly (two lots)")
    text = violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC)
    assert text.startswith("Steady Wheelbarrow: Oriental Avenue, Vermont Avenue have buildings")


def test_the_editions_words_and_deed_names_are_used():
    boutique = load_edition("boutique")
    data = {**SAMPLES["houses-out-of-range (hotel)"], "edition": "boutique"}
    (violation,) = check_sheet(data).to_dict()["errors"]
    text = violation_text(violation=violation, aliases=ALIASES, edition=boutique)
    assert text == (
        "Steady Wheelbarrow: Boardwalk has a mall and 1 boutique; the boutiques are turned in "
        "when the mall is built, so enter the mall alone."
    )


def test_a_german_request_gets_the_german_sentence_from_the_shipped_catalog():
    """The sentence comes from locale/de, read here straight from the compiled catalog."""
    catalog_file = settings.BASE_DIR / "locale" / "de" / "LC_MESSAGES" / "django.mo"
    with catalog_file.open("rb") as handle:
        german = gettext.GNUTranslations(handle)
    singular = (
        "%(player)s: %(deeds)s has buildings, but %(player)s does not own every property of "
        "the %(group)s group."
    )
    plural = (
        "%(player)s: %(deeds)s have buildings, but %(player)s does not own every property of "
        "the %(group)s group."
    )
    expected = german.ngettext(singular, plural, 1) % {
        "player": "Steady Wheelbarrow",
        "deeds": "Boardwalk",
        "group": "Dark Blue",
    }
    assert expected.startswith("Steady Wheelbarrow: ") and "has buildings" not in expected
    with translation.override("de"):
        violation = only_violation("building-without-monopoly")
        text = violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC)
    assert text == expected


# --- What cannot be worded is shown as stored ------------------------------------------------


def test_a_report_stored_before_params_shows_the_engines_sentence():
    data = sheet(player("1"), properties=[deed(BOARDWALK, "1", houses=1)])
    (violation,) = check_sheet(data).to_dict()["errors"]
    del violation["params"]
    text = violation_text(violation=violation, aliases={"1": "Steady Wheelbarrow"}, edition=CLASSIC)
    assert (
        text
        == violation["message"]
        == ("1: Boardwalk has buildings, but 1 does not own every property of the Dark Blue group.")
    )


def test_unknown_codes_unfit_params_and_a_missing_edition_show_the_stored_sentence():
    unknown = {"code": "unreadable-sheet", "message": "'players' must be a non-empty list"}
    assert violation_text(violation=unknown, aliases=ALIASES, edition=CLASSIC) == (
        "'players' must be a non-empty list"
    )
    violation = only_violation("building-without-monopoly")
    other_group = {**violation, "params": {**violation["params"], "group": "no-such-group"}}
    assert (
        violation_text(violation=other_group, aliases=ALIASES, edition=CLASSIC)
        == (violation["message"])
    )
    assert (
        violation_text(violation=violation, aliases=ALIASES, edition=None) == (violation["message"])
    )


def test_the_seating_violations_need_no_edition():
    violation = seating_violation("player-not-at-table", player=TWO)
    assert violation["message"] == f"Player {TWO} is not seated at this table."
    assert violation_text(violation=violation, aliases=ALIASES, edition=None) == (
        "Player Lucky Thimble is not seated at this table."
    )


def test_the_seating_violations_name_the_alias():
    violation = {
        "code": "player-missing",
        "message": f"Player {TWO} is seated at this table but not on the sheet.",
        "player": TWO,
        "positions": [],
    }
    assert violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC) == (
        "Player Lucky Thimble is seated at this table but not on the sheet."
    )


def test_an_invalid_submission_is_refused_in_aliases(table, four, banker):
    boot = four["Boot"]
    data = sheet_data(dict.fromkeys(four.values(), 1500))
    data["properties"] = [{"position": BOARDWALK, "owner": str(boot.pk), "houses": 2}]
    with pytest.raises(SheetInvalid) as caught:
        sheet_submit(
            table=table, data=data, expected_version=0, submission_key=uuid.uuid4(), by=banker
        )
    assert caught.value.messages == [
        "Boot: Boardwalk has buildings, but Boot does not own every property of the Dark Blue "
        "group."
    ]
    assert TableSheet.objects.get(table=table).report["errors"][0]["params"]["group"] == "dark-blue"


def test_the_judges_table_page_shows_the_draft_violations_in_aliases(client, table, four):
    boot = four["Boot"]
    data = sheet_data(dict.fromkeys(four.values(), 1500))
    data["properties"] = [{"position": BOARDWALK, "owner": str(boot.pk), "houses": 2}]
    with pytest.raises(SheetInvalid):
        sheet_submit(
            table=table, data=data, expected_version=0, submission_key=uuid.uuid4(), by=None
        )
    judge = User.objects.create_user("a-judge", password="pw")
    judge.groups.add(Group.objects.get(name=JUDGE))
    client.force_login(judge)
    page = reverse(
        "scoring:results_table",
        kwargs={"pk": table.round.event_id, "round_number": table.round.number, "table_number": 1},
    )
    body = client.get(page).content.decode()
    section = body.split('id="violations"')[1].split("</section>")[0]
    sentence = escape(
        "Boot: Boardwalk has buildings, but Boot does not own every property of the Dark Blue "
        "group."
    )
    assert f'<li data-code="building-without-monopoly">{sentence}</li>' in section


# Each sample's sentence written out by hand from the board (classic-us: the deeds' names,
# the groups, the bank's 32 houses and 12 hotels, bills of 500, 100, 50, 20, 10, 5 and 1),
# the players by alias. The tests above compare the engine's English with the translated
# text, which come from the same sentence function; these hold the words themselves.
SENTENCES_BY_HAND = {
    "non-integer-count (bills)": (
        "Steady Wheelbarrow: the number of $100 bills must be a whole number, not 'two'."
    ),
    "non-integer-count (cash)": "Steady Wheelbarrow: cash must be a whole number, not 12.5.",
    "negative-count (bills)": (
        "Steady Wheelbarrow: the number of $100 bills cannot be negative (-1)."
    ),
    "negative-count (cash)": "Steady Wheelbarrow: cash cannot be negative (-5).",
    "unknown-denomination": (
        "Steady Wheelbarrow: there is no $25 bill in this edition "
        "(bills: 500, 100, 50, 20, 10, 5, 1)."
    ),
    "cash-total-mismatch": (
        "Steady Wheelbarrow: the bills add up to $300 but the counted cash is $250; recount."
    ),
    "unknown-property": (
        "Position 'Boardwalk' is not a title deed in Classic (US, Atlantic City)."
    ),
    "unknown-owner": "Boardwalk is listed for '999', who is not a player at this table.",
    "property-owned-twice": (
        "Reading Railroad is listed for both Steady Wheelbarrow and Lucky Thimble; "
        "there is only one title deed."
    ),
    "property-owned-twice (bank)": (
        "Reading Railroad is listed for both the bank and Steady Wheelbarrow; "
        "there is only one title deed."
    ),
    "property-listed-twice": (
        "Reading Railroad is listed twice for Steady Wheelbarrow; list each title deed once."
    ),
    "houses-out-of-range (count)": (
        "Boardwalk: the number of houses must be a whole number from 0 to 4, not 7."
    ),
    "houses-out-of-range (hotel)": (
        "Steady Wheelbarrow: Boardwalk has a hotel and 1 house; the houses are turned in when "
        "the hotel is built, so enter the hotel alone."
    ),
    "unowned-property-state": (
        "Boardwalk belongs to the bank, so it cannot be mortgaged or built on."
    ),
    "building-on-railroad-or-utility": (
        "Steady Wheelbarrow: Electric Company is a utility; nothing can be built on it."
    ),
    "building-on-mortgaged-property": (
        "Steady Wheelbarrow: Mediterranean Avenue is mortgaged and has 1 house; buildings must "
        "be sold before a property is mortgaged."
    ),
    "building-without-monopoly": (
        "Steady Wheelbarrow: Boardwalk has buildings, but Steady Wheelbarrow does not own "
        "every property of the Dark Blue group."
    ),
    "building-without-monopoly (two lots)": (
        "Steady Wheelbarrow: Oriental Avenue, Vermont Avenue have buildings, but Steady "
        "Wheelbarrow does not own every property of the Light Blue group."
    ),
    "building-in-group-with-mortgaged-lot": (
        "Steady Wheelbarrow: the Light Blue group has buildings while Connecticut Avenue is "
        "mortgaged; no group with a mortgaged property may carry buildings."
    ),
    "building-in-group-with-mortgaged-lot (two lots)": (
        "Steady Wheelbarrow: the Light Blue group has buildings while Vermont Avenue, "
        "Connecticut Avenue are mortgaged; no group with a mortgaged property may carry "
        "buildings."
    ),
    "uneven-building": (
        "Steady Wheelbarrow: the Green group is not built evenly (Pacific Avenue a hotel, "
        "North Carolina Avenue 1 house, Pennsylvania Avenue 4 houses); lots of one group may "
        "differ by at most one building."
    ),
    # 22 streets with 2 houses each, or a hotel each.
    "house-supply-exceeded": (
        "The table shows 44 houses, but the bank has only 32; recount the buildings."
    ),
    "hotel-supply-exceeded": (
        "The table shows 22 hotels, but the bank has only 12; recount the buildings."
    ),
    "bankrupt-player-has-assets": (
        "Steady Wheelbarrow is bankrupt but still has $50, Reading Railroad; a bankrupt "
        "player hands everything to the creditor or the bank."
    ),
}


def test_the_sentences_by_hand_cover_every_sample():
    assert set(SENTENCES_BY_HAND) == set(SAMPLES)


@pytest.mark.parametrize("name", SAMPLES)
def test_each_sentence_reads_as_written_by_hand(name):
    violation = only_violation(name)
    text = violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC)
    assert text == SENTENCES_BY_HAND[name]


# Where each sample's violation is shown: beside whose line and which deeds (the tablet puts
# the sentence under the player's column and each deed's row). Nobody's line for what is
# the bank's or no one's (an owner who is not at the table, a deed of the bank, the bank's
# buildings); the second of two claims to one deed is the one in doubt.
ALL_STREETS = STREETS
WHO_AND_WHERE = {
    "non-integer-count (bills)": (ONE, ()),
    "non-integer-count (cash)": (ONE, ()),
    "negative-count (bills)": (ONE, ()),
    "negative-count (cash)": (ONE, ()),
    "unknown-denomination": (ONE, ()),
    "cash-total-mismatch": (ONE, ()),
    # "Boardwalk" is no position: there is no deed to point at, only the line it is on.
    "unknown-property": (ONE, ()),
    "unknown-owner": (None, (BOARDWALK,)),
    "property-owned-twice": (TWO, (READING,)),
    "property-owned-twice (bank)": (ONE, (READING,)),
    "property-listed-twice": (ONE, (READING,)),
    "houses-out-of-range (count)": (ONE, (BOARDWALK,)),
    "houses-out-of-range (hotel)": (ONE, (BOARDWALK,)),
    "unowned-property-state": (None, (BOARDWALK,)),
    "building-on-railroad-or-utility": (ONE, (ELECTRIC,)),
    "building-on-mortgaged-property": (ONE, (MEDITERRANEAN,)),
    "building-without-monopoly": (ONE, (BOARDWALK,)),
    "building-without-monopoly (two lots)": (ONE, (ORIENTAL, VERMONT)),
    # The whole group: its buildings and its mortgaged lot are one problem.
    "building-in-group-with-mortgaged-lot": (ONE, (ORIENTAL, VERMONT, CONNECTICUT)),
    "building-in-group-with-mortgaged-lot (two lots)": (ONE, (ORIENTAL, VERMONT, CONNECTICUT)),
    "uneven-building": (ONE, (31, 32, 34)),
    "house-supply-exceeded": (None, ALL_STREETS),
    "hotel-supply-exceeded": (None, ALL_STREETS),
    "bankrupt-player-has-assets": (ONE, (READING,)),
}


def test_where_each_violation_is_shown_covers_every_sample():
    assert set(WHO_AND_WHERE) == set(SAMPLES)


@pytest.mark.parametrize("name", SAMPLES)
def test_each_violation_names_the_player_and_deeds_it_is_shown_beside(name):
    violation = only_violation(name)
    assert (violation["player"], tuple(violation["positions"])) == WHO_AND_WHERE[name]


TRANSLATED = [code for code, _ in settings.LANGUAGES if not code.startswith("en")]


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", SAMPLES)
def test_every_sentence_is_found_in_each_shipped_catalog(name, language):
    """A sentence's English is its msgid: a word changed in the code and not in the
    catalogs would leave that language reading English."""
    violation = only_violation(name)
    with translation.override(language):
        text = violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC)
    assert text != SENTENCES_BY_HAND[name]


def test_a_hotel_over_several_houses_is_worded_for_several():
    data = sheet(
        player(ONE),
        properties=[deed(PARK_PLACE, ONE, houses=4), deed(BOARDWALK, ONE, houses=2, hotel=True)],
    )
    violation = single_violation(data)
    text = violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC)
    assert text == (
        "Steady Wheelbarrow: Boardwalk has a hotel and 2 houses; the houses are turned in when "
        "the hotel is built, so enter the hotel alone."
    )
    for language in TRANSLATED:
        with translation.override(language):
            translated = violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC)
        assert translated != text, language


def test_an_owner_from_another_table_is_named_by_alias():
    """Lucky Thimble plays in the event but not at this table: named, not quoted as an id."""
    violation = single_violation(sheet(player(ONE), properties=[deed(BOARDWALK, TWO)]))
    text = violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC)
    assert text == "Boardwalk is listed for Lucky Thimble, who is not a player at this table."


def test_a_bankrupt_player_with_no_cash_left_is_told_only_of_the_deeds():
    data = sheet(
        player(TWO, 10),
        {"id": ONE, "bankrupt": True, "cash": 0},
        properties=[deed(READING, ONE)],
    )
    violation = single_violation(data)
    text = violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC)
    assert text == (
        "Steady Wheelbarrow is bankrupt but still has Reading Railroad; a bankrupt player hands "
        "everything to the creditor or the bank."
    )


def test_a_mortgaged_lot_with_a_hotel_says_so():
    data = sheet(
        player(ONE),
        properties=[
            deed(MEDITERRANEAN, ONE, hotel=True, mortgaged=True),
            deed(BALTIC, ONE, houses=4),
        ],
    )
    errors = check_sheet(data).to_dict()["errors"]
    (violation,) = [e for e in errors if e["code"] == "building-on-mortgaged-property"]
    text = violation_text(violation=violation, aliases=ALIASES, edition=CLASSIC)
    assert text == (
        "Steady Wheelbarrow: Mediterranean Avenue is mortgaged and has a hotel; buildings must "
        "be sold before a property is mortgaged."
    )
