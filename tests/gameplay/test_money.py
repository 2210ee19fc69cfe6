"""gameplay/money.py: amounts as people write them, worked by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest

from gameplay.money import INDIAN, WESTERN, format_money, group_digits


@pytest.mark.parametrize(
    "number, grouping, separator, written",
    [
        (0, WESTERN, ",", "0"),
        (999, WESTERN, ",", "999"),
        (1000, WESTERN, ",", "1,000"),
        (1500000, WESTERN, ",", "1,500,000"),
        (-1500, WESTERN, ",", "1,500"),  # the sign is format_money's
        (1500000, INDIAN, ",", "15,00,000"),  # thousands, then lakhs
        (123456789, INDIAN, ",", "12,34,56,789"),  # ...and crores
        (1500000, WESTERN, "\u202f", "1\u202f500\u202f000"),
        (1500000, WESTERN, "", "1500000"),  # no separator: no grouping
        (1500000, (), ",", "1500000"),
        (1234567, (0,), ",", "1234567"),  # a group of no size takes the rest
        (1234567, (2, 0), ",", "12345,67"),
    ],
)
def test_digits_are_grouped_from_the_right(number, grouping, separator, written):
    assert group_digits(number, grouping=grouping, separator=separator) == written


def test_the_defaults_write_an_english_amount():
    assert group_digits(2500) == "2,500"
    assert format_money(2500, symbol="$") == "$2,500"


def test_a_debt_keeps_its_minus_in_front_of_the_whole():
    assert format_money(-1500, symbol="$") == "-$1,500"
    assert format_money(0, symbol="$") == "$0"
    assert (
        format_money(-1500, symbol="€", separator=".", pattern="%(amount)s %(symbol)s")
        == "-1.500 €"
    )


def test_decimals_round_half_up_with_the_languages_separator():
    assert format_money(Decimal("1234.5"), symbol="£", places=2) == "£1,234.50"
    assert format_money(Decimal("2.005"), symbol="£", places=2) == "£2.01"
    assert format_money(Decimal("2.5"), symbol="£") == "£3"
    assert format_money(Decimal("-0.4"), symbol="£") == "£0"
    assert (
        format_money(
            Decimal("1234567.891"),
            symbol="₹",
            grouping=INDIAN,
            places=2,
            decimal_separator=".",
        )
        == "₹12,34,567.89"
    )
    assert (
        format_money(
            Decimal("1234.5"),
            symbol="€",
            separator="\u202f",
            pattern="%(amount)s %(symbol)s",
            places=2,
            decimal_separator=",",
        )
        == "1\u202f234,50 €"
    )


def test_a_group_of_one_digit_is_a_group_like_any_other():
    """Grouping sizes are read from the right, the last repeating: (3, 1) writes the last
    three digits together, then every digit on its own."""
    assert group_digits(12345, grouping=(3, 1)) == "1,2,345"
    assert group_digits(1234, grouping=(1,)) == "1,2,3,4"
