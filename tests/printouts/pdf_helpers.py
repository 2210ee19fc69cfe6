"""Reading the printouts back: text with pypdf, and where it sits with pdfium.

A composed score sheet page (printouts/stamps.py) draws its own entries in one content stream
and the shared grid in another, so the text of a page comes out of a PDF in two runs.
``reader_lines`` reads the page as a reader does instead: the words where they are printed,
grouped into lines by height and ordered left to right.
"""

from __future__ import annotations

import datetime
import re
import uuid
from dataclasses import dataclass

import pypdfium2 as pdfium
import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from scoring.models import SheetSignature, TableSheet
from tournament.models import Player, Round, Seat, Table, Wave
from tournament.roles import ORGANIZER

# What `from pdf_helpers import *` brings a test module: the fixtures (functions are imported
# by name; a fixture imported by name reads as shadowed where a test takes it).
__all__ = ["filled", "organizer_client", "seated"]

# The kit's "Please return to:" (Tournament Kit, pages 19 and 21), never to be printed: the
# forms carry the organizer's own return address.
KIT_RETURN_ADDRESS = "443 Shaker Road"

PEOPLE = [
    ("Ada", "Lovelace", "Lucky Thimble"),
    ("Bo", "Diddley", "Top Hat"),
    ("Cy", "Young", "Race Car"),
    ("Di", "Prince", "Old Boot"),
    ("Ed", "Sheeran", "Scottie Dog"),
    ("Flo", "Rida", "Iron"),
    ("Gus", "Grissom", "Wheelbarrow"),
    ("Hal", "Holbrook", "Battleship"),
]


def pdf_pages(content: bytes) -> list[str]:
    """Each page's text, in the order it is drawn (pdfium: pypdf took a third of a second
    a page, which made reading a round's sheets back the slowest part of these tests)."""
    document = pdfium.PdfDocument(content)
    return [page.get_textpage().get_text_range() for page in document]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@dataclass
class Word:
    text: str
    left: float
    right: float
    middle: float  # height of the line's middle, PDF points from the bottom


def page_words(content: bytes, index: int = 0) -> list[Word]:
    """The printed words of a page with their boxes (pdfium's font-height boxes)."""
    document = pdfium.PdfDocument(content)
    text = document[index].get_textpage()
    words: list[Word] = []
    current: Word | None = None
    count, i = text.count_chars(), 0
    while i < count:
        char, left_box = text.get_text_range(i, 1), i
        i += 1
        if not char and i < count:  # half of a surrogate pair (an emoji): read both
            char = text.get_text_range(i - 1, 2)
            i += 1
        if not char.strip():
            current = None
            continue
        left, bottom, right, top = text.get_charbox(left_box, loose=True)
        middle = (bottom + top) / 2
        # Ligatures ("fi") give their letters overlapping boxes; a gap over 3 pt is a new word.
        near = current and current.left - 1 <= left and left - current.right < 3
        if near and abs(current.middle - middle) < 1:
            current.text += char
            current.right = right
        else:
            current = Word(char, left, right, middle)
            words.append(current)
    return words


def reader_lines(content: bytes, index: int = 0) -> list[str]:
    """The page's text as printed: top to bottom, each line's words left to right."""
    lines: list[list[Word]] = []
    for word in sorted(page_words(content, index), key=lambda word: -word.middle):
        if lines and abs(lines[-1][0].middle - word.middle) < 3:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [" ".join(w.text for w in sorted(line, key=lambda w: w.left)) for line in lines]


def line_starting(lines: list[str], start: str) -> str:
    for line in lines:
        if line.startswith(start):
            return line
    raise AssertionError(f"no line starting {start!r} in:\n" + "\n".join(lines))


def amounts(line: str) -> list[int]:
    """The amounts printed on a line ($1,400, Rs1,400, 7), in reading order; words that are
    not amounts ("X", labels) are skipped."""
    found = []
    for word in line.split():
        number = re.fullmatch(r"(?:\$|Rs|£|₹)?(\d[\d,]*)", word)
        if number:
            found.append(int(number[1].replace(",", "")))
    return found


