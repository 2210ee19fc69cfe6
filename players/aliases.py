"""Public aliases: the only name spectators, leaderboards and printed results ever show.

Aliases are themed on the game's tokens ("Lucky Thimble", "Golden Top Hat"): readable aloud
by a judge across a hall, and free of anything that identifies the player.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection

from django.utils.translation import gettext_noop

TOKENS = [
    gettext_noop("Top Hat"),
    gettext_noop("Racing Car"),
    gettext_noop("Thimble"),
    gettext_noop("Boot"),
    gettext_noop("Battleship"),
    gettext_noop("Scottie Dog"),
    gettext_noop("Wheelbarrow"),
    gettext_noop("Iron"),
    gettext_noop("Cat"),
    gettext_noop("Horse and Rider"),
    gettext_noop("Cannon"),
    gettext_noop("Money Bag"),
    gettext_noop("Penguin"),
    gettext_noop("Rubber Duck"),
    gettext_noop("T-Rex"),
]
ADJECTIVES = [
    "Lucky",
    "Golden",
    "Silver",
    "Swift",
    "Bold",
    "Clever",
    "Daring",
    "Jolly",
    "Mighty",
    "Quiet",
    "Royal",
    "Shrewd",
    "Steady",
    "Sunny",
    "Thrifty",
    "Wise",
]


def all_aliases() -> list[str]:
    return [f"{adjective} {token}" for adjective in ADJECTIVES for token in TOKENS]


def next_alias(*, taken: Collection[str], seed: str, folded: bool = False) -> str:
    """The first free alias in an order fixed by ``seed``.

    The order is a hash of the seed, so two events do not hand out aliases in the same
    sequence, yet re-running an import gives each player the same alias. Past the 240
    themed names a number keeps every alias unique.
    """
    # ``folded``: ``taken`` is already a set of casefolded aliases (a bulk registration's).
    taken_folded = taken if folded else {alias.casefold() for alias in taken}
    names = all_aliases()
    start = int(hashlib.sha256(seed.encode()).hexdigest(), 16) % len(names)
    ordered = names[start:] + names[:start]
    for suffix in ("", *(f" {n}" for n in range(2, 10_000))):
        for name in ordered:
            if (name + suffix).casefold() not in taken_folded:
                return name + suffix
    raise RuntimeError("no alias left")  # 2.4 million players: not a real event
