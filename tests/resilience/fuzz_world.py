"""A tournament in the middle of its first round, for fuzzing every form against real rows.

Built through the services: twelve seated players and two alternates, two preliminary
rounds pre-seated, round 1 started (its clock running), table 1 finished with a signed
sheet that leaves a tie open, table 2 finished with nothing entered, table 3 still
playing, a custom announcement, a banker's private link, and one user per role.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass, field

from django.contrib.auth.models import Group, User

from banker.links import banker_link_issue
from clock.services import announcement_add, clock_start, table_mark_finished
from scoring.models import TableSheet
from scoring.services.sheets import sheet_submit
from scoring.services.signatures import sheet_sign
from seating.services import preseat_event
from series.models import SENIOR, Entrant, Series, SeriesEvent
from series.services import entrant_invite, series_add_event, series_create
from tests.builders import an_event, registered_players
from tournament.models import Announcement, Event, Player, Round, Table
from tournament.roles import (
    BANK,
    BANKER,
    HEAD_JUDGE,
    HEAD_JUDGE_PERMISSION,
    JUDGE,
    JUDGE_PERMISSION,
    MANAGE,
    ORGANIZER,
)

ROLE_OF_PERMISSION = {
    MANAGE: ORGANIZER,
    HEAD_JUDGE_PERMISSION: HEAD_JUDGE,
    JUDGE_PERMISSION: JUDGE,
    BANK: BANKER,
}


@dataclass
class World:
    event: Event
    round_1: Round
    round_2: Round
    signed_table: Table
    open_table: Table
    playing_table: Table
    seated: Player
    alternate: Player
    tied: list[Player]
    announcement: Announcement
    link_key: str
    series: Series
    series_member: SeriesEvent
    entrant: Entrant
    users: dict[str, User] = field(default_factory=dict)

    def url_kwargs(self) -> dict[str, object]:
        """A value for every URL parameter name the project's routes use."""
        return {
            "pk": self.event.pk,
            "player_pk": self.seated.pk,
            "round_number": 1,
            "number": 1,
            "table_number": self.signed_table.number,
            "table_pk": self.open_table.pk,
            "wave_pk": self.open_table.wave_id,
            "round_pk": self.round_1.pk,
            "announcement_pk": self.announcement.pk,
            "player_pk_alternate": self.alternate.pk,
            "key": self.link_key,
            "series_pk": self.series.pk,
            "division": SENIOR,
            "member_pk": self.series_member.pk,
            "entrant_pk": self.entrant.pk,
        }

    def user_for(self, permission: str | None) -> User | None:
        return self.users[ROLE_OF_PERMISSION[permission]] if permission else None


# The fuzz world's people: Fuzz0 Player, Fuzz1 Player, ...
FUZZ_PEOPLE = {
    "first_name": "Fuzz{n}",
    "last_name": "Player",
    "signature": "{first_name} {last_name}",
}


def _signed_sheet_with_an_open_tie(event: Event, table: Table) -> list[Player]:
    """Table 1: a valid sheet, two players level (an open tie), signed by all."""
    seated = list(table.seats.order_by("position").select_related("player"))
    players = [s.player for s in seated]
    cash = dict(zip(players, (3000, 2000, 2000, 1000), strict=True))
    sheet = sheet_submit(
        table=table,
        data={
            "edition": event.edition,
            "players": [{"id": str(p.pk), "bankrupt": False, "cash": c} for p, c in cash.items()],
            "properties": [],
        },
        expected_version=0,
        submission_key=uuid.uuid4(),
        by=None,
    )
    for player in players:
        sheet_sign(sheet=sheet, player=player, initials="AB", by=None)
    sheet_sign(sheet=sheet, initials="BNK", by=None)
    assert TableSheet.objects.get(pk=sheet.pk).is_locked
    return players


def _officials() -> dict[str, User]:
    users = {}
    for role in (ORGANIZER, HEAD_JUDGE, JUDGE, BANKER):
        user = User.objects.create_user(f"fuzz-{role.lower().replace(' ', '-')}", password="pw")
        user.groups.add(Group.objects.get(name=role))
        users[role] = user
    return users


def _series_apart() -> tuple[Series, SeriesEvent, Entrant]:
    """A series of its own: a regional apart from the world's event, whose
    ending (qualifiers, no same-day final) would otherwise change under the other routes."""
    finals = an_event(name="Fuzz Finals", date=datetime.date(2031, 9, 1), expected_players=16)
    series = series_create(name="Fuzz Series", season="2031", finals=finals)
    regional = an_event(name="Fuzz Regional", date=datetime.date(2031, 5, 1))
    series_member = series_add_event(series=series, event=regional)
    entrant = entrant_invite(
        series=series,
        division=SENIOR,
        first_name="Fuzz",
        last_name="Invitee",
        email="invitee@example.com",
        date_of_birth=datetime.date(1990, 1, 1),
        alias="Fuzz Invitee",
        reason="Last year's winner",
        by=None,
    )
    return series, series_member, entrant


def build_world() -> World:
    event = an_event(
        name="Fuzz Open",
        date=datetime.date(2031, 6, 1),
        expected_players=12,
        alternates=3,
        table_size_min=4,
        table_size_max=4,
        preliminary_rounds=2,
    )
    people = registered_players(event, count=14, checked_in=False, **FUZZ_PEOPLE)
    preseat_event(event=event, only_checked_in=False, time_limit=1.0)
    round_1 = Round.objects.get(event=event, number=1)
    round_2 = Round.objects.get(event=event, number=2)
    for wave in {t.wave for t in round_1.tables.all()}:
        clock_start(wave=wave)
    tables = list(Table.objects.filter(round=round_1).order_by("number"))
    signed, open_, playing = tables[0], tables[1], tables[2]
    table_mark_finished(table=signed)
    table_mark_finished(table=open_)

    players = _signed_sheet_with_an_open_tie(event, signed)

    announcement = announcement_add(round_=round_1, at_remaining_seconds=600, text="Lunch")
    link = banker_link_issue(table=open_, by=None)
    users = _officials()
    alternate = next(p for p in people if p.refresh_from_db() or p.status == "alternate")
    series, series_member, entrant = _series_apart()
    playing_player = playing.seats.order_by("position").first().player
    return World(
        event=event,
        round_1=round_1,
        round_2=round_2,
        signed_table=signed,
        open_table=open_,
        playing_table=playing,
        seated=playing_player,
        alternate=alternate,
        tied=players[1:3],
        announcement=announcement,
        link_key=link.key,
        series=series,
        series_member=series_member,
        entrant=entrant,
        users=users,
    )
