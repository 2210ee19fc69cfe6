"""What the series pages and services read: regionals' state, the cut, the Finals' list.

Standings and their tie-breakers are scoring's (``scoring.selectors.standings``, the
registry ``scoring/tie_breakers.py``); a regional's qualifiers are its first players by
them, and a tie they cannot settle at the cut waits for the head judge's order
(``scoring.services.ties.standings_tie_decide``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.services import Registration, registration_errors
from scoring.selectors import StandingRow, event_winner, standings
from series.models import JUNIOR, SENIOR, Confirmation, Entrant, PersonLink, Series, SeriesEvent
from tournament.formats import event_minimum_players
from tournament.models import Event, Player, Round, Seat

# Entrants who hold a place on the list (a declined one gave theirs up).
HOLDING = (Entrant.Status.QUALIFIER, Entrant.Status.INVITED)


def series_finals(*, series: Series, division: str) -> Event | None:
    return series.junior_finals if division == JUNIOR else series.finals


def finals_event_ids() -> set[int]:
    """Every event that is some series' Finals or junior Finals."""
    pairs = Series.objects.values_list("finals_id", "junior_finals_id")
    return {pk for pair in pairs for pk in pair if pk is not None}


def events_in_series() -> set[int]:
    """Every event some series uses: its Finals, junior Finals or one of its regionals.

    One event belongs to one series at most: another series' event would qualify players
    into, or seat, a Finals that is not its own.
    """
    regional = set(SeriesEvent.objects.values_list("event_id", flat=True))
    return finals_event_ids() | regional


def regionals(*, series: Series, division: str) -> QuerySet[SeriesEvent]:
    """The division's regionals in the order they qualify: by date, then as created."""
    return (
        SeriesEvent.objects.filter(series=series, division=division)
        .select_related("event")
        .order_by("event__date", "event__pk")
    )


def regional_complete(*, member: SeriesEvent) -> bool:
    """Every preliminary round of the regional seated and posted (its last round posted)."""
    rounds = Round.objects.filter(event=member.event, kind=Round.Kind.PRELIMINARY)
    count = rounds.count()
    return (
        count >= member.event.preliminary_rounds
        and not rounds.filter(posting__isnull=True).exists()
    )


def regional_rows(*, member: SeriesEvent) -> list[StandingRow]:
    """The regional's posted standings of players still in it (as the final's cut reads)."""
    return [
        row
        for row in standings(event=member.event, only_posted=True)
        if row.registered.status == Player.Status.PLAYER
    ]


def person_ids(*, players: list[int]) -> dict[int, int]:
    """Player pk → series person pk, for the players that are linked."""
    return dict(
        PersonLink.objects.filter(player_id__in=players).values_list("player_id", "person_id")
    )


@dataclass
class Cut:
    """Where a regional's qualifying cut falls among the players still free to qualify."""

    chosen: list[StandingRow]
    # Players level on every tie-breaker across the cut: the head judge orders them first.
    tied: list[StandingRow] = field(default_factory=list)


def regional_cut(*, member: SeriesEvent, need: int, skip: set[int]) -> Cut:
    """The next ``need`` qualifiers of the regional, passing over persons in ``skip``."""
    rows = regional_rows(member=member)
    persons = person_ids(players=[row.player_id for row in rows])
    free = [row for row in rows if persons.get(row.player_id) not in skip]
    if need <= 0:
        return Cut(chosen=[])
    if len(free) > need and free[need - 1].rank == free[need].rank and free[need].tied:
        rank = free[need - 1].rank
        return Cut(chosen=[], tied=[row for row in free if row.rank == rank])
    return Cut(chosen=free[:need])


def skip_for(*, member: SeriesEvent) -> set[int]:
    """Persons the regional's cut passes over: anyone already holding a place or who
    declined one (a qualifier of another regional, invited); an alternate may still
    qualify."""
    return set(
        Entrant.objects.filter(series=member.series_id, division=member.division)
        .exclude(person=None)
        .exclude(status=Entrant.Status.ALTERNATE)
        .values_list("person_id", flat=True)
    )


def need_for(*, member: SeriesEvent) -> int:
    """Places the regional still has to fill: its number less its qualifiers on the list."""
    have = Entrant.objects.filter(source=member, status=Entrant.Status.QUALIFIER).count()
    return max(member.places - have, 0)


def open_cut(*, member: SeriesEvent) -> list[StandingRow]:
    """Players level on every tie-breaker across the regional's cut, or none."""
    if not regional_complete(member=member):
        return []
    return regional_cut(
        member=member, need=need_for(member=member), skip=skip_for(member=member)
    ).tied


def entrants_ordered(*, series: Series, division: str) -> list[Entrant]:
    """Qualifiers (by regional, then rank), invited, alternates (in order), declined.

    Sorted here, not by the database: the statuses' order is the list's, not their names'."""
    order: dict[str, int] = {
        Entrant.Status.QUALIFIER: 0,
        Entrant.Status.INVITED: 1,
        Entrant.Status.ALTERNATE: 2,
        Entrant.Status.DECLINED: 3,
    }
    rows = Entrant.objects.filter(series=series, division=division).select_related(
        "source__event", "player", "finals_player", "invitation__message"
    )
    return sorted(
        rows,
        key=lambda e: (
            order[e.status],
            e.alternate_position or 0,
            e.source.event.date.toordinal() if e.source else 0,
            e.source.event_id if e.source else 0,
            e.rank or 0,
            e.pk,
        ),
    )


