"""Whole simulated tournament days, played through the same services as a real hall.

Why this exists: a newcomer's first look at Boardwalk (``make run``) should show every
screen with something on it, and a developer needs events of any size to try a page or a
printout on. Rather than writing rows by hand, this module runs a day the way officials
do: registration, check-in, pre-seating, publishing, the head judge's clock for every
wave, the end of every table's game, the banker's sheet (draft, submission, signatures),
the judge's approval, the head judge's tie decisions and postings, then the final. Each
score sheet is an end state of :func:`gameplay.simulate.simulate_game`, so the rules
engine checks it like any banker's. A change that breaks any step of that pipeline breaks
the demo too, which makes it a smoke test of the whole application.

It lives in the ``demo`` app because it orchestrates scoring's services on top of
tournament's: only an app above both may (docs/architecture.md).

Only ``random.Random`` seeded from ``seed`` supplies chance: the seating engine is run with
its work bound (not its clock) deciding, and every table's game has its own seed, so the
same arguments give the same tables, games, standings and final. Timestamps are the
exception: the day is laid out so that it ends just before it is simulated, because the
services that record a table as scored read the real clock.
"""

from __future__ import annotations

import datetime
import functools
import itertools
import random
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clock.services import (
    clock_end,
    clock_start,
    table_mark_finished,
    table_mark_last_turn,
)
from gameplay import load_edition
from gameplay.simulate import SimulatedGame, simulate_game
from players.bulk_services import players_register_bulk
from players.services import Registration, player_check_in
from scoring.models import TableSheet
from scoring.selectors import standings
from scoring.services.advancement import advance_to_final
from scoring.services.posting import round_post
from scoring.services.sheets import sheet_approve, sheet_save_draft, sheet_submit
from scoring.services.signatures import sheet_sign
from scoring.services.ties import standings_tie_decide, tie_decide
from seating.engine import table_pattern
from seating.services import (
    preseat_event,
    round_publish,
    table_assign_banker,
)
from tournament.formats import FORMATS, event_has_last_turn, event_is_knockout
from tournament.models import Event, Player, Round, Table, Wave, age_on
from tournament.play_order import table_roll_play_order
from tournament.services import event_create

FORMAT = "championship"
ALTERNATES = 3
# The largest simulated event: a hall of 5,000 (the big-event tests play 2,000). The name pools give
# 900 people with one last name, then double-barrelled ones ("Marsh-Patel") for the rest.
MAX_PLAYERS = 5000
MAX_ROUNDS = 10
# A generous clock cap for the seating engine: its work bound ends the search, so a
# simulated seating depends on the seed alone.
SEAT_SECONDS = 120.0
# After time is called, the last turn takes up to this long at a table.
LAST_TURN_MINUTES = 10
# Between the end of one wave's clock and the start of the next: sheets, a break.
BREAK_MINUTES = 30
# A game's length in player turns is drawn per table: short ones end by time, long ones
# often with bankruptcies, some with a single player left before time is called.
TURNS = (150, 330)

# Invented names, used only for generated people (the demo has its own list).
FIRST_NAMES = (
    "Ada", "Ben", "Cleo", "Dev", "Esha", "Femi", "Greta", "Hugo", "Ines", "Jonas",
    "Kofi", "Lena", "Mateo", "Nora", "Omar", "Priya", "Quentin", "Rosa", "Sami", "Tariq",
    "Uma", "Victor", "Wen", "Xavier", "Yara", "Zeno", "Alba", "Bruno", "Carys", "Dario",
)  # fmt: skip
LAST_NAMES = (
    "Marsh", "Patel", "Adeyemi", "Lind", "Moreau", "Costa", "Silva", "Mensah", "Vogel",
    "Ruiz", "Quinn", "Haddad", "Nair", "Blake", "Ferri", "Koskinen", "Aziz", "Bose", "Hale",
    "Zhao", "Dumont", "Papas", "Reyes", "Okafor", "Brandt", "Lucero", "Tamm", "Varga",
    "Ilves", "Sato",
)  # fmt: skip


@dataclass(frozen=True)
class Person:
    """Someone to register: names, the family / household as typed, year of birth."""

    first_name: str
    last_name: str
    family: str = ""
    year_of_birth: int = 1990
    # (month, day) of the birthday; the date an age turns over matters only near a limit.
    birthday: tuple[int, int] = (3, 14)


@dataclass(frozen=True)
class Officials:
    """Who the recorded actions are by; any of them may be None (recorded as nobody)."""

    organizer: User | None = None
    head_judge: User | None = None
    judge: User | None = None
    banker: User | None = None