@pytest.fixture
def organizer_client(client, db):
    user = User.objects.create_user("olive", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    return client


@pytest.fixture
def seated(event):
    """Round 1 with two tables of four, every player seated."""
    round_ = Round.objects.create(event=event, number=1)
    wave = Wave.objects.create(round=round_, number=1)
    tables = [Table.objects.create(round=round_, wave=wave, number=n) for n in (1, 2)]
    players = []
    for index, (first, last, alias) in enumerate(PEOPLE):
        player = Player.objects.create(
            event=event,
            first_name=first,
            last_name=last,
            address=f"{index + 1} Baltic Avenue",
            city="Atlantic City",
            date_of_birth=datetime.date(1990, 1, 1),
            signature=f"{first} {last}",
            signed_at=timezone.now(),
            alias=alias,
        )
        Seat.objects.create(
            round=round_, table=tables[index // 4], player=player, position=index % 4 + 1
        )
        players.append(player)
    return round_, tables, players


@pytest.fixture
def filled(event, seated):
    """Table 1's approved sheet: Ada with a hotel, 3 houses and a mortgage; Di bankrupt."""
    round_, tables, players = seated
    table = tables[0]
    ada, bo, cy, di = players[:4]
    sheet = TableSheet.objects.create(
        table=table,
        status=TableSheet.Status.APPROVED,
        approved_at=timezone.now(),
        data={
            "edition": "classic-us",
            "players": [
                {"id": str(ada.pk), "bankrupt": False, "bills": {"500": 2, "100": 3, "20": 4}},
                {"id": str(bo.pk), "bankrupt": False, "cash": 1340},
                {"id": str(cy.pk), "bankrupt": False, "cash": 10},
                {"id": str(di.pk), "bankrupt": True, "out_order": 1},
            ],
            "properties": [
                {"position": 39, "owner": str(ada.pk), "hotel": True},
                {"position": 37, "owner": str(ada.pk), "houses": 3},
                {"position": 5, "owner": str(ada.pk), "mortgaged": True},
                {"position": 1, "owner": str(bo.pk)},
            ],
        },
    )
    now = timezone.now()
    SheetSignature.objects.create(
        sheet=sheet, player=ada, role="player", initials="AL", signed_at=now
    )
    SheetSignature.objects.create(sheet=sheet, role="banker", initials="BNK", signed_at=now)
    return table, players


def post_final(event, cash: dict) -> Table:
    """A final played, signed and posted through the services; ``cash`` per finalist, best
    first, cash only so each net worth is the amount given."""
    from scoring.services.posting import round_post
    from scoring.services.sheets import sheet_approve, sheet_submit
    from scoring.services.signatures import sheet_sign
    from tournament.models import Clock

    round_ = Round.objects.create(
        event=event, number=9, kind=Round.Kind.FINAL, started_at=timezone.now()
    )
    wave = Wave.objects.create(round=round_, number=1)
    Clock.objects.create(
        wave=wave,
        duration_seconds=90 * 60,
        started_at=timezone.now() - datetime.timedelta(minutes=95),
    )
    table = Table.objects.create(round=round_, wave=wave, number=1, status=Table.Status.FINISHED)
    for position, player in enumerate(cash, start=1):
        Seat.objects.create(round=round_, table=table, player=player, position=position)
    data = {
        "edition": "classic-us",
        "players": [{"id": str(p.pk), "bankrupt": False, "cash": c} for p, c in cash.items()],
        "properties": [],
    }
    sheet = sheet_submit(
        table=table, data=data, expected_version=0, submission_key=uuid.uuid4(), by=None
    )
    for player in cash:
        sheet_sign(sheet=sheet, player=player, initials=player.alias[:2], by=None)
    sheet_sign(sheet=sheet, initials="BNK", by=None)
    sheet_approve(sheet=sheet, by=None)  # a judge approves it: a championship posts then
    round_post(round_=round_, by=None)
    return table
