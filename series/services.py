"""The series' writes: its events, people, qualifiers, answers, invitations, alternates and
the confirmation that registers the Finals' entrants.

Keyword-only and typed; views and the demo call these, never the models directly.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from players.services import player_register
from scoring.services.ties import standings_tie_breakers_set
from scoring.tie_breakers import SERIES_REGIONAL_ORDER
from series import selectors
from series.invitation_mail import invitations_send
from series.models import (
    JUNIOR,
    SENIOR,
    Confirmation,
    Entrant,
    PersonLink,
    Series,
    SeriesEvent,
    SeriesPerson,
)
from tournament.models import Event, Player, Round
from tournament.services import event_update

# Which final an event's format qualifies for, and the one it may not be.
DIVISION_OF_FORMAT = {"championship": SENIOR, "junior": JUNIOR}


@transaction.atomic
def series_create(
    *,
    name: str,
    season: str,
    finals: Event | None = None,
    junior_finals: Event | None = None,
    alternates_played_final: bool = False,
) -> Series:
    name, season = name.strip(), season.strip()
    if not name or not season:
        raise ValidationError(_("Give the series a name and a season."), code="required")
    for event, fmt in ((finals, "championship"), (junior_finals, "junior")):
        if event is not None and event.format != fmt:
            raise ValidationError(
                _("%(event)s is not a %(format)s event.") % {"event": event, "format": fmt}
            )
    taken = selectors.events_in_series()
    for event in (finals, junior_finals):
        if event is not None and event.pk in taken:
            raise ValidationError(
                _("%(event)s already belongs to another series.") % {"event": event},
                code="taken",
            )
    return Series.objects.create(
        name=name,
        season=season,
        finals=finals,
        junior_finals=junior_finals,
        alternates_played_final=alternates_played_final,
    )


@transaction.atomic
def series_add_event(*, series: Series, event: Event, places: int | None = None) -> SeriesEvent:
    """A regional joins the series; its places default to its format's (Championship Rules: 4 by
    points for a regional championship, 1 by net worth for a junior regional).

    A regional championship in a series ends with its qualifiers, not a same-day final.
    """
    division = DIVISION_OF_FORMAT.get(event.format)
    if division is None:
        raise ValidationError(_("Only championship and junior events qualify for a final."))
    if event.pk in (series.finals_id, series.junior_finals_id):
        raise ValidationError(_("A final cannot be one of its own regionals."), code="final")
    if event.pk in selectors.finals_event_ids():
        raise ValidationError(
            _("This event is another series’ Finals; it cannot be a regional here."),
            code="taken",
        )
    if SeriesEvent.objects.filter(event=event).exists():
        raise ValidationError(_("This event already belongs to a series."), code="taken")
    if Round.objects.filter(
        event=event, kind__in=[Round.Kind.FINAL, Round.Kind.SEMIFINAL]
    ).exists():
        raise ValidationError(_("This event has seated its own final."), code="final")
    if division == SENIOR and not event.ends_with_qualifiers:
        event_update(event=event, ends_with_qualifiers=True)
    if division == SENIOR and not event.tie_breakers:
        # Championship Rules: the cut is by "Point scores (not net worth)": points, then games won,
        # then the head judge, unless the organizer chose an order of their own already.
        standings_tie_breakers_set(event=event, keys=list(SERIES_REGIONAL_ORDER), by=None)
        event.refresh_from_db()
    member = SeriesEvent.objects.create(
        series=series, event=event, division=division, places=places or event.advancing
    )
    persons_sync(series=series)
    return member


@transaction.atomic
def series_event_set_places(*, member: SeriesEvent, places: int) -> SeriesEvent:
    """The organizer changes how many players a regional sends, before it qualifies."""
    if places < 1 or places > 50:
        raise ValidationError(_("A regional sends 1 to 50 players."), code="places")
    if Entrant.objects.filter(source=member).exists():
        raise ValidationError(_("Its qualifiers are already on the list."), code="fixed")
    member.places = places
    member.save(update_fields=["places"])
    return member


# --- The same person across events ------------------------------------------------------


def persons_sync(*, series: Series) -> int:
    """Link every registration of the series' regionals to a person: by email (the same
    address, however capitalised, is one person), or alone without one. Existing links (the
    organizer's merges and splits) are kept. Returns how many were linked."""
    players = Player.objects.filter(
        event__series_membership__series=series, series_link__isnull=True
    ).order_by("pk")
    by_email = {
        person.email: person
        for person in SeriesPerson.objects.filter(series=series).exclude(email="")
    }
    count = 0
    for player in players:
        email = player.email.strip().lower()
        person = by_email.get(email) if email else None
        if person is None:
            person = SeriesPerson.objects.create(series=series, email=email)
            if email:
                by_email[email] = person
        PersonLink.objects.create(person=person, player=player)
        count += 1
    return count


@transaction.atomic
def person_merge(*, series: Series, keep: SeriesPerson, other: SeriesPerson) -> SeriesPerson:
    """Two persons are one (a new email, a typo): ``other``'s registrations join ``keep``."""
    if keep.series_id != series.pk or other.series_id != series.pk or keep.pk == other.pk:
        raise ValidationError(_("Choose two different people of this series."), code="merge")
    if (
        Entrant.objects.filter(person=keep).exists()
        and Entrant.objects.filter(person=other).exists()
    ):
        raise ValidationError(
            _("Both already hold a place on a list; decline one first."), code="merge"
        )
    PersonLink.objects.filter(person=other).update(person=keep)
    Entrant.objects.filter(person=other).update(person=keep)
    other.delete()
    return keep


@transaction.atomic
def person_split(*, series: Series, player: Player) -> SeriesPerson:
    """One registration is someone else (a shared family email): it becomes its own person."""
    link = PersonLink.objects.filter(player=player, person__series=series).first()
    if link is None:
        raise ValidationError(_("This player is not in the series."), code="split")
    if link.person.links.count() < 2:
        raise ValidationError(_("This registration is already a person of its own."), code="split")
    if Entrant.objects.filter(player=player).exists():
        raise ValidationError(_("This registration holds a place on a list."), code="split")
    person = SeriesPerson.objects.create(series=series, email="")
    link.person = person
    link.save(update_fields=["person"])
    return person


# --- Qualifying ---------------------------------------------------------------------------


def on_round_posted(sender: Any, *, round_: Round, by: User | None = None, **kwargs: Any) -> None:
    """scoring.signals.round_posted: a regional's last round posted fixes its qualifiers."""
    member = SeriesEvent.objects.filter(event_id=round_.event_id).select_related("series").first()
    if member is None or round_.kind != Round.Kind.PRELIMINARY:
        return
    if selectors.regional_complete(member=member):
        qualifiers_fix(series=member.series, division=member.division, by=by)


@transaction.atomic
def qualifiers_fix(*, series: Series, division: str, by: User | None = None) -> list[SeriesEvent]:
    """Fill every finished regional's places from its posted standings and tie-breakers.

    Regionals fill in order (date, then as created). A person already on the list (qualified
    at another regional, invited, or declined) is passed over, so the next of this regional
    moves up (Championship Rules: "the 4 players with the highest Point scores" of each event); a
    declined place passes to the next of the same regional. A regional with players level on every
    tie-breaker across its cut sends nobody until the head judge orders them. Idempotent.
    A person in two regionals counts for the earlier by date whichever is posted first, so
    a regional fills only once every earlier one has: until then a later one waits.
    Returns the regionals waiting for the head judge.
    """
    persons_sync(series=series)
    waiting = []
    for member in selectors.regionals(series=series, division=division):
        if not selectors.regional_complete(member=member):
            break
        cut = selectors.regional_cut(
            member=member,
            need=selectors.need_for(member=member),
            skip=selectors.skip_for(member=member),
        )
        if cut.tied:
            waiting.append(member)
            break
        for row in cut.chosen:
            _qualify(member=member, player=row.registered, rank=row.rank, by=by)
        if member.qualified_at is None:
            member.qualified_at = timezone.now()
            member.save(update_fields=["qualified_at"])
    # Each new qualifier (a place passed on included) is emailed their personal link.
    invitations_send(series=series, division=division)
    return waiting


def _qualify(*, member: SeriesEvent, player: Player, rank: int, by: User | None) -> Entrant:
    person = PersonLink.objects.get(player=player).person
    alternate = Entrant.objects.filter(
        person=person, division=member.division, status=Entrant.Status.ALTERNATE
    ).first()
    if alternate is not None:
        # An alternate moves up to a place (from this regional); the others close the gap.
        alternate.status = Entrant.Status.QUALIFIER
        alternate.alternate_position = None
        alternate.source, alternate.player, alternate.rank = member, player, rank
        alternate.alias = player.alias
        alternate.changed_by = by
        alternate.save()
        _renumber_alternates(series=member.series, division=member.division)
        return alternate
    return Entrant.objects.create(
        series=member.series,
        division=member.division,
        person=person,
        player=player,
        source=member,
        rank=rank,
        status=Entrant.Status.QUALIFIER,
        alias=player.alias,
        changed_by=by,
    )


def _renumber_alternates(*, series: Series, division: str) -> None:
    rows = Entrant.objects.filter(
        series=series, division=division, status=Entrant.Status.ALTERNATE
    ).order_by("alternate_position", "pk")
    for position, entrant in enumerate(rows, start=1):
        if entrant.alternate_position != position:
            entrant.alternate_position = position
            entrant.save(update_fields=["alternate_position"])


def _refuse_if_confirmed(*, series: Series, division: str) -> None:
    if selectors.confirmed(series=series, division=division):
        raise ValidationError(
            _("This final's entrants are confirmed and registered; change them in its event."),
            code="confirmed",
        )


@transaction.atomic
def entrant_respond(*, entrant: Entrant, accept: bool, by: User | None) -> Entrant:
    """Record an entrant's answer. A declined qualifier's place passes to the next player of
    the same regional at once; a declined alternate leaves the order."""
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    _refuse_if_confirmed(series=entrant.series, division=entrant.division)
    if entrant.status == Entrant.Status.DECLINED:
        raise ValidationError(_("This entrant has already declined."), code="declined")
    entrant.changed_by = by
    entrant.answered_at = timezone.now()
    if accept:
        entrant.response = Entrant.Response.ACCEPTED
        entrant.save()
        return entrant
    was = entrant.status
    entrant.response = Entrant.Response.DECLINED
    entrant.status = Entrant.Status.DECLINED
    entrant.alternate_position = None
    entrant.save()
    if was == Entrant.Status.ALTERNATE:
        _renumber_alternates(series=entrant.series, division=entrant.division)
    elif was == Entrant.Status.QUALIFIER:
        qualifiers_fix(series=entrant.series, division=entrant.division, by=by)
    return entrant


@transaction.atomic
def entrant_invite(
    *,
    series: Series,
    division: str,
    first_name: str,
    last_name: str,
    email: str,
    date_of_birth: datetime.date,
    alias: str,
    reason: str,
    by: User | None,
) -> Entrant:
    """An invited entrant (Championship Rules: "The previous World Tournament winner will also be
    invited"; a host's wild card), with the organizer's reason, shown as invited."""
    _refuse_if_confirmed(series=series, division=division)
    first_name, last_name, alias, reason = (
        v.strip() for v in (first_name, last_name, alias, reason)
    )
    if not (first_name and last_name and alias and reason):
        raise ValidationError(_("Give the name, an alias and the reason for the invitation."))
    email = email.strip().lower()
    person = None
    if email:
        person = SeriesPerson.objects.filter(series=series, email=email).first()
        if (
            person
            and Entrant.objects.filter(
                person=person, division=division, status__in=selectors.HOLDING
            ).exists()
        ):
            raise ValidationError(_("This person already holds a place on the list."), code="taken")
    person = person or SeriesPerson.objects.create(series=series, email=email)
    entrant = Entrant.objects.create(
        series=series,
        division=division,
        person=person,
        status=Entrant.Status.INVITED,
        first_name=first_name,
        last_name=last_name,
        email=email,
        date_of_birth=date_of_birth,
        alias=alias,
        reason=reason,
        changed_by=by,
    )
    invitations_send(series=series, division=division)
    return entrant


@transaction.atomic
def alternates_confirm(
    *, series: Series, division: str, order: list[int], by: User | None
) -> list[Entrant]:
    """The Finals' alternates, from the regionals' next-best players in the organizer's order
    (Championship Rules: alternates for a World final must have played their national final)."""
    _refuse_if_confirmed(series=series, division=division)
    candidates = {
        c.player.pk: c for c in selectors.alternate_candidates(series=series, division=division)
    }
    pks = [int(pk) for pk in order]
    if len(set(pks)) != len(pks) or any(pk not in candidates for pk in pks):
        raise ValidationError(
            _("Choose alternates from the regionals' next-best players."), code="order"
        )
    Entrant.objects.filter(
        series=series, division=division, status=Entrant.Status.ALTERNATE
    ).delete()
    made = []
    for position, pk in enumerate(pks, start=1):
        candidate = candidates[pk]
        made.append(
            Entrant.objects.create(
                series=series,
                division=division,
                person=PersonLink.objects.get(player=candidate.player).person,
                player=candidate.player,
                source=candidate.member,
                rank=candidate.rank,
                status=Entrant.Status.ALTERNATE,
                alternate_position=position,
                alias=candidate.player.alias,
                changed_by=by,
            )
        )
    return made


# --- Confirming a final's entrants ----------------------------------------------------------


@dataclass(frozen=True)
class Confirmed:
    """What confirming did: the Finals' players registered, and each row it refused with why."""

    registered: list[Player]
    refused: list[tuple[Entrant, str]]


def _refusal(*, entrant: Entrant, error: ValidationError) -> str:
    """One refused row's sentence, naming the entrant (never the whole list)."""
    reasons = " ".join(str(message) for message in error.messages)
    person = entrant.player or entrant  # a qualifier's name is their regional registration's
    return _("%(name)s (%(alias)s) was not registered: %(reasons)s") % {
        "name": f"{person.first_name} {person.last_name}".strip() or entrant.alias,
        "alias": entrant.alias,
        "reasons": reasons,
    }


@transaction.atomic
def entrants_confirm(*, series: Series, division: str, by: User | None) -> Confirmed:
    """Register the accepted entrants in the final's event as its players, and the
    alternates, in their confirmed order, as its alternates. Done once.

    Eligibility for the Finals is the qualification: a row the final's event cannot take
    (no guardian's consent, the same person twice) is refused on its own and named, and
    the organizer registers that one in the event once it is put right; the others are
    registered all the same."""
    _refuse_if_confirmed(series=series, division=division)
    problems = selectors.confirm_problems(series=series, division=division)
    finals = selectors.series_finals(series=series, division=division)
    if problems or finals is None:  # a missing Finals event is one of the problems
        raise ValidationError(problems, code="not-ready")
    rows = selectors.entrants_ordered(series=series, division=division)
    places = [
        e for e in rows if e.status in selectors.HOLDING and e.response == Entrant.Response.ACCEPTED
    ]
    alternates = [e for e in rows if e.status == Entrant.Status.ALTERNATE]
    event_update(event=finals, expected_players=len(places), alternates=len(alternates))
    registered, refused = [], []
    for entrant in [*places, *alternates]:
        try:
            # A savepoint per row, so a refused row leaves the others registered.
            with transaction.atomic():
                player = player_register(
                    event=finals,
                    registration=selectors.finals_registration(entrant=entrant, finals=finals),
                    source=Player.Source.IMPORT,
                )
        except ValidationError as error:
            refused.append((entrant, _refusal(entrant=entrant, error=error)))
            continue
        # From now on the list shows the alias the entrant plays the final under.
        entrant.finals_player, entrant.alias, entrant.changed_by = player, player.alias, by
        entrant.save(update_fields=["finals_player", "alias", "changed_by", "changed_at"])
        registered.append(player)
    Confirmation.objects.create(series=series, division=division, at=timezone.now(), by=by)
    return Confirmed(registered=registered, refused=refused)


@transaction.atomic
def release_set(*, series: Series, pages: dict[str, bool]) -> Series:
    """Release (or withdraw) the series' public pages: qualifiers, entrants, champion."""
    for page, released in pages.items():
        if page not in ("qualifiers", "entrants", "champion"):
            raise ValueError(f"unknown public page {page!r}")
        setattr(series, f"public_{page}", bool(released))
    series.save()
    return series


@transaction.atomic
def series_finals_set(*, series: Series, division: str, event: Event | None) -> Series:
    """Choose (or clear) the event a division's final is played at, on the series page:
    an event of the division's format, not one of this series' regionals, and only until
    the entrants are confirmed into it."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    if selectors.confirmed(series=series, division=division) is not None:
        raise ValidationError(
            _("The entrants are already registered in the final's event; it stays."),
            code="confirmed",
        )
    wanted = "junior" if division == JUNIOR else "championship"
    if event is not None:
        if event.format != wanted:
            raise ValidationError(
                _("%(event)s is not a %(format)s event.") % {"event": event, "format": wanted}
            )
        if SeriesEvent.objects.filter(event=event).exists():
            raise ValidationError(
                _("%(event)s is a regional; a final cannot be a regional.") % {"event": event},
                code="regional",
            )
    field = "junior_finals" if division == JUNIOR else "finals"
    setattr(series, field, event)
    series.save(update_fields=[field])
    return series