def players_error(*, players: int, format: str = FORMAT) -> str | None:
    """Why ``players`` cannot make a simulated event of ``format``, or None if they can.

    The format's minimum (Championship Rules: championship 8) and its table sizes decide: a count
    the seating engine could only seat by breaking the table-size rule (11 at tables of 4-5)
    is refused rather than simulated with a short table.
    """
    fmt = FORMATS[format]
    if players < fmt.minimum_players:
        return _("A %(format)s needs at least %(minimum)s players, not %(count)s.") % {
            "format": fmt.name,
            "minimum": fmt.minimum_players,
            "count": players,
        }
    if players > MAX_PLAYERS:
        return _("Simulated events have at most %(maximum)s players, not %(count)s.") % {
            "maximum": MAX_PLAYERS,
            "count": players,
        }
    # A knockout seats any field at its bracket's tables (knockout/bracket.py).
    if not fmt.knockout and table_pattern(players, fmt.table_size_min, fmt.table_size_max).fallback:
        return _("%(count)s players cannot be seated at tables of %(low)s to %(high)s.") % {
            "count": players,
            "low": fmt.table_size_min,
            "high": fmt.table_size_max,
        }
    return None


def rounds_error(*, rounds: int | None) -> str | None:
    """Why ``rounds`` preliminary rounds cannot be simulated (None: the format's default)."""
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        return _("Simulated events have 1 to %(maximum)s preliminary rounds, not %(count)s.") % {
            "maximum": MAX_ROUNDS,
            "count": rounds,
        }
    return None


def people_generate(*, count: int, seed: int, born: tuple[int, int] = (1950, 2004)) -> list[Person]:
    """``count`` invented people, about one in ten in a household of two, from ``seed``.

    Every 20th person brings a relative with the same last name and family, so seating has
    households to keep apart at any size; names never repeat (registration refuses twins).
    Years of birth lie in ``born`` (a junior event needs children).
    """
    rng = random.Random(f"people/{seed}")
    names = _names(count=count, rng=rng)
    used: set[tuple[str, str]] = set()
    people: list[Person] = []
    while len(people) < count:
        # One pass over the shuffled names: relatives may have taken some ahead.
        first, last = next(names)
        if (first, last) in used:
            continue
        used.add((first, last))
        year = rng.randint(*born)
        if len(people) % 20 == 18 and count - len(people) >= 2:
            relative = next((f for f in FIRST_NAMES if (f, last) not in used), None)
            if relative is None:  # every first name taken with this last name
                people.append(Person(first, last, "", year))
                continue
            used.add((relative, last))
            family = f"{last} family"
            people.append(Person(first, last, family, year))
            sibling = min(max(year + rng.randint(-3, 3), born[0]), born[1])
            people.append(Person(relative, last, family, sibling))
        else:
            people.append(Person(first, last, "", year))
    return people


def _names(*, count: int, rng: random.Random) -> Iterator[tuple[str, str]]:
    """Shuffled (first, last) names: the 900 plain ones, then, only when a big event has
    used them up, double-barrelled last names (so small events keep their names)."""
    plain = list(itertools.product(FIRST_NAMES, LAST_NAMES))
    rng.shuffle(plain)
    yield from plain
    double = [
        (first, f"{a}-{b}")
        for first in FIRST_NAMES
        for a in LAST_NAMES
        for b in LAST_NAMES
        if a != b
    ]
    random.Random(f"double/{count}").shuffle(double)
    yield from double


def day_start(
    *, rounds: int, round_minutes: int, now: datetime.datetime | None = None
) -> datetime.datetime:
    """When a day of ``rounds`` single-wave rounds must start to be over by ``now``.

    Rounded down to the quarter hour, like a real schedule; the final is next.
    """
    now = timezone.localtime(now or timezone.now())
    slot = round_minutes + LAST_TURN_MINUTES + BREAK_MINUTES
    start = now - datetime.timedelta(minutes=rounds * slot + 15)
    return start.replace(minute=start.minute - start.minute % 15, second=0, microsecond=0)


