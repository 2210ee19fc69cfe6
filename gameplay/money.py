"""Amounts of money as people write them: the currency's sign and its digit grouping.

Pure and shared: the engine's English sentences use it with a comma (``Edition.money``),
and the tournament apps hand in the separator and the sign's place of the reader's
language (``tournament/money.py``). Grouping is a tuple of group sizes from the right, the
last one repeating: ``(3,)`` writes 1,500,000; ``(3, 2)`` writes the Indian 15,00,000
(thousands, then lakhs and crores), as the rupee edition prints its money.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

WESTERN = (3,)
INDIAN = (3, 2)


def group_digits(number: int, *, grouping: tuple[int, ...] = WESTERN, separator: str = ",") -> str:
    """``number`` (whole, not negative) with its digits grouped from the right."""
    digits = str(abs(int(number)))
    if not grouping or not separator:
        return digits
    groups: list[str] = []
    sizes = list(grouping)
    while digits:
        size = sizes.pop(0) if len(sizes) > 1 else sizes[0]
        if size <= 0:
            groups.append(digits)
            break
        groups.append(digits[-size:])
        digits = digits[:-size]
    return separator.join(reversed(groups))


def format_money(
    amount: int | Decimal,
    *,
    symbol: str,
    grouping: tuple[int, ...] = WESTERN,
    separator: str = ",",
    pattern: str = "%(symbol)s%(amount)s",
    places: int = 0,
    decimal_separator: str = ".",
) -> str:
    """``amount`` in a currency: ``pattern`` places the sign (``%(amount)s %(symbol)s`` for
    French); ``places`` decimals (real money, such as a charity's takings: 1,234.50); a
    debt keeps its minus in front of the whole."""
    value = Decimal(amount).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    whole, _dot, fraction = f"{abs(value):f}".partition(".")
    digits = group_digits(int(whole), grouping=grouping, separator=separator)
    if places:
        digits += decimal_separator + fraction
    text = pattern % {"symbol": symbol, "amount": digits}
    return f"-{text}" if value < 0 else text
