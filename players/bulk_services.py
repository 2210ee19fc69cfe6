"""Registering a big field at once: a 2,000-player event in a few queries, not 2,000 rounds.

``player_register`` takes one person with the event row locked and four queries of
checks; called 2,000 times it reads the whole roster each time (aliases, duplicates), which
grows with the square of the field. ``players_register_bulk`` registers a whole list into
an event nobody has registered for yet, with the same rules: the same field checks
(``registration_form_errors``), duplicates refused within the list, places first, then the
event's alternates in order, then the waiting list, automatic aliases as
``automatic_alias`` hands them out.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from players.aliases import next_alias
from players.registration_mail import confirmations_queue
from players.services import Registration, registration_form_errors, registration_player
from tournament.models import Event, Player

BATCH = 500


def _duplicate(reg: Registration, seen: dict[tuple, int]) -> str | None:
    """Why ``reg`` repeats someone earlier in the list, or None; remembers it."""
    keys = {
        ("email", reg.email.strip().casefold()): _(
            "Someone is already registered for this event with this email."
        ),
        (
            "person",
            reg.first_name.strip().casefold(),
            reg.last_name.strip().casefold(),
            reg.date_of_birth,
        ): _("This person is already registered for this event."),
    }
    if reg.alias.strip():
        keys[("alias", reg.alias.strip().casefold())] = _(
            "Another player at this event already has this alias."
        )
    for key, message in keys.items():
        if key in seen and (key[0] != "email" or key[1]):
            return message
    for key in keys:
        seen[key] = 1
    return None


@transaction.atomic
def players_register_bulk(
    *,
    event: Event,
    registrations: Sequence[Registration],
    source: str = Player.Source.IMPORT,
    now: datetime.datetime | None = None,
    send_confirmations: bool = True,
) -> list[Player]:
    """Register ``registrations`` in order into ``event``, which has nobody yet.

    All or nothing: the first refused registration raises ``ValidationError`` naming its
    place in the list, and nobody is registered. Each one is emailed a confirmation once
    this commits, unless ``send_confirmations`` is off.
    """
    now = now or timezone.now()
    event = Event.objects.select_for_update().get(pk=event.pk)
    if Player.objects.filter(event=event).exists():
        raise ValidationError(_("Bulk registration is for an event nobody has registered for."))
    seen: dict[tuple, int] = {}
    # Typed aliases are reserved first, as the CSV import does.
    taken = {reg.alias.strip().casefold() for reg in registrations if reg.alias.strip()}
    players: list[Player] = []
    for index, reg in enumerate(registrations, start=1):
        errors = registration_form_errors(event=event, registration=reg)
        problem = _duplicate(reg, seen)
        if errors or problem:
            messages = [m for field in errors.values() for m in field] + [problem or ""]
            raise ValidationError(
                _("Registration %(number)s: %(problems)s")
                % {"number": index, "problems": " ".join(m for m in messages if m)}
            )
        alias = reg.alias.strip()
        if not alias:
            seed = f"{event.pk}|{reg.email}|{reg.first_name}"  # as automatic_alias seeds it
            alias = next_alias(taken=taken, seed=seed, folded=True)
            taken.add(alias.casefold())
        players.append(
            registration_player(event=event, registration=reg, alias=alias, source=source, now=now)
        )
    _place(event=event, players=players)
    for player in players:
        player.full_clean(validate_unique=False, validate_constraints=False)
    created = Player.objects.bulk_create(players, batch_size=BATCH)
    if send_confirmations:
        confirmations_queue(players=created)
    return created


def _place(*, event: Event, players: list[Player]) -> None:
    """Places while they last, then the alternates in order, then the waiting list."""
    for index, player in enumerate(players):
        alternate = index - event.expected_players
        if alternate < 0:
            player.status = Player.Status.PLAYER
        elif alternate < event.alternates:
            player.status = Player.Status.ALTERNATE
            player.alternate_position = alternate + 1
        else:
            player.status = Player.Status.WAITING
            player.waiting_position = alternate - event.alternates + 1