def _registration(*, person: Person, event: Event) -> Registration:
    born = datetime.date(person.year_of_birth, *person.birthday)
    under_age = age_on(born=born, day=event.date) < event.guardian_consent_under
    return Registration(
        first_name=person.first_name,
        last_name=person.last_name,
        email=f"{person.first_name}.{person.last_name}@example.org".lower(),
        date_of_birth=born,
        signature=f"{person.first_name} {person.last_name}",
        family=person.family,
        eligibility_declared=True,
        citizenship_declared=True,
        publicity_consent=True,
        guardian_name="A. Guardian" if under_age else "",
        # A junior's guardian is copied on the player's emails.
        guardian_email=f"guardian.{person.last_name}@example.org".lower() if under_age else "",
        guardian_consent=under_age,
        city="Atlantic City",
    )


@transaction.atomic
def event_build(
    *,
    name: str,
    people: Sequence[Person],
    places: int,
    start: datetime.datetime,
    seed: int,
    rounds: int | None = None,
    format: str = FORMAT,
    **event_fields: Any,
) -> Event:
    """An event of ``format`` with ``places`` seats, ``people`` registered in order.

    Those beyond ``places`` become the ordered alternates. Every preliminary round of a
    championship or junior event is pre-seated from the registrations (households apart),
    as before the day; a knockout is seated on the day, round by round (``demo.knockout``).
    """
    local = timezone.localtime(start)
    fields = {
        "organization": "Boardwalk Club",
        "venue": "Community Hall",
        "address": "1 Boardwalk, Atlantic City",
        "contact_name": "Tournament Director",
        "contact_email": "director@example.org",
        "charity": "Children's Hospital",
        "edition": "classic-us",
        **event_fields,
    }
    if rounds is not None:
        fields["preliminary_rounds"] = rounds
    event = event_create(
        name=name,
        format=format,
        date=local.date(),
        start_time=local.time().replace(second=0, microsecond=0),
        expected_players=places,
        **fields,
    )
    # One bulk registration (the same rules as one by one, in a few queries at any size).
    players_register_bulk(
        event=event,
        registrations=[_registration(person=person, event=event) for person in people],
        source=Player.Source.IMPORT,
        now=start - datetime.timedelta(days=10),
    )
    if not event_is_knockout(event=event):
        # A generous clock cap: the engine's work bound ends the search, so the seating
        # depends on the seed alone.
        preseat_event(event=event, only_checked_in=False, seed=seed, time_limit=SEAT_SECONDS)
    return event


def _game_seed(*, seed: int, round_number: int, table_number: int) -> int:
    return random.Random(f"game/{seed}/{round_number}/{table_number}").randrange(2**32)


def table_game(*, table: Table, seed: int) -> tuple[SimulatedGame, random.Random]:
    """The game played at ``table``: a function of the event's seed and the table's place.

    Returned with the table's own random stream (after the game's length was drawn), for
    the other choices made at that table, so playing and scoring agree without storing
    anything between them.
    """
    game_seed = _game_seed(seed=seed, round_number=table.round.number, table_number=table.number)
    rng = random.Random(game_seed)
    max_turns = rng.randint(*TURNS)
    game = _simulated(table.round.event.edition, table.seats.count(), game_seed, max_turns)
    return game, rng


@functools.lru_cache(maxsize=256)
def _simulated(edition: str, players: int, seed: int, max_turns: int) -> SimulatedGame:
    """A pure function, remembered: the play and the scoring of a table ask for one game."""
    return simulate_game(
        edition=load_edition(edition), players=players, seed=seed, max_turns=max_turns
    )


def _sheet_for(game: SimulatedGame, ids: dict[str, str]) -> dict:
    """The simulator's sheet with its "P1".. ids replaced by the seated players' pks."""
    sheet = game.sheet
    return {
        "edition": sheet["edition"],
        "players": [{**p, "id": ids[p["id"]]} for p in sheet["players"]],
        "properties": [{**d, "owner": ids[d["owner"]]} for d in sheet["properties"]],
    }


