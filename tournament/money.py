"""Money on every page and form: the one helper (``money``, and the ``money`` filter).

The edition gives the currency's sign (``$``, ``£``, ``₹``) and, where its market has one,
its digit grouping (the rupee edition's lakhs: ``₹1,50,000``); the reader's language gives
the thousands separator (a comma in English, a space in French), the grouping when the
edition has none (Hindi groups the Indian way), and where the sign stands (a translation of
``%(symbol)s%(amount)s``: French writes ``1 500 £``). The pure formatting is
``gameplay.money``; this module only reads the active language.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import get_format
from django.utils.translation import pgettext

from gameplay.edition import Edition, EditionError, load_edition
from gameplay.money import WESTERN, format_money
from tournament.formats import edition_in_language


def _locale_grouping() -> tuple[int, ...]:
    grouping = get_format("NUMBER_GROUPING")
    if isinstance(grouping, int):
        return (grouping,) if grouping > 0 else WESTERN
    sizes = tuple(size for size in grouping if size > 0)
    return sizes or WESTERN


def edition_of(source: object) -> Edition | None:
    """The edition behind what a template holds: an edition, an event (model or public
    dataclass, by its ``edition`` slug) or a slug; None when it does not load."""
    if isinstance(source, Edition) or source is None:
        return source
    slug = source if isinstance(source, str) else getattr(source, "edition", None)
    if not isinstance(slug, str) or not slug:
        return None
    try:
        return edition_in_language(load_edition(slug))
    except EditionError:
        return None


def money(amount: int | Decimal | None, *, edition: Edition, places: int = 0) -> str:
    """``amount`` of the edition's currency in the active language; "" for no amount.
    ``places`` decimals for real money (a charity's takings); game money is whole."""
    if amount is None or amount == "":
        return ""
    # Translators: where the currency sign stands beside an amount; keep both placeholders
    # ("%(amount)s %(symbol)s" writes 1 500 £).
    pattern = pgettext("money", "%(symbol)s%(amount)s")
    return format_money(
        Decimal(amount) if places else int(amount),
        symbol=edition.currency_symbol,
        grouping=edition.digit_grouping or _locale_grouping(),
        separator=get_format("THOUSAND_SEPARATOR") or ",",
        pattern=pattern,
        places=places,
        decimal_separator=get_format("DECIMAL_SEPARATOR") or ".",
    )


def money_spec(*, edition: Edition) -> dict[str, object]:
    """How ``money`` writes an amount of ``edition`` in the active language, for a script
    that writes amounts itself (the banker's totals bar, static/js/sheet.js): the same sign,
    grouping (sizes from the right, the last repeating), separator and pattern."""
    return {
        "symbol": edition.currency_symbol,
        "grouping": list(edition.digit_grouping or _locale_grouping()),
        "separator": get_format("THOUSAND_SEPARATOR") or ",",
        "pattern": pgettext("money", "%(symbol)s%(amount)s"),
    }
