"""The demo event `make run` loads: enough people to show every screen with something on it.

Twenty-four seats (six tables of four), three ordered alternates and three families, so
seating has households to keep apart; the three preliminary rounds are pre-seated. Names
are invented; dates of birth are fixed so the demo looks the same on every machine.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from .models import Event, Player
from .seating_services import preseat_event
from .services import Registration, event_create, player_register

DEMO_EVENT_NAME = "Boardwalk Demo Open"

# (first name, last name, family / household as typed, year of birth)
DEMO_PEOPLE = [
    ("Ada", "Marsh", "Marsh family", 1978),
    ("Ben", "Marsh", "Marsh family", 1980),
    ("Cleo", "Marsh", "marsh family ", 2008),
    ("Dev", "Patel", "Patel household", 1985),
    ("Esha", "Patel", "Patel household", 1987),
    ("Femi", "Adeyemi", "", 1992),
    ("Greta", "Lind", "", 1969),
    ("Hugo", "Moreau", "", 1975),
    ("Ines", "Costa", "Costa / Silva", 1990),
    ("Jonas", "Silva", "costa / silva", 1989),
    ("Kofi", "Mensah", "", 1983),
    ("Lena", "Vogel", "", 1995),
    ("Mateo", "Ruiz", "", 2001),
    ("Nora", "Quinn", "", 1999),
    ("Omar", "Haddad", "", 1972),
    ("Priya", "Nair", "", 1994),
    ("Quentin", "Blake", "", 1960),
    ("Rosa", "Ferri", "", 1981),
    ("Sami", "Koskinen", "", 1977),
    ("Tariq", "Aziz", "", 1998),
    ("Uma", "Bose", "", 2003),
    ("Victor", "Hale", "", 1966),
    ("Wen", "Zhao", "", 1991),
    ("Xavier", "Dumont", "", 1986),
    # Places are full after 24: these become alternates 1, 2 and 3.
    ("Yara", "Haddad", "", 1997),
    ("Zeno", "Papas", "", 1984),
    ("Alba", "Reyes", "", 2000),
]


@transaction.atomic
def load_demo_event() -> Event | None:
    """Create the demo event and its people, or return None if any event exists."""
    if Event.objects.exists():
        return None
    event = event_create(
        name=DEMO_EVENT_NAME,
        organization="Boardwalk Club",
        venue="Community Hall",
        address="1 Boardwalk, Atlantic City",
        date=timezone.localdate() + datetime.timedelta(days=14),
        start_time=datetime.time(10, 0),
        contact_name="Tournament Director",
        contact_email="director@example.org",
        charity="Children's Hospital",
        edition="classic-us",
        format="championship",
        expected_players=24,
    )
    for first, last, family, year in DEMO_PEOPLE:
        under_16 = event.date.year - year < 16
        player_register(
            event=event,
            registration=Registration(
                first_name=first,
                last_name=last,
                email=f"{first.lower()}.{last.lower()}@example.org",
                date_of_birth=datetime.date(year, 3, 14),
                signature=f"{first} {last}",
                family=family,
                eligibility_declared=True,
                citizenship_declared=True,
                publicity_consent=True,
                guardian_name="Ada Marsh" if under_16 else "",
                guardian_consent=under_16,
                city="Atlantic City",
            ),
            source=Player.Source.IMPORT,
        )
    # Pre-seated from the registrations, as a championship is before its day; judges
    # re-seat from the checked-in players on the morning.
    preseat_event(event=event, only_checked_in=False)
    return event