@transaction.atomic
def wave_play(
    *, wave: Wave, seed: int, start: datetime.datetime, officials: Officials
) -> datetime.datetime:
    """The head judge's clock for ``wave`` from ``start``, every table's game and its end.

    A table with one player left finishes before time; the others get the last turn when
    time is called (Championship Rules, TIMING) and finish a few minutes later, or, where the event
    has no last turn, stop as "any player who has thrown the dice completes that move and any
    transaction that may result" (Tournament Kit, End of Round). Returns when the clock was ended.
    """
    minutes = wave.round.event.round_minutes
    last_turn = event_has_last_turn(event=wave.round.event)
    clock_start(wave=wave, by=officials.head_judge, now=start)
    time_up = start + datetime.timedelta(minutes=minutes)
    ended = time_up
    for table in wave.tables.select_related("round__event").order_by("number"):
        game, rng = table_game(table=table, seed=seed)
        if len(game.bankrupt_order) == len(game.net_worth) - 1:
            # Over before time: as long as the turns it took, on the scale of the round.
            share = min(game.turns_played / TURNS[1], 0.95)
            done = start + datetime.timedelta(minutes=max(20, int(minutes * share)))
        elif last_turn:
            table_mark_last_turn(table=table, by=officials.banker, now=time_up)
            done = time_up + datetime.timedelta(minutes=rng.randint(3, LAST_TURN_MINUTES - 1))
        else:
            done = time_up + datetime.timedelta(minutes=rng.randint(1, 2))
        table_mark_finished(table=table, by=officials.banker, now=done)
        ended = max(ended, done)
    ended += datetime.timedelta(minutes=1)
    clock_end(wave=wave, by=officials.head_judge, now=ended, reason=_("Every table has finished."))
    return ended


def _ids(*, table: Table) -> dict[str, str]:
    seats = table.seats.order_by("position").values_list("player_id", flat=True)
    return {f"P{i}": str(pk) for i, pk in enumerate(seats, start=1)}


def table_score(*, table: Table, seed: int, officials: Officials) -> TableSheet:
    """The banker enters the table's simulated game; players, then the banker, sign.

    The same calls as the banker's tablet: a saved draft, a submission with its own key,
    then everyone's initials. The game comes from the table's seed (``table_game``), so
    scoring needs nothing kept from the play.
    """
    game, rng = table_game(table=table, seed=seed)
    data = _sheet_for(game, _ids(table=table))
    by = officials.banker
    draft = sheet_save_draft(table=table, data=data, expected_version=0, by=by)
    sheet = sheet_submit(
        table=table,
        data=data,
        expected_version=draft.version,
        submission_key=uuid.UUID(int=rng.getrandbits(128)),
        by=by,
    )
    players = {str(p.pk): p for p in Player.objects.filter(seats__table=table)}
    for entry in data["players"]:
        player = players[entry["id"]]
        sheet_sign(sheet=sheet, player=player, initials=_initials(player), by=by)
    sheet_sign(sheet=sheet, initials="BNK", by=by)
    sheet.refresh_from_db()
    return sheet


def _initials(player: Player) -> str:
    return f"{player.first_name[:1]}{player.last_name[:1]}".upper()


def table_settle(*, sheet: TableSheet, seed: int, officials: Officials) -> TableSheet:
    """A judge approves the signed sheet; the head judge orders any tie the engine left.

    The engine breaks ties by net worth, then unmortgaged property (Championship Rules, TIE
    BREAKERS); what survives both is the head judge's call, here a seeded draw standing in for
    whatever the hall would use.
    """
    sheet = sheet_approve(sheet=sheet, by=officials.judge)
    rng = random.Random(f"tie/{seed}/{sheet.table.round.number}/{sheet.table.number}")
    for tie in sheet.report.get("unresolved_ties", []):
        order = sorted(tie)
        rng.shuffle(order)
        tie_decide(
            table=sheet.table,
            order=order,
            by=officials.head_judge,
            reason=_("Tied on net worth and unmortgaged property; drawn by lot."),
        )
    return sheet


def round_play(
    *, round_: Round, seed: int, start: datetime.datetime, officials: Officials
) -> datetime.datetime:
    """One preliminary round from publishing its tables to posting its scores.

    Waves play one after another; the round is posted once every table of every wave is
    approved (Championship Rules, POSTING SCORES). Returns when its last wave's clock ended.
    """
    round_publish(round_=round_)
    for table in round_.tables.order_by("number"):
        if officials.banker is not None:
            table_assign_banker(table=table, banker=officials.banker)
        table_roll_play_order(
            table=table,
            seed=_game_seed(seed=seed, round_number=-round_.number, table_number=table.number),
        )
    moment = start
    for index, wave in enumerate(round_.waves.order_by("number")):
        if index:
            moment += datetime.timedelta(minutes=BREAK_MINUTES)
        moment = wave_play(wave=wave, seed=seed, start=moment, officials=officials)
    for table in round_.tables.order_by("number"):
        sheet = table_score(table=table, seed=seed, officials=officials)
        table_settle(sheet=sheet, seed=seed, officials=officials)
    round_post(round_=round_, by=officials.head_judge)
    return moment


