"""The printouts: PDFs of the kit's forms, read back as text and checked value by value."""

from __future__ import annotations

import datetime
import io
import re

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from gameplay.edition import load_edition
from printouts.pdf import render_pdf
from printouts.sheets import blank_page, columns, deed_values, filled_page
from scoring.models import SheetSignature, TableSheet
from tournament.models import Player, Round, Seat, Table, Wave
from tournament.roles import JUDGE, ORGANIZER

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
    reader = PdfReader(io.BytesIO(content))
    return [page.extract_text() or "" for page in reader.pages]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def row_numbers(text: str, name: str) -> list[int]:
    """The amounts printed on the line of a title deed, in column order."""
    for line in text.splitlines():
        if line.strip().startswith(name):
            rest = line.strip()[len(name) :]
            return [int(x.replace(",", "")) for x in re.findall(r"\d[\d,]*", rest)]
    raise AssertionError(f"no line for {name!r} in:\n{text}")


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


# --- the values of the sheet, without a PDF ---------------------------------------------


def test_boardwalk_values_classic_us():
    edition = load_edition("classic-us")
    boardwalk = edition.spaces[39]
    assert deed_values(boardwalk, edition) == [200, 400, 600, 800, 1000, 1200, 1400]


def test_boardwalk_values_three_house_edition():
    edition = load_edition("india-rupee")
    assert edition.houses_per_hotel == 3
    boardwalk = edition.spaces[39]
    # mortgaged, owned, 1-3 houses, hotel = price + hotel_value = price + 4 house costs
    assert deed_values(boardwalk, edition) == [200, 400, 600, 800, 1000, 1200]
    assert columns(edition)[-1] == "With a hotel"
    assert len(columns(edition)) == 2 + 3 + 1


def test_railroad_has_only_mortgaged_and_owned():
    edition = load_edition("classic-us")
    reading = edition.spaces[5]
    assert deed_values(reading, edition) == [100, 200, None, None, None, None, None]


# --- 1. blank score sheets ---------------------------------------------------------------


def test_blank_sheet_pdf_lists_every_deed_with_its_values(organizer_client, event):
    response = organizer_client.get(reverse("printouts:blank_score_sheet", kwargs={"pk": event.pk}))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    pages = pdf_pages(response.content)
    assert len(pages) == 1
    text = pages[0]
    edition = load_edition("classic-us")
    for deed in edition.deeds:
        assert deed.name in text
    assert row_numbers(text, "Boardwalk") == [200, 400, 600, 800, 1000, 1200, 1400]
    assert row_numbers(text, "Mediterranean Avenue") == [30, 60, 110, 160, 210, 260, 310]
    flat = squash(text)
    for label in ("Total Property (A)", "Total Cash (B)", "Grand Total (A+B)"):
        assert label in flat
    assert "Player's signature" in flat and "Banker's signature" in flat
    assert "$1,400" in flat and "Spring Championship" in flat
    # bill rows with their values
    for bill in ("$500", "$100", "$50", "$20", "$10", "$5", "$1"):
        assert bill in flat


def test_blank_sheet_in_a_three_house_edition(organizer_client, event):
    event.edition = "india-rupee"
    event.save()
    response = organizer_client.get(reverse("printouts:blank_score_sheet", kwargs={"pk": event.pk}))
    text = pdf_pages(response.content)[0]
    assert row_numbers(text, "Boardwalk") == [200, 400, 600, 800, 1000, 1200]
    assert "Rs1,200" in text
    assert "With 4 houses" not in squash(text)
    assert "With 3 houses" in squash(text)


def test_round_batch_one_sheet_per_seat_named_by_table_and_seat(organizer_client, event, seated):
    url = reverse("printouts:round_score_sheets", kwargs={"pk": event.pk, "number": 1})
    response = organizer_client.get(url)
    assert response.status_code == 200
    assert "round-1-score-sheets.pdf" in response["Content-Disposition"]
    pages = [squash(page) for page in pdf_pages(response.content)]
    assert len(pages) == 8
    for index, (first, last, alias) in enumerate(PEOPLE):
        page = pages[index]
        table, seat = index // 4 + 1, index % 4 + 1
        assert f"Table {table}" in page, page[:300]
        assert f"Seat {seat}" in page
        assert "Round 1" in page
        assert f"{first} {last} ({alias})" in page


def test_paper_size_follows_the_event(organizer_client, event):
    url = reverse("printouts:blank_score_sheet", kwargs={"pk": event.pk})
    a4 = PdfReader(io.BytesIO(organizer_client.get(url).content)).pages[0].mediabox
    assert (round(float(a4.width)), round(float(a4.height))) == (595, 842)
    event.paper_size = "letter"
    event.save()
    letter = PdfReader(io.BytesIO(organizer_client.get(url).content)).pages[0].mediabox
    assert (round(float(letter.width)), round(float(letter.height))) == (612, 792)


