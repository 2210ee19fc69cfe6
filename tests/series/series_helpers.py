"""Regionals built and posted the way a hall fills them in, for the series tests.

Sheets hold cash only, so net worth is the cash written down and every standing can be
worked out by hand from the rule book's points table (Championship Rules, SCORING: four remaining
19/10/5/3).
"""

from __future__ import annotations

import datetime
import uuid

from django.utils import timezone

from scoring.models import TableSheet
from scoring.services.posting import round_post
from scoring.services.sheets import sheet_approve, sheet_submit
from scoring.services.signatures import sheet_sign
from scoring.services.ties import standings_tie_breakers_set
from series import services
from series.models import SENIOR
from tournament.models import Clock, Event, Player, Round, Seat, Table, Wave
from tournament.services import event_create

# The organizer's own order for these regionals: after points and games won, total net
# worth, so the cash written on the sheets decides the fourth place by hand. A regional
# left at ``None`` keeps the series' default: points, games won, then the head judge.
CASH_DECIDES = ("points", "wins", "net_worth")


# Twelve players, A to L: three tables of four at a regional.
LETTERS = "ABCDEFGHIJKL"


def regional(
    name: str,
    *,
    day: int,
    fmt: str = "championship",
    tie_breakers: tuple[str, ...] | None = CASH_DECIDES,
    **fields,
) -> Event:
    """A one-round event (so posting its one round is posting its last)."""
    event = event_create(
        name=name,
        format=fmt,
        organization="Boardwalk Club",
        venue="Hall",
        date=datetime.date(2030, 4, day),
        start_time=datetime.time(9, 30),
        preliminary_rounds=1,
        **fields,
    )
    if fmt == "championship" and tie_breakers is not None:
        standings_tie_breakers_set(event=event, keys=list(tie_breakers), by=None)
        event.refresh_from_db()
    return event


def enter(event: Event, aliases: str, *, emails: dict[str, str] | None = None) -> dict[str, Player]:
    """One player per letter; each letter's email is its own unless ``emails`` says."""
    emails = emails or {}
    born = datetime.date(2018, 1, 1) if event.format == "junior" else datetime.date(1990, 1, 1)
    return {
        alias: Player.objects.create(
            event=event,
            first_name=f"First{alias}",
            last_name=f"Last{event.pk}{alias}",
            email=emails.get(alias, f"{alias.lower()}{event.pk}@example.org"),
            date_of_birth=born,
            signature="Signed",
            signed_at=timezone.now(),
            alias=f"{alias}-{event.pk}",
            eligibility_declared=True,
            citizenship_declared=True,
            guardian_name="G" if event.format == "junior" else "",
            guardian_consent=event.format == "junior",
        )
        for alias in aliases
    }


def _sheet(table: Table, cash: dict[Player, int]) -> None:
    data = {
        "edition": "classic-us",
        "players": [{"id": str(p.pk), "bankrupt": False, "cash": c} for p, c in cash.items()],
        "properties": [],
    }
    sheet = TableSheet.objects.filter(table=table).first()
    sheet = sheet_submit(
        table=table,
        data=data,
        expected_version=sheet.version if sheet else 0,
        submission_key=uuid.uuid4(),
        by=None,
    )
    for player in cash:
        sheet_sign(sheet=sheet, player=player, initials="PL", by=None)
    sheet_sign(sheet=sheet, initials="BNK", by=None)
    sheet_approve(sheet=sheet, by=None)  # a judge approves it, as a championship posts


def play_round(event: Event, tables: list[dict[Player, int]], *, post: bool = True) -> Round:
    """Round 1 of ``event``: one table per dict (player → cash), signed, then posted."""
    round_ = Round.objects.create(event=event, number=1, started_at=timezone.now())
    wave = Wave.objects.create(round=round_, number=1)
    Clock.objects.create(
        wave=wave,
        duration_seconds=90 * 60,
        started_at=timezone.now() - datetime.timedelta(minutes=95),
    )
    for number, cash in enumerate(tables, start=1):
        table = Table.objects.create(
            round=round_, wave=wave, number=number, status=Table.Status.FINISHED
        )
        for position, player in enumerate(cash, start=1):
            Seat.objects.create(round=round_, table=table, player=player, position=position)
        _sheet(table, cash)
    if post:
        round_post(round_=round_, by=None)
    return round_


def three_tables(p: dict[str, Player], *, b: int = 3000, f: int = 2900, j: int = 2800) -> list:
    """Twelve players A-L at three tables of four; B, F and J come second at theirs.

    Points (Championship Rules: 19/10/5/3): A, E, I 19; B, F, J 10; C, G, K 5; D, H, L 3. The fourth
    place falls among B, F and J, whose cash decides it unless they are level."""
    return [
        {p["A"]: 4000, p["B"]: b, p["C"]: 2000, p["D"]: 1000},
        {p["E"]: 4100, p["F"]: f, p["G"]: 2000, p["H"]: 1000},
        {p["I"]: 4200, p["J"]: j, p["K"]: 2000, p["L"]: 1000},
    ]


def invite_previous_winner(series):
    """Championship Rules, World: "The previous World Tournament winner will also be
    invited": the organizer invites last year's champion into the senior Finals."""
    return services.entrant_invite(
        series=series,
        division=SENIOR,
        first_name="Previous",
        last_name="Winner",
        email="champ@example.org",
        date_of_birth=datetime.date(1980, 5, 5),
        alias="Old Champ",
        reason="Last year's champion",
        by=None,
    )
