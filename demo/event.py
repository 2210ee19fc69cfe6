"""The demo `make run` loads: a championship day with every screen populated, and beside it
a played club knockout and a junior event, so a newcomer sees all three formats.

The championship: forty places (ten tables of four), three ordered alternates and three
families, so seating has households to keep apart. By default the day has been played
through the real services by ``demo.simulation``: everyone checked in, three preliminary
rounds seated, clocked, scored from simulated games, signed, approved and posted, and the
final seated but not played. The club event (the Tournament Kit's knockout, ``demo.formats``):
thirty players at six tables of five, their six table winners in the final, played to its winner.
The junior event: twelve children, one game at three tables. A small championship series
(``demo.series_simulation``): two regionals of eight and two junior regionals qualifying
into its Finals and juniors' final, both played. ``play=False`` gives the
championship alone as it stands before its day (registered and pre-seated, nothing
played), which tests of seat changes need. Names are invented; dates of birth are fixed,
and the seeds are, so the demo looks the same on every machine.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from demo.formats import CLUB, JUNIOR, format_simulate
from demo.series_simulation import series_simulate
from demo.simulation import Officials, Person, event_build, event_simulate
from spectator.models import PAGES
from spectator.services import release_set
from tournament.models import Event
from tournament.roles import BANK, BANKER, HEAD_JUDGE, JUDGE, ORGANIZER, ensure_roles

DEMO_EVENT_NAME = "Boardwalk Demo Open"
DEMO_PLACES = 40
DEMO_SEED = 2024
# The kit's knockout at a size that fits it exactly: six tables of five, a final of six.
DEMO_CLUB_NAME = "Boardwalk Charity Knockout"
DEMO_CLUB_PLACES = 30
DEMO_JUNIOR_NAME = "Boardwalk Junior Cup"
DEMO_JUNIOR_PLACES = 12
DEMO_SERIES_NAME = "Boardwalk Demo Series"
DEMO_SERIES_REGIONALS = 2
DEMO_SERIES_PLACES = 8

# (first name, last name, family / household as typed, year of birth)
DEMO_PEOPLE = [
    Person(*person)
    for person in [
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
        ("Bruno", "Okafor", "", 1979),
        ("Carys", "Brandt", "", 1993),
        ("Dario", "Lucero", "", 1988),
        ("Elin", "Tamm", "", 1996),
        ("Farid", "Varga", "", 1971),
        ("Gemma", "Ilves", "", 2002),
        ("Hiro", "Sato", "", 1984),
        ("Jules", "Fontaine", "", 1974),
        ("Kira", "Novak", "", 1997),
        ("Luca", "Bianchi", "", 1982),
        ("Maya", "Lindqvist", "", 2000),
        ("Nils", "Berg", "", 1968),
        ("Olga", "Petrova", "", 1990),
        ("Pablo", "Ortega", "", 1986),
        ("Rhea", "Kapoor", "", 1999),
        ("Soren", "Dahl", "", 1963),
        # Places are full after 40: these become alternates 1, 2 and 3.
        ("Yara", "Haddad", "", 1997),
        ("Zeno", "Papas", "", 1984),
        ("Alba", "Reyes", "", 2000),
    ]
]

# Demo officials: username (also the password, when logins are made) and role.
DEMO_OFFICIALS = (
    ("organizer", ORGANIZER),
    ("headjudge", HEAD_JUDGE),
    ("judge", JUDGE),
    ("banker", BANKER),
)


def demo_officials(*, logins: bool) -> Officials:
    """The officials the demo's recorded actions are by, one per role.

    With ``logins`` (the caller passes ``settings.DEBUG``) each new account's password is
    its username, so a developer can sign in as any role; otherwise the accounts get an
    unusable password and exist only to be named in the records. An account that already
    exists is used as it is and never changed (its banker only if it may bank).
    """
    ensure_roles()
    User = get_user_model()
    users = {}
    for username, role in DEMO_OFFICIALS:
        user, created = User.objects.get_or_create(
            username=username, defaults={"first_name": role, "last_name": "(demo)"}
        )
        if created:
            if logins:
                user.set_password(username)
            else:
                user.set_unusable_password()
            user.save()
            user.groups.add(Group.objects.get(name=role))
        users[role] = user
    banker = users[BANKER]
    return Officials(
        organizer=users[ORGANIZER],
        head_judge=users[HEAD_JUDGE],
        judge=users[JUDGE],
        banker=banker if banker.has_perm(BANK) else None,
    )


@transaction.atomic
def load_demo_event(*, play: bool = True) -> Event | None:
    """Create the demo events and return the championship, or None if any event exists
    (``make run`` repeats).

    ``play=False`` makes the championship alone and stops after registration and
    pre-seating, two weeks ahead, as a championship stands before its day.
    """
    if Event.objects.exists():
        return None
    if play:
        officials = demo_officials(logins=settings.DEBUG)
        event = event_simulate(
            players=DEMO_PLACES,
            seed=DEMO_SEED,
            people=DEMO_PEOPLE,
            name=DEMO_EVENT_NAME,
            officials=officials,
        ).event
        # A played day with its public site released, so a newcomer sees every public page
        # filled in (publishing and posting released most of them already).
        release_set(event=event, pages=dict.fromkeys(PAGES, True), by=officials.organizer)
        for format, name, places in (
            (CLUB, DEMO_CLUB_NAME, DEMO_CLUB_PLACES),
            (JUNIOR, DEMO_JUNIOR_NAME, DEMO_JUNIOR_PLACES),
        ):
            format_simulate(
                format=format, players=places, seed=DEMO_SEED, officials=officials, name=name
            )
        # A small season: two regionals of eight and two junior regionals (two
        # juniors each, so the juniors' final has its table of four) into played finals.
        series_simulate(
            regionals=DEMO_SERIES_REGIONALS,
            players=DEMO_SERIES_PLACES,
            seed=DEMO_SEED,
            officials=officials,
            name=DEMO_SERIES_NAME,
            junior_places=2,
        )
        return event
    start = timezone.make_aware(
        datetime.datetime.combine(
            timezone.localdate() + datetime.timedelta(days=14), datetime.time(10, 0)
        )
    )
    return event_build(
        name=DEMO_EVENT_NAME, people=DEMO_PEOPLE, places=DEMO_PLACES, start=start, seed=DEMO_SEED
    )
