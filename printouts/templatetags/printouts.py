import re

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


# Tournament Kit, Advertising & Promotion: "The first or most prominent use of the word MONOPOLY on
# a document, a page, or digital file must always be followed by a ®".
_FIRST_MONOPOLY = re.compile(r"\bMONOPOLY\b(?!\s*®)")


@register.filter
def registered(text) -> str:
    """``text`` with ® after its first MONOPOLY (unless one follows it already)."""
    return _FIRST_MONOPOLY.sub("MONOPOLY®", str(text), count=1)
