"""A simulated championship season: regionals qualify players into the Finals.

Championship Rules, REGIONAL CHAMPIONSHIP DETAILS: "There will be 4 Regional Championships ... From
each event the 4 players with the highest Point scores (not net worth) will progress through to
the MONOPOLY Championship Finals"; JUNIOR: "From the 4 regional Junior Championships, 1
junior competitor from each will progress to the MONOPOLY Championship Finals".

``series_simulate`` builds the series and its Finals and juniors' final, then plays each
regional championship (no same-day final: it ends with its qualifiers) and junior regional
a week apart through the real services; posting a regional's last round fixes its
qualifiers (series/apps.py). Two players of the first regional play the second too, so one
of them may qualify twice. The first regional's last qualifier declines, so the place
passes to the next of that regional; everyone else accepts; the regionals' next-best make
three alternates; the organizer confirms the entrants, and both finals are seated and played.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from demo.formats import JUNIOR as JUNIOR_FORMAT
from demo.formats import _people, junior_play
from demo.simulation import (
    FORMAT,
    SEAT_SECONDS,
    Officials,
    day_start,
    event_build,
    event_play,
    people_generate,
    players_error,
)
from scoring.services.ties import standings_tie_decide
from seating.services import preseat_event
from series import invitations
from series import selectors as series_selectors
from series import services as series_services
from series.models import JUNIOR, SENIOR, Entrant, Series
from spectator.models import PAGES
from spectator.services import release_set
from tournament.formats import FORMATS, SENIOR_AGE
from tournament.models import Event
from tournament.services import event_create

# Each junior regional: twelve children at three tables, one game (Championship Rules, JUNIOR).
JUNIOR_REGIONAL_PLACES = 12
MAX_REGIONALS = 8
EVENT_FIELDS: dict[str, Any] = {
    "organization": "Boardwalk Club",
    "venue": "Community Hall",
    "address": "1 Boardwalk, Atlantic City",
    "contact_name": "Tournament Director",
    "contact_email": "director@example.org",
    "edition": "classic-us",
}


def series_error(*, regionals: int, players: int) -> str | None:
    """Why a series of ``regionals`` regionals of ``players`` cannot be simulated, or None."""
    if not 1 <= regionals <= MAX_REGIONALS:
        return _("A simulated series has 1 to %(maximum)s regionals, not %(count)s.") % {
            "maximum": MAX_REGIONALS,
            "count": regionals,
        }
    return players_error(players=players)


@dataclass(frozen=True)
class SimulatedSeries:
    series: Series
    regionals: list[Event]
    junior_regionals: list[Event]
    finals: Event
    junior_finals: Event
    # The qualifier who declined, and who took the place.
    declined: Entrant | None
    passed_to: Entrant | None


def _week(index: int, count: int, rounds: int, now: datetime.datetime) -> datetime.datetime:
    """Regional ``index`` of ``count``: a week apart, the last one a week before the Finals."""
    day = now - datetime.timedelta(days=7 * (count - index))
    return day_start(rounds=rounds, round_minutes=FORMATS[FORMAT].round_minutes, now=day)


def _final_event(name: str, format: str, start: datetime.datetime) -> Event:
    local = timezone.localtime(start)
    return event_create(
        name=name,
        format=format,
        date=local.date(),
        start_time=local.time().replace(second=0, microsecond=0),
        expected_players=16 if format == FORMAT else 4,
        **EVENT_FIELDS,
    )


def _settle_cuts(*, series: Series, division: str, seed: int, officials: Officials) -> int:
    """A tie at a cut goes to the head judge before anyone is invited: drawn by lot here.

    A regional ranks by points, then games won, then the head judge (Championship Rules: "the
    highest Point scores (not net worth)"), so cuts are often level; a place passed on (a declined
    place, someone qualified twice) may meet another, hence the loop. Returns the number
    of ties the head judge decided."""
    decided = 0
    # Each decision fills a cut for good, so a few rounds settle every regional.
    for _attempt in range(100):
        waiting = series_services.qualifiers_fix(
            series=series, division=division, by=officials.organizer
        )
        if not waiting:
            return decided
        for member in waiting:
            tied = series_selectors.open_cut(member=member)
            order = [row.player_id for row in tied]
            random.Random(f"series-cut/{seed}/{member.pk}/{decided}").shuffle(order)
            standings_tie_decide(
                event=member.event,
                order=order,
                by=officials.head_judge,
                reason=_("Level on every tie-breaker at the qualifying cut; drawn by lot."),
            )
            decided += 1
    raise RuntimeError("the qualifying cuts did not settle")


def _regional(
    *,
    series: Series,
    index: int,
    count: int,
    players: int,
    seed: int,
    officials: Officials,
    shared: list,
) -> Event:
    start = _week(index, count, FORMATS[FORMAT].preliminary_rounds, timezone.now())
    people = people_generate(count=players + 3, seed=seed * 100 + index)
    if index == 1 and shared:
        # Two of the first regional's players enter the second too (same name, same email).
        names = {(p.first_name, p.last_name) for p in shared}
        others = [p for p in people if (p.first_name, p.last_name) not in names]
        people = [*shared, *others[: players + 3 - len(shared)]]
    event = event_build(
        name=_("%(series)s Regional %(number)s") % {"series": series.name, "number": index + 1},
        people=people,
        places=players,
        start=start,
        seed=seed + index,
        **EVENT_FIELDS,
    )
    series_services.series_add_event(series=series, event=event)
    event_play(event=event, seed=seed + index, start=start, officials=officials, final=False)
    return event


def _junior_regional(
    *, series: Series, index: int, count: int, seed: int, officials: Officials, places: int
) -> Event:
    start = _week(index, count, 1, timezone.now())
    people = _people(JUNIOR_FORMAT, JUNIOR_REGIONAL_PLACES, seed * 100 + 50 + index)
    if index == 0:
        people = _turning_senior(people=people, day=timezone.localtime(start).date())
    event = event_build(
        name=_("%(series)s Junior Regional %(number)s")
        % {"series": series.name, "number": index + 1},
        people=people,
        places=JUNIOR_REGIONAL_PLACES,
        start=start,
        seed=seed + index,
        format=JUNIOR_FORMAT,
        **EVENT_FIELDS,
    )
    member = series_services.series_add_event(series=series, event=event)
    if places != member.places:
        # The organizer may change the format's number (a short season's juniors' final
        # still needs a table of four).
        series_services.series_event_set_places(member=member, places=places)
    junior_play(event=event, seed=seed + index, start=start, officials=officials)
    return event


def _turning_senior(*, people: list, day: datetime.date) -> list:
    """The first junior regional's field is its oldest: 15 on its ``day`` and 16 the day
    after, so its qualifier is 16 at the Finals and still plays them (Championship Rules: "1 junior
    competitor from each will progress")."""
    birthday = day + datetime.timedelta(days=1)
    try:
        born = birthday.replace(year=birthday.year - SENIOR_AGE)
    except ValueError:  # the 29th of February of a year that has none
        born = datetime.date(birthday.year - SENIOR_AGE, 3, 1)
    return [replace(p, year_of_birth=born.year, birthday=(born.month, born.day)) for p in people]


def _answers(*, series: Series, division: str, seed: int, officials: Officials, decline: bool):
    """The first regional's last qualifier declines (when asked); everyone else accepts,
    including whoever the declined place passes to."""
    declined = passed_to = None
    if decline:
        first = series_selectors.regionals(series=series, division=division).first()
        last = (
            Entrant.objects.filter(source=first, status=Entrant.Status.QUALIFIER)
            .order_by("-rank", "-pk")
            .first()
        )
        if last is not None:
            before = set(Entrant.objects.filter(source=first).values_list("pk", flat=True))
            declined = series_services.entrant_respond(
                entrant=last, accept=False, by=officials.organizer
            )
            # The place passes to the next of the regional, unless they are level with
            # someone: then the head judge orders them first.
            _settle_cuts(series=series, division=division, seed=seed, officials=officials)
            passed_to = Entrant.objects.filter(source=first).exclude(pk__in=before).first()
    while True:
        pending = Entrant.objects.filter(
            series=series,
            division=division,
            status__in=series_selectors.HOLDING,
            response=Entrant.Response.PENDING,
        ).first()
        if pending is None:
            return declined, passed_to
        series_services.entrant_respond(entrant=pending, accept=True, by=officials.organizer)


def _finals(series: Series, division: str) -> Event:
    """The Finals event of ``division``, which the simulated series is made with."""
    finals = series_selectors.series_finals(series=series, division=division)
    if finals is None:
        raise ValueError(f"the simulated series has no {division} Finals event")
    return finals


def _confirm_and_play(*, series: Series, division: str, seed: int, officials: Officials) -> None:
    candidates = series_selectors.alternate_candidates(series=series, division=division)
    series_services.alternates_confirm(
        series=series,
        division=division,
        order=[c.player.pk for c in candidates[:3]],
        by=officials.organizer,
    )
    series_services.entrants_confirm(series=series, division=division, by=officials.organizer)
    finals = _finals(series, division)
    preseat_event(event=finals, only_checked_in=False, seed=seed, time_limit=SEAT_SECONDS)
    start = day_start(
        rounds=finals.preliminary_rounds + (1 if division == SENIOR else 0),
        round_minutes=finals.round_minutes,
    )
    Event.objects.filter(pk=finals.pk).update(
        date=timezone.localtime(start).date(),
        start_time=timezone.localtime(start).time().replace(second=0, microsecond=0),
    )
    finals.refresh_from_db()
    if division == SENIOR:
        event_play(event=finals, seed=seed, start=start, officials=officials, play_final=True)
    else:
        junior_play(event=finals, seed=seed, start=start, officials=officials)
    release_set(event=finals, pages=dict.fromkeys(PAGES, True), by=officials.organizer)


def _play_regionals(
    *,
    series: Series,
    regionals: int,
    players: int,
    seed: int,
    officials: Officials,
    junior_places: int,
) -> tuple[list[Event], list[Event]]:
    """Each week a regional championship and a junior regional, played and posted."""
    shared: list = []
    events, juniors = [], []
    for index in range(regionals):
        event = _regional(
            series=series,
            index=index,
            count=regionals,
            players=players,
            seed=seed,
            officials=officials,
            shared=shared,
        )
        if index == 0:
            shared = list(people_generate(count=players + 3, seed=seed * 100)[:2])
        events.append(event)
        juniors.append(
            _junior_regional(
                series=series,
                index=index,
                count=regionals,
                seed=seed,
                officials=officials,
                places=junior_places,
            )
        )
    return events, juniors


@transaction.atomic
def series_simulate(
    *,
    regionals: int = 4,
    players: int = 40,
    seed: int = 0,
    officials: Officials | None = None,
    name: str | None = None,
    decline: bool = True,
    junior_places: int = 1,
    play_finals: bool = True,
) -> SimulatedSeries:
    """A season of ``regionals`` regional championships of ``players`` places (and as many
    junior regionals of twelve, each sending ``junior_places``) played into its Finals and
    juniors' final, both played.

    Qualifiers answer by a deadline an hour before the Finals; each is invited by email as
    their regional's qualifiers are fixed (when a mail server is set). Without
    ``play_finals`` the season stops there: every qualifier invited, nobody answered yet.

    Raises ``ValueError`` with a reader's message for counts that cannot make one.
    """
    error = series_error(regionals=regionals, players=players)
    if error:
        raise ValueError(error)
    officials = officials or Officials()
    finals_start = timezone.now() + datetime.timedelta(days=1)
    name = name or _("Simulated Championship Series (seed %(seed)s)") % {"seed": seed}
    series = series_services.series_create(
        name=name,
        season=str(timezone.localdate().year),
        finals=_final_event(_("%(series)s Finals") % {"series": name}, FORMAT, finals_start),
        junior_finals=_final_event(
            _("%(series)s Junior Finals") % {"series": name}, JUNIOR_FORMAT, finals_start
        ),
    )
    invitations.deadline_set(
        series=series, answers_due=finals_start - datetime.timedelta(hours=1), reminder_days=3
    )
    events, juniors = _play_regionals(
        series=series,
        regionals=regionals,
        players=players,
        seed=seed,
        officials=officials,
        junior_places=junior_places,
    )
    for event in [*events, *juniors]:
        release_set(event=event, pages=dict.fromkeys(PAGES, True), by=officials.organizer)
    declined = passed_to = None
    for division in (SENIOR, JUNIOR):
        _settle_cuts(series=series, division=division, seed=seed, officials=officials)
        if not play_finals:
            continue
        answer = _answers(
            series=series,
            division=division,
            seed=seed,
            officials=officials,
            decline=decline and division == SENIOR,
        )
        if division == SENIOR:
            declined, passed_to = answer
        _confirm_and_play(series=series, division=division, seed=seed, officials=officials)
    series_services.release_set(
        series=series, pages={"qualifiers": True, "entrants": True, "champion": play_finals}
    )
    series.refresh_from_db()
    return SimulatedSeries(
        series=series,
        regionals=events,
        junior_regionals=juniors,
        finals=_finals(series, SENIOR),
        junior_finals=_finals(series, JUNIOR),
        declined=declined,
        passed_to=passed_to,
    )