# --- 2. filled score sheets --------------------------------------------------------------


@pytest.fixture
def filled(event, seated):
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


def test_filled_page_totals_use_gameplay_valuation(event, filled):
    table, players = filled
    sheet = TableSheet.objects.get(table=table)
    page = filled_page(load_edition("classic-us"), sheet.data, str(players[0].pk))
    # Boardwalk with a hotel 1400, Park Place with 3 houses 350+600, Reading mortgaged 100
    assert page.total_property == 1400 + 950 + 100
    assert page.total_cash == 1000 + 300 + 80
    assert page.grand_total == 2450 + 1380
    marked = {
        row.deed.name: [c.marked for c in row.cells].index(True) for row in page.rows if row.value
    }
    assert marked == {"Reading Railroad": 0, "Park Place": 4, "Boardwalk": 6}


def test_filled_table_pdf_carries_marks_counts_totals_and_signatures(
    organizer_client, event, filled
):
    table, players = filled
    url = reverse("printouts:table_score_sheets", kwargs={"pk": event.pk, "table_pk": table.pk})
    response = organizer_client.get(url)
    assert response.status_code == 200
    pages = pdf_pages(response.content)
    assert len(pages) == 4
    ada = pages[0]
    # the marked cell, then the row's value at the end of the line
    assert row_numbers(ada, "Boardwalk") == [200, 400, 600, 800, 1000, 1200, 1400, 1400]
    assert "X $1,400" in ada
    assert row_numbers(ada, "Park Place") == [175, 350, 550, 750, 950, 1150, 1350, 950]
    assert "X $950" in ada
    flat = squash(ada)
    assert "Total Property (A) $2,450" in flat
    assert "Total Cash (B) $1,380" in flat
    assert "Grand Total (A+B) $3,830" in flat
    assert "AL" in flat and "BNK" in flat and "Approved by" in flat
    bo = squash(pages[1])
    assert "Total Property (A) $60" in bo and "Total Cash (B) $1,340" in bo
    assert "Grand Total (A+B) $1,400" in bo
    assert "Bankrupt yes" in squash(pages[3])


def test_filled_table_without_a_sheet_prints_zero_totals(organizer_client, event, seated):
    _, tables, _ = seated
    url = reverse("printouts:table_score_sheets", kwargs={"pk": event.pk, "table_pk": tables[1].pk})
    pages = pdf_pages(organizer_client.get(url).content)
    assert len(pages) == 4
    assert "Grand Total (A+B) $0" in squash(pages[0])


# --- access, index page, rendering -------------------------------------------------------


def test_printouts_are_organizer_only(client, event, seated):
    urls = [
        reverse("printouts:index", kwargs={"pk": event.pk}),
        reverse("printouts:blank_score_sheet", kwargs={"pk": event.pk}),
        reverse("printouts:round_score_sheets", kwargs={"pk": event.pk, "number": 1}),
        reverse(
            "printouts:table_score_sheets", kwargs={"pk": event.pk, "table_pk": seated[1][0].pk}
        ),
    ]
    for url in urls:
        assert client.get(url).status_code == 302  # to the login page
    judge = User.objects.create_user("jules", password="pw")
    judge.groups.add(Group.objects.get(name=JUDGE))
    client.force_login(judge)
    for url in urls:
        assert client.get(url).status_code == 403


def test_index_links_every_printout_and_dashboard_links_index(organizer_client, event, seated):
    index = reverse("printouts:index", kwargs={"pk": event.pk})
    html = organizer_client.get(index).content.decode()
    assert reverse("printouts:round_score_sheets", kwargs={"pk": event.pk, "number": 1}) in html
    for table in seated[1]:
        url = reverse("printouts:table_score_sheets", kwargs={"pk": event.pk, "table_pk": table.pk})
        assert url in html
    for name in ("event_registration", "participant_registration", "poster", "blank_score_sheet"):
        assert reverse(f"printouts:{name}", kwargs={"pk": event.pk}) in html
    for name in ("assignments_organizer", "assignments_public", "table_cards"):
        assert reverse(f"printouts:{name}", kwargs={"pk": event.pk, "number": 1}) in html
    assert "Lovelace (Lucky Thimble)" in html  # the winner picker
    dashboard = organizer_client.get(reverse("tournament:organizer_dashboard")).content.decode()
    assert index in dashboard