def final_seat(*, event: Event, seed: int, officials: Officials) -> Round:
    """Seat the final from the posted standings, as the organizer does; it is not played.

    Players level on every standings tie-breaker across the cut would block it; the head
    judge orders them first (a seeded draw), as the standings page asks.
    """
    rows = [
        row
        for row in standings(event=event, only_posted=True)
        if row.registered.status == Player.Status.PLAYER
    ]
    count = event.advancing
    if len(rows) > count and rows[count - 1].rank == rows[count].rank:
        tied = [row.registered.pk for row in rows if row.rank == rows[count - 1].rank]
        random.Random(f"standings/{seed}").shuffle(tied)
        standings_tie_decide(
            event=event,
            order=tied,
            by=officials.head_judge,
            reason=_("Level on every tie-breaker at the cut; drawn by lot."),
        )
    final = advance_to_final(event=event, by=officials.organizer, seed=seed)
    round_publish(round_=final)
    return final


def everyone_checks_in(*, event: Event, start: datetime.datetime) -> None:
    """Players and alternates arrive "45 minutes before your scheduled start time" (Tournament
    Kit)."""
    check_in = start - datetime.timedelta(minutes=45)
    for player in event.players.filter(
        status__in=[Player.Status.PLAYER, Player.Status.ALTERNATE]
    ).order_by("pk"):
        player_check_in(player=player, now=check_in)


def day_over(moment: datetime.datetime) -> None:
    """The services stamp scored tables with the real time: the day must be over by now."""
    if moment > timezone.now():
        raise ValueError(f"the simulated day ends at {moment}, after now; start it earlier")


def next_start(moment: datetime.datetime) -> datetime.datetime:
    return moment + datetime.timedelta(minutes=BREAK_MINUTES)


@transaction.atomic
def event_play(
    *,
    event: Event,
    seed: int,
    start: datetime.datetime,
    officials: Officials,
    final: bool = True,
    play_final: bool = False,
) -> Round | None:
    """Check everyone in, play and post every preliminary round, then seat the final (and
    play and post it too, with ``play_final``).

    ``start`` is the first clock's start; the whole day must be over before now (the
    services stamp scored tables with the real time). Returns the final, if seated.
    """
    everyone_checks_in(event=event, start=start)
    moment = start
    rounds = event.rounds.filter(kind=Round.Kind.PRELIMINARY).order_by("number")
    for index, round_ in enumerate(rounds):
        if index:
            moment = next_start(moment)
        moment = round_play(round_=round_, seed=seed, start=moment, officials=officials)
    day_over(moment)
    final_round = final_seat(event=event, seed=seed, officials=officials) if final else None
    if final_round is not None and play_final:
        moment = round_play(
            round_=final_round, seed=seed, start=next_start(moment), officials=officials
        )
        day_over(moment)
    return final_round


@dataclass(frozen=True)
class SimulatedEvent:
    event: Event
    final: Round | None


def event_simulate(
    *,
    players: int,
    seed: int = 0,
    rounds: int | None = None,
    final: bool = True,
    play_final: bool = False,
    officials: Officials | None = None,
    people: Sequence[Person] | None = None,
    name: str | None = None,
    now: datetime.datetime | None = None,
) -> SimulatedEvent:
    """A whole championship of ``players`` places and three alternates, played to the final
    (seated, or with ``play_final`` played and posted: the day's winner).

    ``people`` defaults to generated ones (``people_generate``); if given, it must hold
    ``players`` + 3 people, the last three becoming the alternates. Raises ``ValueError``
    with a reader's message for a count that cannot make an event.
    """
    error = players_error(players=players) or rounds_error(rounds=rounds)
    if error:
        raise ValueError(error)
    if rounds is None:
        rounds = FORMATS[FORMAT].preliminary_rounds
    if people is None:
        people = people_generate(count=players + ALTERNATES, seed=seed)
    if len(people) != players + ALTERNATES:
        raise ValueError(f"{len(people)} people for {players} places and {ALTERNATES} alternates")
    played = rounds + (1 if final and play_final else 0)
    start = day_start(rounds=played, round_minutes=FORMATS[FORMAT].round_minutes, now=now)
    with transaction.atomic():
        event = event_build(
            name=name
            or _("Simulated Open (%(count)s players, seed %(seed)s)")
            % {"count": players, "seed": seed},
            people=people,
            places=players,
            start=start,
            seed=seed,
            rounds=rounds,
        )
        final_round = event_play(
            event=event,
            seed=seed,
            start=start,
            officials=officials or Officials(),
            final=final,
            play_final=play_final,
        )
    return SimulatedEvent(event=event, final=final_round)
