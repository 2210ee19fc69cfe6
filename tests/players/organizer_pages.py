"""Helpers of the organizer's page tests: a registration, what a browser posts, the messages.

The fixtures built on them (organizer, org_client, judge_client, small_event, full_house)
are in this folder's conftest.py.
"""

from __future__ import annotations

import datetime

from django.contrib.messages import get_messages
from django.forms import CheckboxInput, Select

from players.services import Registration, player_register
from tournament.models import Event, Player

TYPED = {
    "name": "Harbour Cup",
    "organization": "Boardwalk Club",
    "venue": "Pier Hall",
    "date": "2030-06-01",
    "start_time": "10:00",
}


def register(
    event: Event,
    first: str,
    last: str,
    *,
    alias: str = "",
    born: datetime.date = datetime.date(1990, 5, 1),
    **extra,
) -> Player:
    return player_register(
        event=event,
        registration=Registration(
            first_name=first,
            last_name=last,
            date_of_birth=born,
            signature=f"{first} {last}",
            eligibility_declared=True,
            citizenship_declared=True,
            alias=alias,
            **extra,
        ),
        source=Player.Source.ON_THE_DAY,
    )


def browser_data(response) -> dict[str, str]:
    """What a browser would submit for the form as rendered: every shown value as a string."""
    data = {}
    for bound in response.context["form"]:
        if bound.field.disabled:
            continue  # browsers do not submit disabled inputs
        value = bound.value()
        if isinstance(bound.field.widget, CheckboxInput):
            if value:
                data[bound.html_name] = "on"
            continue
        if isinstance(bound.field.widget, Select):
            data[bound.html_name] = "" if value is None else str(value)
            continue
        formatted = bound.field.widget.format_value(value)
        data[bound.html_name] = "" if formatted is None else str(formatted)
    return data


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def alternate_positions(event: Event) -> list[tuple[str, int]]:
    return list(
        Player.objects.filter(event=event, status=Player.Status.ALTERNATE)
        .order_by("alternate_position")
        .values_list("alias", "alternate_position")
    )