def test_score_sheet_renders_to_a_non_blank_png(event):
    pdfium = pytest.importorskip("pypdfium2")
    sheets = [blank_page(load_edition(event.edition))]
    pdf = render_pdf(
        "printouts/score_sheets.html",
        {"event": event, "page_size": "A4", "footer": "", "sheets": sheets},
    )
    document = pdfium.PdfDocument(pdf)
    image = document[0].render(scale=1).to_pil().convert("L")
    png = io.BytesIO()
    image.save(png, format="PNG")
    assert png.getvalue().startswith(b"\x89PNG")
    histogram = image.histogram()
    dark = sum(histogram[:128])
    width, height = image.size
    assert abs(width - 595) <= 1 and abs(height - 842) <= 1  # A4 in points
    # a sheet of lines and numbers: well over one percent ink, far from all black
    assert 0.01 * image.size[0] * image.size[1] < dark < 0.5 * image.size[0] * image.size[1]


# --- 3. table assignments ----------------------------------------------------------------


def test_assignments_organizer_copy_has_names_public_copy_aliases_only(
    organizer_client, event, seated
):
    kwargs = {"pk": event.pk, "number": 1}
    organizer = squash(
        " ".join(
            pdf_pages(
                organizer_client.get(
                    reverse("printouts:assignments_organizer", kwargs=kwargs)
                ).content
            )
        )
    )
    public_response = organizer_client.get(reverse("printouts:assignments_public", kwargs=kwargs))
    assert public_response.status_code == 200
    public = squash(" ".join(pdf_pages(public_response.content)))
    for index, (first, last, alias) in enumerate(PEOPLE):
        table, seat = index // 4 + 1, index % 4 + 1
        assert f"{table} {seat} {first} {last} {alias}" in organizer
        assert f"{table} {seat} {alias}" in public
        assert f"{first} {last}" not in public
        assert not re.search(rf"\b({first}|{last})\b", public), (first, last)
    assert "organizer's copy" in organizer and "organizer's copy" not in public


def test_long_assignment_list_repeats_its_header_on_every_page(organizer_client, event):
    round_ = Round.objects.create(event=event, number=2)
    waves = [Wave.objects.create(round=round_, number=n) for n in (1, 2)]
    for number in range(1, 31):
        table = Table.objects.create(round=round_, wave=waves[number > 25], number=number)
        for position in range(1, 5):
            player = Player.objects.create(
                event=event,
                first_name=f"First{number}",
                last_name=f"Last{position}",
                date_of_birth=datetime.date(1990, 1, 1),
                signature="x",
                signed_at=timezone.now(),
                alias=f"Token {number}-{position}",
            )
            Seat.objects.create(round=round_, table=table, player=player, position=position)
    url = reverse("printouts:assignments_public", kwargs={"pk": event.pk, "number": 2})
    pages = pdf_pages(organizer_client.get(url).content)
    assert len(pages) >= 3  # wave 1 (100 seats) runs over two pages; wave 2 starts a page
    for page in pages:
        assert "Table Seat Alias" in squash(page)
    everything = squash(" ".join(pages))
    assert "Wave 1" in everything and "Wave 2" in everything
    assert "30 4 Token 30-4" in everything
    # one wave only
    one = pdf_pages(organizer_client.get(url + "?wave=2").content)
    assert len(one) == 1 and "Token 26-1" in one[0] and "Token 25-1" not in one[0]


# --- 4. registration forms ---------------------------------------------------------------


def test_event_registration_form_is_filled_from_the_event(organizer_client, event):
    event.contact_name = "Rich Uncle"
    event.contact_email = "director@example.org"
    event.contact_title = "Club Secretary"
    event.contact_phone = "555-0100"
    event.contact_fax = "555-0199"
    event.charity = "Food Bank"
    event.expected_players = 48
    event.save()
    response = organizer_client.get(
        reverse("printouts:event_registration", kwargs={"pk": event.pk})
    )
    assert response.status_code == 200
    text = squash(" ".join(pdf_pages(response.content)))
    for expected in (
        "Event Registration Form",
        "Name Rich Uncle",
        "Title Club Secretary",
        "Fax 555-0199",
        "Name of Organization Atlantic Avenue Club",
        "Place of Tournament Library Annex",
        "Date of Tournament 2030-04-20",
        "Number of players expected 48",
        "Charity Food Bank",
        "director@example.org",
        "555-0100",
        "Tournament Director Signature",
        "agree to abide by all of the requirements",
    ):
        assert expected in text, expected


