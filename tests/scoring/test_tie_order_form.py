"""A tie decision gives each tied player exactly one place: a player chosen twice is
named in the refusal (the page greys them out; a browser without the script still posts)."""

from scoring.results_forms import OrderForm

PLAYERS = [("1", "Boot"), ("2", "Car"), ("3", "Hat")]


def form(**places: str) -> OrderForm:
    data = {"reason": "Drew lots", **places}
    return OrderForm(data, players=PLAYERS, allow_share=False)


def test_one_place_each_is_the_order_best_first():
    decided = form(place_1="2", place_2="1", place_3="3")
    assert decided.is_valid() and decided.cleaned_data["order"] == ["2", "1", "3"]


def test_a_player_in_two_places_is_refused_by_name():
    twice = form(place_1="2", place_2="2", place_3="3")
    assert not twice.is_valid()
    (message,) = twice.non_field_errors()
    assert message.startswith("Car cannot have two places")


def test_a_place_left_empty_is_refused():
    missing = form(place_1="2", place_2="1")
    assert not missing.is_valid()
    assert "exactly one place" in missing.non_field_errors()[0]
