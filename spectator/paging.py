"""A page at a time of the public site's long lists, and finding an alias in them.

A 2,000-player event has 2,000 standings rows and 500 tables a round: a phone gets the top
of the standings, or a page of tables, and one tap (a plain link, no script) to any other
page. Pure functions of the list: the views cache the list itself per public version.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from spectator.selectors import PublicRoundTables, PublicTable, PublicTableResult

# Standings rows on one page: the top 100 is what a spectator opens the page for.
STANDINGS_PAGE = 100
# Tables on one page of a round's tables or results.
TABLES_PAGE = 50


# Each listed thing's label (a place, a table number) and aliases, in the list's order.
Items = list[tuple[int, tuple[str, ...]]]


@dataclass(frozen=True)
class PageLink:
    number: int
    first: int  # the label of its first item (a place, a table number)
    last: int


@dataclass(frozen=True)
class Pager:
    number: int  # this page, from 1
    start: int  # index of its first item in the whole list
    stop: int
    total: int  # items in the whole list
    links: tuple[PageLink, ...]  # every page, this one included

    @property
    def count(self) -> int:
        return len(self.links)

    @property
    def several(self) -> bool:
        """Whether there is more than one page (else no pager is shown at all)."""
        return len(self.links) > 1

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < len(self.links) else None

    @property
    def current(self) -> PageLink | None:
        return self.links[self.number - 1] if self.links else None


def page_number(typed: str | None) -> int:
    """The page asked for in the address; anything but a whole number is page 1."""
    try:
        return max(int(typed or 1), 1)
    except ValueError:
        return 1


def paginate(*, labels: Sequence[int], size: int, number: int) -> Pager:
    """The ``number``th page of ``size`` items (past the last: the last) of a list whose
    items are labelled ``labels`` (places, table numbers) in the links."""
    total = len(labels)
    links = tuple(
        PageLink(
            number=index // size + 1,
            first=labels[index],
            last=labels[min(index + size, total) - 1],
        )
        for index in range(0, total, size)
    )
    number = min(number, len(links)) or 1
    start = (number - 1) * size
    return Pager(
        number=number,
        start=start,
        stop=min(start + size, total),
        total=total,
        links=links,
    )


def find(*, groups: Sequence[Sequence[str]], typed: str) -> int | None:
    """The index of the first group (a standings row's alias, a table's aliases) holding
    the alias typed, regardless of case; failing that, the first holding an alias that
    contains it; None if none does."""
    wanted = typed.strip().casefold()
    if not wanted:
        return None
    for matches in (
        lambda alias: alias.casefold() == wanted,
        lambda alias: wanted in alias.casefold(),
    ):
        for index, aliases in enumerate(groups):
            if any(matches(alias) for alias in aliases):
                return index
    return None


# --- A round's tables and results as lists ----------------------------------------------


def _tables(whole: PublicRoundTables | None) -> list[PublicTable]:
    return [table for _wave, tables in whole.waves for table in tables] if whole else []


def tables_items(whole: PublicRoundTables | None) -> Items:
    return [(table.number, table.aliases) for table in _tables(whole)]


def tables_part(whole: PublicRoundTables | None, pager: Pager) -> PublicRoundTables | None:
    """The tables on this page, under their waves' headings."""
    if whole is None:
        return None
    shown = {table.number for table in _tables(whole)[pager.start : pager.stop]}
    return replace(
        whole,
        waves=tuple(
            (wave, kept)
            for wave, tables in whole.waves
            if (kept := tuple(table for table in tables if table.number in shown))
        ),
    )


def results_items(whole: tuple[PublicTableResult, ...] | None) -> Items:
    return [(table.number, tuple(line.alias for line in table.lines)) for table in whole or ()]