def confirmed(*, series: Series, division: str) -> Confirmation | None:
    return Confirmation.objects.filter(series=series, division=division).first()


def played_final(*, event: Event) -> set[int]:
    """The players seated at the event's final (Championship Rules, World: alternates must have)."""
    return set(
        Seat.objects.filter(round__event=event, round__kind=Round.Kind.FINAL).values_list(
            "player_id", flat=True
        )
    )


@dataclass(frozen=True)
class Candidate:
    player: Player
    member: SeriesEvent
    rank: int


def alternate_candidates(*, series: Series, division: str) -> list[Candidate]:
    """The regionals' next-best players not on the list, best rank first, regionals in order.

    Championship Rules, World: with ``alternates_played_final`` only players of their event's final
    count.
    """
    taken: set[int | None] = set(
        Entrant.objects.filter(series=series, division=division)
        .exclude(status=Entrant.Status.ALTERNATE)
        .exclude(person=None)
        .values_list("person_id", flat=True)
    )
    found: list[Candidate] = []
    for member in regionals(series=series, division=division):
        if not regional_complete(member=member):
            continue
        rows = regional_rows(member=member)
        persons = person_ids(players=[row.player_id for row in rows])
        finalists = played_final(event=member.event) if series.alternates_played_final else None
        for row in rows:
            if persons.get(row.player_id) in taken:
                continue
            if finalists is not None and row.player_id not in finalists:
                continue
            found.append(Candidate(player=row.registered, member=member, rank=row.rank))
            taken.add(persons.get(row.player_id))
    order = {m.pk: i for i, m in enumerate(regionals(series=series, division=division))}
    return sorted(found, key=lambda c: (c.rank, order[c.member.pk]))


@dataclass(frozen=True)
class RegionalState:
    member: SeriesEvent
    complete: bool
    posted: int
    rounds: int
    qualifiers: list[Entrant]
    tied: list[StandingRow]


def regional_states(*, series: Series, division: str) -> list[RegionalState]:
    """Each regional: rounds posted, its qualifiers on the list, a tie at its cut."""
    states = []
    holding = list(
        Entrant.objects.filter(series=series, division=division, status__in=HOLDING)
        .exclude(source=None)
        .order_by("rank", "pk")
    )
    for member in regionals(series=series, division=division):
        rounds = Round.objects.filter(event=member.event, kind=Round.Kind.PRELIMINARY)
        states.append(
            RegionalState(
                member=member,
                complete=regional_complete(member=member),
                posted=rounds.filter(posting__isnull=False).count(),
                rounds=member.event.preliminary_rounds,
                qualifiers=[e for e in holding if e.source_id == member.pk],
                tied=open_cut(member=member),
            )
        )
    return states


def champion_aliases(*, series: Series, division: str = SENIOR) -> tuple[str, ...]:
    """The Finals' winner by alias, once its final (or a junior final's game) is posted."""
    finals = series_finals(series=series, division=division)
    if finals is None:
        return ()
    winner = event_winner(event=finals, with_players=False)
    return tuple(line.alias for line in winner.lines) if winner else ()


def qualification_of(*, player: Player) -> Entrant | None:
    """The place on a series' list this registration holds (for the winner's form)."""
    return (
        Entrant.objects.filter(player=player, status__in=HOLDING)
        .select_related("series", "source")
        .first()
    )


@dataclass
class Division:
    """One final of the series as the organizer's page shows it."""

    key: str
    label: str
    finals: Event | None
    regionals: list[RegionalState]
    entrants: list[Entrant]
    confirmation: Confirmation | None
    problems: list[str]
    alternates: list[Entrant]
    # Holding a place without an answer yet (invited by email or not).
    waiting: list[Entrant] = field(default_factory=list)


def series_overview(*, series: Series) -> list[Division]:
    """Each final: its regionals and their state, its list, what holds confirmation back."""
    from series.models import DIVISIONS

    divisions = []
    for key, label in DIVISIONS:
        rows = entrants_ordered(series=series, division=key)
        divisions.append(
            Division(
                key=key,
                label=str(label),
                finals=series_finals(series=series, division=key),
                regionals=regional_states(series=series, division=key),
                entrants=[e for e in rows if e.status != Entrant.Status.ALTERNATE],
                confirmation=confirmed(series=series, division=key),
                problems=confirm_problems(series=series, division=key),
                alternates=[e for e in rows if e.status == Entrant.Status.ALTERNATE],
                waiting=[
                    e
                    for e in rows
                    if e.status in HOLDING and e.response == Entrant.Response.PENDING
                ],
            )
        )
    return divisions


@dataclass(frozen=True)
class PersonRow:
    person_pk: int
    email: str
    players: list[Player]