@pytest.mark.parametrize("count, sheets", [(0, 1), (8, 1), (12, 1), (13, 2), (30, 3)])
def test_participant_form_paginates_any_number_of_players(organizer_client, event, count, sheets):
    for index in range(count):
        Player.objects.create(
            event=event,
            first_name=f"Given{index:02d}",
            last_name=f"Family{index:02d}",
            address=f"{index} Marvin Gardens",
            city="Atlantic City",
            date_of_birth=datetime.date(1990, 1, 1),
            signature="x",
            signed_at=timezone.now(),
            alias=f"Token {index}",
        )
    url = reverse("printouts:participant_registration", kwargs={"pk": event.pk})
    pages = [squash(page) for page in pdf_pages(organizer_client.get(url).content)]
    assert len(pages) == sheets
    for number, page in enumerate(pages, start=1):
        assert "Participant Registration Form" in page
        assert "Name of Organization Atlantic Avenue Club" in page
        assert "I, the undersigned, wish to register" in page
        assert "my name and any photographs of me" in page
        assert "Name (please print) Address Signature" in page
        assert f"Sheet {number} of {sheets}" in page
    everything = " ".join(pages)
    for index in range(count):
        assert (
            f"Given{index:02d} Family{index:02d} {index} Marvin Gardens, Atlantic City"
            in everything
        )
        assert f"Token {index}" not in everything
    # each name on exactly one sheet, twelve lines a sheet
    if count == 13:
        assert "Given11" in pages[0] and "Given12" in pages[1] and "Given12" not in pages[0]


# --- 5. winner notification --------------------------------------------------------------


def test_winner_notification_is_filled_and_carries_the_winners_sheets(
    organizer_client, event, filled
):
    table, players = filled
    ada = players[0]
    ada.telephone = "555-0199"
    ada.save()
    event.money_raised = 1234.5
    event.charity = "Food Bank"
    event.save()
    url = reverse("printouts:winner_notification", kwargs={"pk": event.pk, "player_pk": ada.pk})
    response = organizer_client.get(url)
    assert response.status_code == 200
    pages = pdf_pages(response.content)
    assert len(pages) == 2  # the form, then the one round Ada played
    form = squash(pages[0])
    for expected in (
        "Winner Notification Form",
        "Winner's Name Ada Lovelace",
        "Address 1 Baltic Avenue, Atlantic City",
        "Telephone 555-0199",
        "Name of Organization Atlantic Avenue Club",
        "Place of Tournament Library Annex",
        "Date of Tournament 2030-04-20",
        "Money Raised for Charity $1,234.50 (Food Bank)",
        "Please attach photo of winner",
        "(1 sheet)",
    ):
        assert expected in form, expected
    sheet = squash(pages[1])
    assert "Ada Lovelace (Lucky Thimble)" in sheet
    assert "Grand Total (A+B) $3,830" in sheet
    assert "Diddley" not in " ".join(pages)
    choose = reverse("printouts:winner_notification_choose", kwargs={"pk": event.pk})
    assert organizer_client.get(choose, {"player": ada.pk})["Location"] == url


# --- 6. table cards and the poster ---------------------------------------------------------


def test_table_cards_carry_the_banker_link_in_force(organizer_client, event, seated):
    from scoring.models import BankerLink

    _, tables, _ = seated
    link = BankerLink.objects.create(table=tables[0], key="k" * 32)
    BankerLink.objects.create(table=tables[0], key="old" * 10, revoked_at=timezone.now())
    url = reverse("printouts:table_cards", kwargs={"pk": event.pk, "number": 1})
    response = organizer_client.get(url)
    assert response.status_code == 200
    pages = [squash(page) for page in pdf_pages(response.content)]
    assert len(pages) == 2
    assert "Table 1" in pages[0] and "Table 2" in pages[1]
    open_url = "http://testserver" + reverse("scoring:banker_link_open", kwargs={"key": link.key})
    assert open_url in pages[0].replace(" ", "")
    assert "old" * 10 not in " ".join(pages)
    assert "No banker link is in force" in pages[1]
    assert BankerLink.objects.filter(table=tables[1]).count() == 0  # printing issues nothing


def test_poster_links_the_public_page_with_a_qr_code(organizer_client, event):
    pdfium = pytest.importorskip("pypdfium2")
    response = organizer_client.get(reverse("printouts:poster", kwargs={"pk": event.pk}))
    assert response.status_code == 200
    text = squash(pdf_pages(response.content)[0])
    assert "Spring Championship" in text and "Library Annex" in text
    assert "http://testserver" + event.get_absolute_url() in text.replace(" ", "")
    # the QR code is drawn: the poster's lower half carries a block of dark modules
    image = pdfium.PdfDocument(response.content)[0].render(scale=1).to_pil().convert("L")
    width, height = image.size
    qr_area = image.crop((width // 4, height // 2, 3 * width // 4, height))
    dark = sum(qr_area.histogram()[:128])
    assert dark > 0.05 * qr_area.size[0] * qr_area.size[1]
