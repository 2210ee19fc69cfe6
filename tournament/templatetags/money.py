"""``{% load money %}{{ amount|money:edition }}``: every amount of money on a page or form."""

from django import template

from tournament.money import edition_of
from tournament.money import money as money_text

register = template.Library()


@register.filter
def money(amount, source) -> str:
    """The amount in the currency of ``source`` (an edition, or an event: its edition) and the
    active language: $1,500, £1,500, ₹1,50,000."""
    edition = edition_of(source)
    if edition is None:
        return "" if amount in (None, "") else str(amount)
    return money_text(amount, edition=edition)