def people_rows(*, series: Series) -> list[PersonRow]:
    """The series' people, those seen at more than one event first."""
    from series.models import SeriesPerson

    rows = []
    for person in SeriesPerson.objects.filter(series=series).prefetch_related(
        "links__player__event"
    ):
        players = sorted(
            (link.player for link in person.links.all()), key=lambda p: (p.event.date, p.pk)
        )
        rows.append(PersonRow(person_pk=person.pk, email=person.email, players=players))
    return sorted(rows, key=lambda r: (-len(r.players), r.email or "~", r.person_pk))


def confirm_problems(*, series: Series, division: str) -> list[str]:
    """Why the final's entrants cannot be confirmed yet; empty when they can."""
    problems = []
    finals = series_finals(series=series, division=division)
    if finals is None:
        return [_("Choose the final's event first (above the regionals).")]
    if Player.objects.filter(event=finals).exists():
        problems.append(_("The final's event already has registrations."))
    for member in regionals(series=series, division=division):
        if not regional_complete(member=member):
            problems.append(_("%(event)s is not finished.") % {"event": member.event.name})
        elif open_cut(member=member):
            problems.append(
                _("%(event)s: a tie at the cut waits for the head judge.")
                % {"event": member.event.name}
            )
    pending = Entrant.objects.filter(
        series=series,
        division=division,
        status__in=HOLDING,
        response=Entrant.Response.PENDING,
    ).count()
    if pending:
        problems.append(
            ngettext(
                "%(count)s entrant has not answered yet.",
                "%(count)s entrants have not answered yet.",
                pending,
            )
            % {"count": pending}
        )
    if not Entrant.objects.filter(
        series=series,
        division=division,
        status__in=HOLDING,
        response=Entrant.Response.ACCEPTED,
    ).exists():
        problems.append(_("Nobody has accepted a place yet."))
    return problems


def confirm_warnings(*, series: Series, division: str) -> list[str]:
    """What the organizer must agree to before confirming: fewer accepted entrants than
    the final's format needs to be played (the Finals then runs short, or waits for
    invitations)."""
    finals = series_finals(series=series, division=division)
    if finals is None:
        return []
    accepted = Entrant.objects.filter(
        series=series, division=division, status__in=HOLDING, response=Entrant.Response.ACCEPTED
    ).count()
    needed = event_minimum_players(event=finals)
    if accepted >= needed:
        return []
    return [
        ngettext(
            "Only %(count)s entrant has accepted: %(event)s needs at least %(needed)s players.",
            "Only %(count)s entrants have accepted: %(event)s needs at least %(needed)s players.",
            accepted,
        )
        % {"count": accepted, "event": finals.name, "needed": needed}
    ]


# --- Confirming a final's entrants ----------------------------------------------------------


def finals_registration(*, entrant: Entrant, finals: Event) -> Registration:
    """The Finals' registration of an entrant: their qualifying registration's details, or
    what the organizer typed for an invited one. Each event keeps its own alias: the
    qualifying one where the Finals has no one else with it."""
    alias = entrant.alias
    if Player.objects.filter(event=finals, alias__iexact=alias).exists():
        alias = ""
    source = entrant.player
    if source is None:
        return Registration(
            first_name=entrant.first_name,
            last_name=entrant.last_name,
            email=entrant.email,
            date_of_birth=entrant.date_of_birth or datetime.date(1990, 1, 1),
            signature=f"{entrant.first_name} {entrant.last_name}",
            eligibility_declared=True,
            citizenship_declared=True,
            alias=alias,
        )
    return Registration(
        first_name=source.first_name,
        last_name=source.last_name,
        email=source.email,
        date_of_birth=source.date_of_birth,
        signature=source.signature,
        address=source.address,
        city=source.city,
        region=source.region,
        postal_code=source.postal_code,
        telephone=source.telephone,
        family=source.family,
        eligibility_declared=source.eligibility_declared,
        citizenship_declared=source.citizenship_declared,
        publicity_consent=source.publicity_consent,
        guardian_name=source.guardian_name,
        guardian_consent=source.guardian_consent,
        guardian_email=source.guardian_email,
        language=source.language,
        alias=alias,
        # Their place comes from the regional they played within its age limits.
        qualified=True,
    )


def confirm_refusals(*, series: Series, division: str) -> dict[int, str]:
    """Why the final's event would refuse an entrant's row when the entrants are confirmed
    (by entrant pk; rows it takes are left out), so the organizer sees it first. A qualifier
    is not asked their age again: the qualification is the eligibility."""
    finals = series_finals(series=series, division=division)
    if finals is None:
        return {}
    refusals = {}
    for entrant in entrants_ordered(series=series, division=division):
        if entrant.status not in (*HOLDING, Entrant.Status.ALTERNATE):
            continue
        errors = registration_errors(
            event=finals, registration=finals_registration(entrant=entrant, finals=finals)
        )
        if errors:
            refusals[entrant.pk] = " ".join(
                str(m) for messages in errors.values() for m in messages
            )
    return refusals
