"""The one money helper: the edition's currency, the reader's language.

The requirement: "the rupee edition writes ₹1,50,000 (Indian grouping), the UK edition £1,500,
and no page shows a bare number for money."
"""

import pytest
from django.template import Context, Template
from django.utils import translation

from gameplay import load_edition
from gameplay.money import INDIAN, WESTERN, group_digits
from tournament.money import money


@pytest.mark.parametrize(
    ("number", "grouping", "expected"),
    [
        (0, WESTERN, "0"),
        (999, WESTERN, "999"),
        (1500, WESTERN, "1,500"),
        (1500000, WESTERN, "1,500,000"),
        (1500, INDIAN, "1,500"),
        (150000, INDIAN, "1,50,000"),
        (12345678, INDIAN, "1,23,45,678"),
    ],
)
def test_digits_group_the_western_and_the_indian_way(number, grouping, expected):
    assert group_digits(number, grouping=grouping, separator=",") == expected


@pytest.mark.parametrize(
    ("edition", "amount", "expected"),
    [
        ("india-rupee", 150000, "₹1,50,000"),
        ("india-rupee", 1500, "₹1,500"),
        ("classic-uk", 1500, "£1,500"),
        ("classic-us", 1500, "$1,500"),
        ("classic-us", -200, "-$200"),
    ],
)
def test_each_edition_writes_its_own_money_in_english(edition, amount, expected):
    with translation.override("en"):
        assert money(amount, edition=load_edition(edition)) == expected


def test_hindi_groups_the_indian_way_whatever_the_currency():
    with translation.override("hi"):
        assert money(150000, edition=load_edition("india-rupee")) == "₹1,50,000"
        assert money(150000, edition=load_edition("classic-us")) == "$1,50,000"


def test_the_rupee_edition_keeps_lakhs_in_english_too():
    """A rupee amount is written in lakhs by everyone who plays that edition."""
    with translation.override("en-gb"):
        assert money(150000, edition=load_edition("india-rupee")) == "₹1,50,000"
        assert money(150000, edition=load_edition("classic-uk")) == "£150,000"


def test_the_engines_english_sentences_use_the_same_grouping():
    assert load_edition("india-rupee").money(150000) == "₹1,50,000"
    assert load_edition("classic-uk").money(1500) == "£1,500"


def test_the_filter_takes_an_edition_an_event_or_nothing(event):
    template = Template(
        "{% load money %}{{ a|money:edition }}|{{ a|money:event }}|{{ none|money:event }}"
    )
    event.edition = "classic-uk"
    with translation.override("en"):
        text = template.render(
            Context(
                {"a": 1500, "edition": load_edition("india-rupee"), "event": event, "none": None}
            )
        )
    assert text == "₹1,500|£1,500|"


def test_real_money_keeps_its_cents_in_the_readers_way():
    from decimal import Decimal

    uk = load_edition("classic-uk")
    with translation.override("en"):
        assert money(Decimal("1234.5"), edition=uk, places=2) == "£1,234.50"
    with translation.override("fr"):
        assert money(Decimal("1234.5"), edition=uk, places=2) == "1\u00a0234,50\u00a0£"
