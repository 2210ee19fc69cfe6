"""Properties every score sheet must have, whatever is on it (hypothesis)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay import check_sheet, load_edition

EDITIONS = ["classic-us", "classic-uk", "boutique", "india-rupee"]


@st.composite
def valid_sheets(draw):
    """A sheet that obeys the rules by construction: whole groups with even buildings.

    Buildings stay within the bank's supply by leaving a group unbuilt where it would run out.
    """
    edition = load_edition(draw(st.sampled_from(EDITIONS)))
    count = draw(st.integers(min_value=1, max_value=5))
    ids = [f"P{i}" for i in range(1, count + 1)]
    players = [
        {"id": player_id, "cash": draw(st.integers(min_value=0, max_value=20_000))}
        for player_id in ids
    ]
    properties = []
    houses_left, hotels_left = edition.bank_houses, edition.bank_hotels
    for group in edition.groups.values():
        owner = draw(st.sampled_from([None, *ids]))
        if owner is None:
            continue
        levels = []
        if edition.spaces[group.positions[0]].kind == "street" and draw(st.booleans()):
            base = draw(st.integers(min_value=0, max_value=edition.houses_per_hotel))
            levels = [base + draw(st.integers(0, 1)) for _ in group.positions]
        hotel_level = edition.houses_per_hotel + 1
        houses = sum(level for level in levels if level < hotel_level)
        hotels = levels.count(hotel_level)
        if levels and houses <= houses_left and hotels <= hotels_left:
            houses_left -= houses
            hotels_left -= hotels
            for position, level in zip(group.positions, levels, strict=True):
                hotel = level == hotel_level
                properties.append(
                    {
                        "position": position,
                        "owner": owner,
                        "houses": 0 if hotel else level,
                        "hotel": hotel,
                    }
                )
        else:
            for position in group.positions:
                holder = draw(st.sampled_from([None, owner, *ids]))
                if holder is not None:
                    properties.append(
                        {"position": position, "owner": holder, "mortgaged": draw(st.booleans())}
                    )
    return {"edition": edition.slug, "players": players, "properties": properties}


def by_id(report):
    return {p["id"]: p for p in report.to_dict()["players"]}


@settings(max_examples=200)
@given(valid_sheets())
def test_sheets_built_by_the_rules_are_valid(data):
    report = check_sheet(data)
    assert report.valid, report.errors


@settings(max_examples=200)
@given(valid_sheets())
def test_valuation_is_additive_over_players(data):
    """A table's worth is the sum of each player's sheet valued alone."""
    whole = by_id(check_sheet(data))
    for player in data["players"]:
        alone = {
            "edition": data["edition"],
            "players": [player],
            "properties": [p for p in data["properties"] if p["owner"] == player["id"]],
        }
        assert (
            by_id(check_sheet(alone))[player["id"]]["net_worth"] == whole[player["id"]]["net_worth"]
        )
    edition = load_edition(data["edition"])
    deeds = sum(
        edition.spaces[p["position"]].price // (2 if p.get("mortgaged") else 1)
        for p in data["properties"]
    )
    cash = sum(player["cash"] for player in data["players"])
    buildings = sum(p["building_value"] for p in whole.values())
    assert sum(p["net_worth"] for p in whole.values()) == cash + deeds + buildings


@settings(max_examples=200)
@given(valid_sheets(), st.data())
def test_a_valid_sheet_stays_valid_when_cash_changes(data, draw):
    player = draw.draw(st.sampled_from(data["players"]))
    before = by_id(check_sheet(data))[player["id"]]["net_worth"]
    new_cash = draw.draw(st.integers(min_value=0, max_value=100_000))
    delta = new_cash - player["cash"]
    player["cash"] = new_cash
    report = check_sheet(data)
    assert report.valid, report.errors
    assert by_id(report)[player["id"]]["net_worth"] == before + delta


@settings(max_examples=200)
@given(valid_sheets(), st.randoms(use_true_random=False))
def test_reordering_the_input_changes_nothing(data, rnd: random.Random):
    before = check_sheet(data).to_dict()
    shuffled = dict(data)
    shuffled["players"] = rnd.sample(data["players"], len(data["players"]))
    shuffled["properties"] = rnd.sample(data["properties"], len(data["properties"]))
    after = check_sheet(shuffled).to_dict()
    assert after["valid"] == before["valid"]
    assert by_id_dict(after) == by_id_dict(before)
    assert sorted(map(sorted, after["unresolved_ties"])) == sorted(
        map(sorted, before["unresolved_ties"])
    )


def by_id_dict(report_dict):
    return {p["id"]: p for p in report_dict["players"]}
