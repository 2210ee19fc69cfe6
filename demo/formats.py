"""Simulated days of every format: the championship (``demo.simulation``), the club
knockout and the junior tournament, each played through the real services to its winner.

The club kit (Tournament Kit, "THE DAY OF THE TOURNAMENT") is a knockout: the organizer
confirms the bracket planned for the players checked in, round 1 is seated from them, each
later round from the table winners of the one before, and the six who go through play the
final. A junior event (Championship Rules, JUNIOR) is one game with no final. Both reuse the
championship's round: publish, clock, play, score, sign, approve, post.

``format_simulate`` is the one entry point for the ``simulate_event`` command and the demo.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from demo.simulation import (
    ALTERNATES,
    FORMAT,
    SEAT_SECONDS,
    Officials,
    Person,
    SimulatedEvent,
    day_over,
    day_start,
    event_build,
    event_simulate,
    everyone_checks_in,
    final_seat,
    next_start,
    people_generate,
    players_error,
    round_play,
)
from knockout.bracket import HIGHEST_ASSETS, bracket_options
from knockout.services import bracket_confirm, knockout_seat_first_round
from players.services import player_withdraw
from scoring.models import ResultLine
from scoring.services.advancement import advance_to_final
from spectator.models import PAGES
from spectator.services import release_set
from tournament.formats import FORMATS
from tournament.models import Event, Player, Round

CLUB = "club"
JUNIOR = "junior"
# Players born in these years relative to the event's year are 8 to 16 on the day, as a
# junior event asks (Championship Rules, JUNIOR: "ages 8 to 16").
JUNIOR_AGES = (9, 15)

NAMES = {
    FORMAT: gettext_lazy("Simulated Open (%(count)s players, seed %(seed)s)"),
    CLUB: gettext_lazy("Simulated Charity Knockout (%(count)s players, seed %(seed)s)"),
    JUNIOR: gettext_lazy("Simulated Junior Tournament (%(count)s players, seed %(seed)s)"),
}


def simulation_error(*, format: str, players: int, rounds: int | None, final: bool) -> str | None:
    """Why these options cannot make a simulated event, or None."""
    if format not in FORMATS:
        return _("There is no format %(format)s.") % {"format": format}
    if rounds is not None and format != FORMAT:
        return _("Only a championship takes --rounds: a knockout's rounds follow its bracket.")
    if not final and format == JUNIOR:
        return _("A junior event is one game: it has no final to leave out.")
    return players_error(players=players, format=format)


def _bracket_rounds(players: int) -> tuple[str, int]:
    """The method the simulated organizer confirms (the kit's own plan where it fits) and
    its number of preliminary rounds, known before the event exists to lay out its day."""
    fmt = FORMATS[CLUB]
    plan = bracket_options(
        players=players,
        table_min=fmt.table_size_min,
        table_max=fmt.table_size_max,
        round_minutes=fmt.round_minutes,
    ).recommended
    if plan is None:
        raise ValueError(f"no knockout bracket fits {players} players")
    return plan.method, len(plan.rounds)


@transaction.atomic
def club_play(
    *,
    event: Event,
    seed: int,
    start: datetime.datetime,
    officials: Officials,
    method: str,
    final: bool = True,
) -> Round | None:
    """Everyone checks in, the bracket is confirmed, then round after round to the final.

    Ties at a table are ordered by the head judge (``simulation.table_settle``), so every
    table has one winner; a tie at the cut of the highest-assets method is ordered as the
    championship's is (``simulation.final_seat``).
    """
    everyone_checks_in(event=event, start=start)
    bracket_confirm(event=event, method=method, by=officials.organizer)
    round_ = knockout_seat_first_round(event=event, seed=seed, time_limit=SEAT_SECONDS)
    moment = round_play(round_=round_, seed=seed, start=start, officials=officials)
    if round_.number < event.preliminary_rounds:
        _winner_goes_home(round_=round_, officials=officials)
    while round_.number < event.preliminary_rounds:
        round_ = advance_to_final(event=event, by=officials.organizer, seed=seed)
        moment = round_play(round_=round_, seed=seed, start=next_start(moment), officials=officials)
    day_over(moment)
    if not final:
        return None
    if method == HIGHEST_ASSETS:
        stage = final_seat(event=event, seed=seed, officials=officials)
    else:
        stage = advance_to_final(event=event, by=officials.organizer, seed=seed)
    day_over(round_play(round_=stage, seed=seed, start=next_start(moment), officials=officials))
    return stage


def _winner_goes_home(*, round_: Round, officials: Officials) -> None:
    """Round 1's table 1 winner leaves before round 2, as a real day has someone do: the
    bracket keeps its shape, their table's next player by assets going on instead."""
    line = ResultLine.objects.filter(table__round=round_, table__number=1, place=1).first()
    if line is not None:
        player_withdraw(
            player=line.player, reason="Went home after round 1.", by=officials.organizer
        )


def knockout_story(*, event: Event) -> list[str]:
    """The knockout's rounds in English for the command line: each round's tables, and who
    went on in the place of a table winner who left."""
    lines = []
    low, high = event.table_size_min, event.table_size_max
    for round_ in event.rounds.filter(tables__isnull=False).distinct().order_by("number"):
        sizes = [table.seats.count() for table in round_.tables.all()]
        counts = ", ".join(
            f"{sizes.count(size)} of {size}" for size in sorted(set(sizes), reverse=True)
        )
        if round_.kind == Round.Kind.FINAL:
            lines.append(f"Final table: {sum(sizes)} players.")
        else:
            lines.append(
                f"Round {round_.number}: {sum(sizes)} players at {len(sizes)} tables ({counts}); "
                f"the event's tables are {low} to {high}."
            )
        later = event.rounds.filter(number__gt=round_.number).order_by("number").first()
        if later is None:
            continue
        for won in ResultLine.objects.filter(
            table__round=round_, place=1, player__status=Player.Status.WITHDRAWN
        ).select_related("player", "table"):
            stand_in = (
                ResultLine.objects.filter(table=won.table, player__seats__round=later)
                .exclude(pk=won.pk)
                .select_related("player")
                .first()
            )
            if stand_in is not None:
                lines.append(
                    f"  Table {won.table.number} winner {won.player.alias} withdrew; "
                    f"{stand_in.player.alias} (next by assets, place {stand_in.place}) went on."
                )
    return lines


@transaction.atomic
def junior_play(*, event: Event, seed: int, start: datetime.datetime, officials: Officials) -> None:
    """Everyone checks in; the one pre-seated round is played and posted. There is no final
    (Championship Rules, JUNIOR: the highest net worth wins)."""
    everyone_checks_in(event=event, start=start)
    for round_ in event.rounds.filter(kind=Round.Kind.PRELIMINARY).order_by("number"):
        day_over(round_play(round_=round_, seed=seed, start=start, officials=officials))


def _people(format: str, players: int, seed: int) -> list[Person]:
    if format != JUNIOR:
        return people_generate(count=players + ALTERNATES, seed=seed)
    year = timezone.localdate().year
    born = (year - JUNIOR_AGES[1], year - JUNIOR_AGES[0])
    return people_generate(count=players + ALTERNATES, seed=seed, born=born)


def format_simulate(
    *,
    format: str,
    players: int,
    seed: int = 0,
    rounds: int | None = None,
    final: bool = True,
    officials: Officials | None = None,
    people: Sequence[Person] | None = None,
    name: str | None = None,
    release: bool = True,
) -> SimulatedEvent:
    """A whole event of ``format`` played to its winner, its public pages released.

    Raises ``ValueError`` with a reader's message for options that cannot make an event.
    """
    error = simulation_error(format=format, players=players, rounds=rounds, final=final)
    if error:
        raise ValueError(error)
    officials = officials or Officials()
    name = name or str(NAMES[format]) % {"count": players, "seed": seed}
    people = people if people is not None else _people(format, players, seed)
    if format == FORMAT:
        simulated = event_simulate(
            players=players,
            seed=seed,
            rounds=rounds,
            final=final,
            play_final=final,
            officials=officials,
            people=people,
            name=name,
        )
    else:
        simulated = _simulate_other(
            format=format,
            players=players,
            seed=seed,
            final=final,
            officials=officials,
            people=people,
            name=name,
        )
    if release:
        # As the demo does: a played day with every public page released.
        release_set(event=simulated.event, pages=dict.fromkeys(PAGES, True), by=officials.organizer)
    return simulated


def _simulate_other(
    *,
    format: str,
    players: int,
    seed: int,
    final: bool,
    officials: Officials,
    people: Sequence[Person],
    name: str,
) -> SimulatedEvent:
    if format == CLUB:
        method, rounds = _bracket_rounds(players)
        played = rounds + (1 if final else 0)
    else:
        method, played = "", FORMATS[format].preliminary_rounds
    start = day_start(rounds=played, round_minutes=FORMATS[format].round_minutes)
    with transaction.atomic():
        event = event_build(
            name=name, people=people, places=players, start=start, seed=seed, format=format
        )
        if format == CLUB:
            stage = club_play(
                event=event,
                seed=seed,
                start=start,
                officials=officials,
                method=method,
                final=final,
            )
        else:
            junior_play(event=event, seed=seed, start=start, officials=officials)
            stage = None
    return SimulatedEvent(event=event, final=stage)


@dataclass(frozen=True)
class Winner:
    player: Player
    net_worth: int


def simulated_winner(*, event: Event) -> Winner | None:
    """First place at the posted final, or at a junior event's one table with the highest
    net worth; None while there is none."""
    final = event.rounds.filter(kind=Round.Kind.FINAL, posting__isnull=False).first()
    lines = ResultLine.objects.select_related("player")
    if final is not None:
        line = lines.filter(table__round=final, place=1).first()
    elif event.format == JUNIOR:
        line = lines.filter(table__round__event=event, place=1).order_by("-net_worth").first()
    else:
        line = None
    return Winner(player=line.player, net_worth=line.net_worth) if line else None
