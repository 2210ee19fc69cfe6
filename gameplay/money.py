"""Amounts of money as people write them: the currency's sign and its digit grouping.

Pure and shared: the engine's English sentences use it with a comma (``Edition.money``),
and the tournament apps hand in the separator and the sign's place of the reader's
language (``tournament/money.py``). Grouping is a tuple of group sizes from the right, the
last one repeating: ``(3,)`` writes 1,500,000; ``(3, 2)`` writes the Indian 15,00,000
(thousands, then lakhs and crores), as the rupee edition prints its money.
"""

from __future__ import annotations

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
    amount: int,
    *,
    symbol: str,
    grouping: tuple[int, ...] = WESTERN,
    separator: str = ",",
    pattern: str = "%(symbol)s%(amount)s",
) -> str:
    """``amount`` in a currency: ``pattern`` places the sign (``%(amount)s %(symbol)s`` for
    French); a debt keeps its minus in front of the whole."""
    text = pattern % {
        "symbol": symbol,
        "amount": group_digits(amount, grouping=grouping, separator=separator),
    }
    return f"-{text}" if amount < 0 else text
