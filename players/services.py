"""Write-side operations for people: registration, aliases, check-in, leaving, alternates.

Every change goes through a service, so the self-registration form, the organizer's
on-the-day entry, the CSV import and the admin all apply the same rules. Services raise
``ValidationError`` with messages fit for the page; the views show them.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from players.aliases import next_alias
from players.alternates import alternates_in_order, alternates_renumber
from players.no_show_selectors import no_show_waits_for_the_head_judge
from players.registration_mail import confirmations_queue
from tournament.formats import age_refusal
from tournament.locks import event_lock, player_relock
from tournament.models import Event, Player, age_on
from tournament.numbering import renumber
from tournament.services import default_registration_closes

# --- Registration ------------------------------------------------------------------


def household_key(family: str) -> str:
    """Fold what people type ("The Smiths ", "the smiths") into one comparable key."""
    return " ".join(family.split()).casefold()


def registration_is_open(*, event: Event, now: datetime.datetime | None = None) -> bool:
    """Whether the public self-registration form takes entries at ``now``."""
    now = now or timezone.now()
    if event.registration_opens and now < event.registration_opens:
        return False
    closes = event.registration_closes or default_registration_closes(
        date=event.date, start_time=event.start_time
    )
    return now < closes


@dataclass(frozen=True)
class Registration:
    """What a registrant typed, as the form, the organizer or a CSV row supplies it."""

    first_name: str
    last_name: str
    date_of_birth: datetime.date
    signature: str
    email: str = ""
    address: str = ""
    city: str = ""
    region: str = ""
    postal_code: str = ""
    telephone: str = ""
    family: str = ""
    eligibility_declared: bool = False
    citizenship_declared: bool = False
    publicity_consent: bool = False
    guardian_name: str = ""
    guardian_consent: bool = False
    guardian_email: str = ""
    alias: str = ""
    game_language: str = ""
    # The language they registered in (the public form's), for their emails.
    language: str = ""
    # Qualified at an earlier event for this one (a series' Finals): the qualification is the
    # eligibility, so the age limits, met on the day they qualified, are not asked again
    # (Championship Rules: "1 junior competitor from each will progress", even one who is 16 by the
    # Finals).
    qualified: bool = False


def registration_form_errors(*, event: Event, registration: Registration) -> dict[str, list[str]]:
    """The reasons to refuse ``registration`` that its own fields give (no other player)."""
    errors: dict[str, list[str]] = {}

    def add(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    reg = registration
    for field in ("first_name", "last_name", "signature"):
        if not getattr(reg, field).strip():
            add(field, _("This field is required."))
    age = age_on(born=reg.date_of_birth, day=event.date)
    if reg.date_of_birth > event.date:
        add("date_of_birth", _("The date of birth is after the event."))
    elif not reg.qualified and (refusal := age_refusal(event=event, age=age)):
        add("date_of_birth", refusal)
    if age < event.guardian_consent_under:
        if not reg.guardian_name.strip():
            add(
                "guardian_name",
                _("Players under %(age)s need a parent or guardian's name.")
                % {"age": event.guardian_consent_under},
            )
        if not reg.guardian_consent:
            add(
                "guardian_consent",
                _("Players under %(age)s need their parent or guardian's consent.")
                % {"age": event.guardian_consent_under},
            )
    if not reg.eligibility_declared:
        add(
            "eligibility_declared",
            _(
                "Employees of the game's publisher and their immediate families cannot take "
                "part; please confirm you are neither."
            ),
        )
    if event.citizenship_declaration and not reg.citizenship_declared:
        add("citizenship_declared", _("Please confirm you are a citizen of this country."))
    return errors


def registration_errors(
    *, event: Event, registration: Registration, exclude: Player | None = None
) -> dict[str, list[str]]:
    """Every reason ``registration`` cannot be accepted, by field; empty when it can."""
    errors = registration_form_errors(event=event, registration=registration)

    def add(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    reg = registration
    others = Player.objects.filter(event=event).exclude(status__in=[Player.Status.WITHDRAWN])
    if exclude is not None:
        others = others.exclude(pk=exclude.pk)
    if reg.email and others.filter(email__iexact=reg.email.strip()).exists():
        add("email", _("Someone is already registered for this event with this email."))
    if others.filter(
        first_name__iexact=reg.first_name.strip(),
        last_name__iexact=reg.last_name.strip(),
        date_of_birth=reg.date_of_birth,
    ).exists():
        add("__all__", _("This person is already registered for this event."))
    if reg.alias and others.filter(alias__iexact=reg.alias.strip()).exists():
        add("alias", _("Another player at this event already has this alias."))
    return errors


@transaction.atomic
def player_register(
    *,
    event: Event,
    registration: Registration,
    source: str = Player.Source.SELF,
    now: datetime.datetime | None = None,
    send_confirmation: bool = True,
) -> Player:
    """Register someone: a seat while places last, then one of the event's alternate
    positions, then the waiting list (``registration_place``).

    Self-registration is refused outside the window; the organizer's on-the-day entry and
    imports are not, since the organizer is the one who decided to take them. The player
    (and a junior's guardian) is emailed a confirmation once this commits, unless
    ``send_confirmation`` is off (an import the organizer asked to keep quiet).
    """
    now = now or timezone.now()
    # Lock the event row so two registrations cannot both take the last seat.
    event = Event.objects.select_for_update().get(pk=event.pk)
    if source == Player.Source.SELF and not registration_is_open(event=event, now=now):
        raise ValidationError(_("Registration for this event is closed."))
    errors = registration_errors(event=event, registration=registration)
    if errors:
        raise ValidationError(errors)

    status = registration_place(event=event)

    player = registration_player(
        event=event,
        registration=registration,
        alias=registration.alias.strip() or automatic_alias(event=event, registration=registration),
        source=source,
        now=now,
    )
    player.status = status
    if status == Player.Status.ALTERNATE:
        player.alternate_position = next_alternate_position(event)
    if status == Player.Status.WAITING:
        player.waiting_position = _next_waiting_position(event)
    player.full_clean()
    player.save()
    if send_confirmation:
        confirmations_queue(players=[player])
    return player


def registration_player(
    *, event: Event, registration: Registration, alias: str, source: str, now: datetime.datetime
) -> Player:
    """The unsaved player a registration makes, its text trimmed, before its place (player,
    alternate, waiting) is decided: one registration, one reading, one by one or in bulk."""
    reg = registration
    return Player(
        event=event,
        first_name=reg.first_name.strip(),
        last_name=reg.last_name.strip(),
        address=reg.address.strip(),
        city=reg.city.strip(),
        region=reg.region.strip(),
        postal_code=reg.postal_code.strip(),
        telephone=reg.telephone.strip(),
        email=reg.email.strip(),
        date_of_birth=reg.date_of_birth,
        family=reg.family.strip(),
        household=household_key(reg.family),
        eligibility_declared=reg.eligibility_declared,
        citizenship_declared=reg.citizenship_declared,
        publicity_consent=reg.publicity_consent,
        guardian_name=reg.guardian_name.strip(),
        guardian_consent=reg.guardian_consent,
        guardian_email=reg.guardian_email.strip(),
        game_language=reg.game_language if reg.game_language in dict(settings.LANGUAGES) else "",
        language=reg.language if reg.language in dict(settings.LANGUAGES) else "",
        signature=reg.signature.strip(),
        signed_at=now,
        alias=alias,
        source=source,
    )


def registration_place(*, event: Event) -> str:
    """The status a registrant gets now: ``PLAYER`` while places last, then ``ALTERNATE``
    up to the event's number of alternates (Championship Rules, ALTERNATES: "three alternate
    positions will be secured"), then ``WAITING``.

    Once anyone waits, newcomers wait behind them: a place or an alternate position that
    comes free is the organizer's to give (``waiting_services.waiting_promote``), never the
    next person to register.
    """
    counts = Player.objects.filter(event=event).aggregate(
        players=Count("pk", filter=Q(status=Player.Status.PLAYER)),
        alternates=Count("pk", filter=Q(status=Player.Status.ALTERNATE)),
        waiting=Count("pk", filter=Q(status=Player.Status.WAITING)),
    )
    if counts["waiting"]:
        return Player.Status.WAITING
    if counts["players"] < event.expected_players:
        return Player.Status.PLAYER
    if counts["alternates"] < event.alternates:
        return Player.Status.ALTERNATE
    return Player.Status.WAITING


def next_alternate_position(event: Event) -> int:
    highest = Player.objects.filter(event=event).aggregate(Max("alternate_position"))
    return (highest["alternate_position__max"] or 0) + 1


def _next_waiting_position(event: Event) -> int:
    highest = Player.objects.filter(event=event).aggregate(Max("waiting_position"))
    return (highest["waiting_position__max"] or 0) + 1


def automatic_alias(
    *, event: Event, registration: Registration, taken: Collection[str] | None = None
) -> str:
    """The alias a registrant gets when none was chosen.

    Seeded by the person, so re-importing the same file hands out the same aliases.
    """
    if taken is None:
        taken = list(Player.objects.filter(event=event).values_list("alias", flat=True))
    seed = f"{event.pk}|{registration.email}|{registration.first_name}"
    return next_alias(taken=taken, seed=seed)


def player_set_alias(*, player: Player, alias: str) -> Player:
    alias = alias.strip()
    if not alias:
        raise ValidationError({"alias": [_("An alias cannot be empty.")]})
    clash = Player.objects.filter(event=player.event, alias__iexact=alias).exclude(pk=player.pk)
    if clash.exists():
        raise ValidationError(
            {"alias": [_("Another player at this event already has this alias.")]}
        )
    player.alias = alias
    player.save(update_fields=["alias"])
    return player


# --- The day itself ----------------------------------------------------------------


def player_check_in(*, player: Player, now: datetime.datetime | None = None) -> Player:
    if player.status not in (Player.Status.PLAYER, Player.Status.ALTERNATE):
        raise ValidationError(
            _("%(alias)s is %(status)s and cannot check in.")
            % {"alias": player.alias, "status": player.get_status_display().lower()}
        )
    if player.checked_in_at is None:
        player.checked_in_at = now or timezone.now()
        player.save(update_fields=["checked_in_at"])
    return player


def player_undo_check_in(*, player: Player) -> Player:
    player.checked_in_at = None
    player.save(update_fields=["checked_in_at"])
    return player


def _leave(
    *,
    player: Player,
    status: str,
    by: User | None,
    reason: str,
    now: datetime.datetime | None,
) -> Player:
    player.status_before = player.status
    player.alternate_position_before = player.alternate_position
    player.status = status
    player.status_reason = reason
    player.status_changed_by = by if by is not None and by.is_authenticated else None
    player.status_changed_at = now or timezone.now()
    player.alternate_position = None
    player.waiting_position = None
    player.save()
    return player


@transaction.atomic
def player_mark_no_show(
    *, player: Player, by: User | None = None, now: datetime.datetime | None = None
) -> Player | None:
    """A player not seated at the official start of a round gives up the seat for the rest
    of the event (Championship Rules, PLAYER NO SHOW).

    Before the rounds are seated, the next alternate in order takes the place at once and is
    returned (None when the list is empty). Once they are seated, the seat stays empty and None
    is returned: Championship Rules, ALTERNATES, "Use of alternates is at the discretion of the
    Head Judge", who chooses at the round's start (``seating.vacancy_services``).
    """
    player_relock(player)
    if player.status == Player.Status.NO_SHOW:
        raise ValidationError(_("%(alias)s is already a no-show.") % {"alias": player.alias})
    if player.status != Player.Status.PLAYER:
        raise ValidationError(_("Only a seated player can be marked as a no-show."))
    _leave(player=player, status=Player.Status.NO_SHOW, by=by, reason="", now=now)
    if no_show_waits_for_the_head_judge(event=player.event):
        return None
    return _promote_next_alternate(event=player.event, replacing=player)


@transaction.atomic
def player_eject(*, player: Player, reason: str, by: User | None = None, now=None) -> Player:
    """A judge expels a player (Championship Rules, EJECTION OF PLAYER); the reason is kept on
    record.

    No alternate steps in mid-game; the organizer fills seats at the start of a round.
    """
    if not reason.strip():
        raise ValidationError({"reason": [_("Give the reason for the ejection.")]})
    _refuse_if_gone(player, already=Player.Status.EJECTED)
    was = player.status
    _leave(player=player, status=Player.Status.EJECTED, by=by, reason=reason, now=now)
    _close_gap(event=player.event, was=was)
    return player


@transaction.atomic
def player_withdraw(
    *, player: Player, reason: str = "", by: User | None = None, now=None
) -> Player:
    _refuse_if_gone(player, already=Player.Status.WITHDRAWN)
    was = player.status
    _leave(player=player, status=Player.Status.WITHDRAWN, by=by, reason=reason, now=now)
    _close_gap(event=player.event, was=was)
    return player


def _refuse_if_gone(player: Player, *, already: str) -> None:
    """Refuse to act on someone who left: said as "already done" when it is the same act."""
    player_relock(player)
    if player.status == already == Player.Status.WITHDRAWN:
        raise ValidationError(_("%(alias)s has already withdrawn.") % {"alias": player.alias})
    if player.status == already == Player.Status.EJECTED:
        raise ValidationError(_("%(alias)s has already been ejected.") % {"alias": player.alias})
    if player.status in (Player.Status.EJECTED, Player.Status.WITHDRAWN, Player.Status.NO_SHOW):
        raise ValidationError(_("This person is no longer in the event."))


def _close_gap(*, event: Event, was: str) -> None:
    """Renumber the list someone just left, so positions stay 1, 2, 3... (the alternates'
    always: a list left with a gap by an older version is mended too)."""
    renumber_alternates(event)
    if was == Player.Status.WAITING:
        renumber_waiting_list(event=event)


@transaction.atomic
def alternate_fill_seat(
    *, event: Event, replacing: Player | None = None, only_if_empty: bool = False
) -> Player | None:
    """At the start of a round, the next alternate takes an empty seat (never mid-game).
    ``only_if_empty``: the organizer's button, refused once every place is taken again."""
    event = event_lock(event_id=event.pk)
    seated = Player.objects.filter(event=event, status=Player.Status.PLAYER).count()
    if only_if_empty and seated >= event.expected_players:
        raise ValidationError(_("No seat is empty: every place has its player."), code="already")
    return _promote_next_alternate(event=event, replacing=replacing)


def _promote_next_alternate(*, event: Event, replacing: Player | None) -> Player | None:
    """The head of the list takes a seat; called holding the event lock."""
    alternates = alternates_in_order(event_id=event.pk)
    if not alternates:
        return None
    alternate = alternates[0]
    alternate.status = Player.Status.PLAYER
    alternate.alternate_position = None
    alternate.replaces = replacing
    alternate.save()
    renumber_alternates(event)
    return alternate


def renumber_waiting_list(*, event: Event) -> None:
    """Keep waiting positions 1, 2, 3... in registration order.

    The waiting list is first come, first served, so someone who goes back onto it (a
    promotion undone) finds the place their registration gives them.
    """
    waiting = list(
        Player.objects.filter(event=event, status=Player.Status.WAITING).order_by(
            "created_at", "pk"
        )
    )
    renumber(waiting, field="waiting_position")


def renumber_alternates(event: Event) -> None:
    """Keep alternate positions 1, 2, 3... with no gaps, in their current order."""
    alternates_renumber(event_id=event.pk)
