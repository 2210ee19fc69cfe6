"""What the printouts read from the event: sheets, waves, players."""

from __future__ import annotations

from dataclasses import dataclass

from printouts.sheets import SheetPage, blank_page, filled_page
from scoring.models import SheetSignature, TableSheet
from tournament.formats import event_edition
from tournament.models import Event, Player, Round, Seat, Table

PARTICIPANTS_PER_SHEET = 12  # the kit's form has twelve lines


def blank_round_pages(*, event: Event, round_: Round) -> list[SheetPage]:
    """One blank sheet per seat of the round, in table and seat order."""
    edition = event_edition(event=event)
    seats = (
        Seat.objects.filter(round=round_)
        .select_related("table", "player")
        .order_by("table__number", "position")
    )
    return [
        blank_page(edition, player=seat.player, seat=seat, table=seat.table, round=round_)
        for seat in seats
    ]


def filled_table_pages(*, event: Event, table: Table) -> list[SheetPage]:
    """The table's sheets as the banker entered them, with initials and approval."""
    edition = event_edition(event=event)
    sheet = TableSheet.objects.filter(table=table).first()
    data = sheet.data if sheet else {}
    signatures = list(sheet.signatures.all()) if sheet else []
    banker = next((s.initials for s in signatures if s.role == SheetSignature.Role.BANKER), "")
    by_player = {s.player_id: s.initials for s in signatures if s.player_id}
    extras = {}
    if sheet and sheet.approved_at:
        extras = {"approved": sheet.approved_at, "approved_by": sheet.approved_by or "a judge"}
    pages = []
    for seat in table.seats.select_related("player").order_by("position"):
        page = filled_page(
            edition,
            data,
            str(seat.player_id),
            player=seat.player,
            seat=seat,
            table=table,
            round=table.round,
        )
        page.signature = by_player.get(seat.player_id, "")
        page.banker_signature = banker
        page.extras = extras
        pages.append(page)
    return pages


def player_filled_pages(*, event: Event, player: Player) -> list[SheetPage]:
    """The player's own filled sheet of every round they were seated in."""
    pages = []
    for seat in player.seats.select_related("table__round").order_by("round__number"):
        pages += [
            page
            for page in filled_table_pages(event=event, table=seat.table)
            if page.player is not None and page.player.pk == player.pk
        ]
    return pages


def assignment_waves(round_: Round, wave_number: int | None = None) -> list:
    """The round's waves, each with its seats in table and seat order."""
    waves = list(round_.waves.order_by("number"))
    if wave_number is not None:
        waves = [wave for wave in waves if wave.number == wave_number]
    for wave in waves:
        # Read by the template; a model instance takes no attribute the type checker knows.
        wave.seats = list(  # type: ignore[attr-defined]
            Seat.objects.filter(table__wave=wave)
            .select_related("table", "player")
            .order_by("table__number", "position")
        )
    return waves


def registered_players(event: Event):
    return event.players.exclude(status=Player.Status.WITHDRAWN).order_by(
        "last_name", "first_name", "pk"
    )


def postal_address(player) -> str:
    parts = [
        player.address,
        player.city,
        " ".join(p for p in (player.region, player.postal_code) if p),
    ]
    return ", ".join(part for part in parts if part)


def participant_pages(
    players: list, per_page: int = PARTICIPANTS_PER_SHEET, *, grant: bool = True, start: int = 1
) -> list[dict]:
    """The players in sheets of ``per_page`` lines, numbered from ``start``; the last sheet
    is padded with blank lines for walk-ins, and no players at all still gives one blank
    sheet. ``grant``: the sheets carry the kit's publicity grant (every line's player gave
    it); otherwise they leave it out."""
    rows = [
        {"number": number, "name": player.full_name, "address": postal_address(player)}
        for number, player in enumerate(players, start=start)
    ]
    while not rows or len(rows) % per_page:
        rows.append({"number": start + len(rows), "name": "", "address": ""})
    return [
        {"number": index // per_page + 1, "rows": rows[index : index + per_page], "grant": grant}
        for index in range(0, len(rows), per_page)
    ]


def participant_sheets(players: list, per_page: int = PARTICIPANTS_PER_SHEET) -> list[dict]:
    """The Participant Registration Form's sheets: those who gave the kit's publicity grant
    ("I give Hasbro the right to use ... my name and any photographs of me") sign under it;
    those who did not sign sheets of their own that leave it out, never under the grant."""
    granted = [p for p in players if p.publicity_consent]
    declined = [p for p in players if not p.publicity_consent]
    pages = participant_pages(granted, per_page) if granted or not declined else []
    if declined:
        start = len(pages) * per_page + 1
        pages += participant_pages(declined, per_page, grant=False, start=start)
    for number, page in enumerate(pages, start=1):
        page["number"] = number
    return pages


@dataclass(frozen=True)
class ReturnTo:
    """The kit's "Please return to:" block, with whoever the organizer named."""

    name: str
    lines: list[str]
    fax: str


def forms_return_to(event: Event) -> ReturnTo | None:
    """Where the signed forms go (the event's setting), or None when nobody is named.

    The kit prints Hasbro's 1990s address here; a form without a setting prints no block,
    never that one, and the printouts page tells the organizer to fill it in.
    """
    lines = [line.strip() for line in event.forms_return_address.splitlines() if line.strip()]
    name, fax = event.forms_return_name.strip(), event.forms_return_fax.strip()
    if not (name or lines or fax):
        return None
    return ReturnTo(name=name, lines=lines, fax=fax)
