from django import template

from tournament.money import money as money_text

register = template.Library()


@register.filter
def money(amount, edition) -> str:
    """The one money helper (tournament/money.py) under the printouts' own tag library."""
    return money_text(amount, edition=edition)


@register.filter
def word(edition, key: str) -> str:
    if key.endswith("s"):
        return edition.word(key[:-1], 2)
    return edition.word(key)
