"""A registration's confirmation email: to the player, and a junior's guardian too.

Sent for every way in (the public form, the organizer's entry at the door, a CSV import
unless the organizer chose not to, a Finals entrant's registration) by the registration
services themselves, so the demo and the simulations send what a real event sends. It
says the event, its date and place, the player's alias and place (seated, alternate or
waiting), when to arrive and what to bring (the event's own words), the public page to
follow them, and how to withdraw: by answering the email, which reaches the event's
contact. Rendered in the player's language and sent by the mail app's workers.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from urllib.parse import urlencode

from django.urls import reverse

from mail.services import absolute_url, mail_queue, mail_unavailable
from tournament.models import Event, Player

KIND = "tournament:confirmation"
TEMPLATE = "players/mail/confirmation"


def player_language(player: Player) -> str:
    """The language of a player's emails: the one they registered in, else their game
    language, else the event's."""
    return player.language or player.game_language or player.event.language


def player_addresses(player: Player) -> list[str]:
    """The player's address, and their guardian's while they are a junior (under the
    event's guardian-consent age on its day)."""
    addresses = [player.email]
    if player.guardian_email and player.age_at_event < player.event.guardian_consent_under:
        addresses.append(player.guardian_email)
    return [address for address in addresses if address]


def event_reply_to(event: Event) -> list[str]:
    """Answers go to the event's contact: that is how a player withdraws or asks."""
    return [event.contact_email] if event.contact_email else []


def follow_url(player: Player) -> str:
    path = reverse("spectator:follow", kwargs={"pk": player.event_id})
    return absolute_url(f"{path}?{urlencode({'alias': player.alias})}")


def confirmation_context(player: Player) -> dict:
    event = player.event
    starts = event.starts_at
    return {
        "event": event,
        "player": player,
        "starts_at": starts,
        "arrive_at": starts - datetime.timedelta(minutes=event.arrival_minutes),
        "place_lines": [
            line
            for line in (
                event.venue,
                event.address,
                " ".join(p for p in (event.postal_code, event.city) if p),
                event.state,
            )
            if line
        ],
        "follow_url": follow_url(player),
        "event_url": absolute_url(event.get_absolute_url()),
        "guardian_copy": len(player_addresses(player)) > 1,
    }


def confirmations_queue(*, players: Iterable[Player]) -> int:
    """Queue each player's confirmation (sent once the registration commits); returns how
    many were queued: none without a mail server, none for a player without an address."""
    if mail_unavailable():
        return 0
    queued = 0
    for player in players:
        message = mail_queue(
            to=player_addresses(player),
            template=TEMPLATE,
            context=confirmation_context(player),
            language=player_language(player),
            kind=KIND,
            key=f"player-{player.pk}",
            reply_to=event_reply_to(player.event),
        )
        queued += message is not None
    return queued
