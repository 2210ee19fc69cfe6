"""The one set of builders for "an event with N (checked-in) players".

Two ways in, each for a reason:

* ``registered_players`` / ``event_with_players`` go through the services the organizer's
  pages use (``player_register`` on the day, then ``player_check_in``): places, alternates,
  households and check-in behave as on the day. Seating, knockout and resilience tests use
  them.
* ``players_with_aliases`` writes Player rows directly with the aliases a test chooses
  ("Ann", "P07"), for tests that seat people by hand and check numbers by alias.

Names are templates: ``{n}`` is the player's number (from ``start``), and a signature may
also use ``{first_name}``, ``{last_name}`` and ``{alias}``. Each caller keeps its own names,
so no assertion depends on this module's defaults changing.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils import timezone

from players.services import Registration, household_key, player_check_in, player_register
from tournament.models import Event, Player
from tournament.services import event_create

BORN = datetime.date(1990, 1, 1)


def an_event(
    *,
    name: str = "Builder Cup",
    fmt: str = "championship",
    organization: str = "Club",
    venue: str = "Hall",
    date: datetime.date = datetime.date(2031, 3, 1),
    start_time: datetime.time = datetime.time(10, 0),
    **fields: Any,
) -> Event:
    """An event made through ``event_create``: ``fmt`` is the format's key, ``fields`` any
    other event field (``expected_players``, ``table_size_max``, ``alternates``, ...)."""
    return event_create(
        name=name,
        format=fmt,
        organization=organization,
        venue=venue,
        date=date,
        start_time=start_time,
        **fields,
    )


def registered_players(
    event: Event,
    *,
    count: int,
    start: int = 0,
    checked_in: bool = True,
    first_name: str = "P{n}",
    last_name: str = "X",
    signature: str = "x",
    families: Mapping[int, str] | None = None,
) -> list[Player]:
    """``count`` people registered on the day through ``player_register`` (numbered from
    ``start``), each then checked in unless ``checked_in`` is False. ``families`` maps a
    number to a household; people past the event's places become its alternates."""
    people = []
    for n in range(start, start + count):
        first, last = first_name.format(n=n), last_name.format(n=n)
        player = player_register(
            event=event,
            registration=Registration(
                first_name=first,
                last_name=last,
                date_of_birth=BORN,
                signature=signature.format(n=n, first_name=first, last_name=last),
                eligibility_declared=True,
                citizenship_declared=True,
                family=(families or {}).get(n, ""),
            ),
            source=Player.Source.ON_THE_DAY,
        )
        if checked_in:
            player_check_in(player=player)
        people.append(player)
    return people


def event_with_players(
    *,
    players: int,
    extra_players: int = 0,
    checked_in: bool = True,
    first_name: str = "P{n}",
    last_name: str = "X",
    signature: str = "x",
    families: Mapping[int, str] | None = None,
    **event_fields: Any,
) -> Event:
    """An event expecting ``players`` people, with ``players + extra_players`` registered
    (numbered from 0) and checked in unless ``checked_in`` is False. ``event_fields`` go to
    ``an_event`` (``name``, ``fmt``, ``alternates``, ``table_size_max``, ...)."""
    event = an_event(expected_players=players, **event_fields)
    registered_players(
        event,
        count=players + extra_players,
        checked_in=checked_in,
        first_name=first_name,
        last_name=last_name,
        signature=signature,
        families=families,
    )
    return event


def players_with_aliases(
    event: Event,
    *,
    aliases: Sequence[str],
    start: int = 1,
    checked_in: bool = False,
    first_name: str = "{alias}",
    last_name: str = "Player",
    signature: str = "Signed",
    households: Mapping[int, str] | None = None,
    families: Mapping[int, str] | None = None,
) -> dict[str, Player]:
    """Player rows written directly, one per alias, in order, signed now; the ``n`` of the
    name templates counts from ``start``. ``households`` maps a number to a household key
    (the family left blank); ``families`` maps a number to a family as the person typed it
    ("The Lees ", spelled as they like), its household key folded as registration folds it."""
    made = {}
    for n, alias in enumerate(aliases, start=start):
        now = timezone.now()
        first = first_name.format(n=n, alias=alias)
        last = last_name.format(n=n, alias=alias)
        family = (families or {}).get(n, "")
        household = household_key(family) if family else (households or {}).get(n, "")
        made[alias] = Player.objects.create(
            event=event,
            first_name=first,
            last_name=last,
            date_of_birth=BORN,
            signature=signature.format(n=n, alias=alias, first_name=first, last_name=last),
            signed_at=now,
            alias=alias,
            checked_in_at=now if checked_in else None,
            family=family,
            household=household,
        )
    return made


@contextlib.contextmanager
def built_once_for_the_module(django_db_blocker) -> Iterator[None]:
    """Data a module's tests share, built once (a simulated day takes seconds to build).

    For module-scoped fixtures: what is built inside stays for every test of the module,
    each test still rolled back on its own (its ``db`` savepoint), and the whole is rolled
    back when the module is done, as ``tests/project/test_security.py``'s demo does.
    """
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


def user_with(role: str | None, name: str) -> User:
    """An official's account (password ``pw``) in the group of ``role``, or in none."""
    user = User.objects.create_user(name, password="pw")
    if role:
        user.groups.add(Group.objects.get(name=role))
    return user
