"""The score sheet PDFs: blank and filled, every edition, A4 and letter.

Pages are composed from one body and stamps (printouts/stamps.py), so they are read back the
way a reader reads them: the words where they are printed (pdf_helpers.reader_lines), the
marked cell's colour in a rendering, the text of every page with pypdf.
"""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from gameplay.edition import edition_slugs, load_edition
from printouts.render import score_sheets_pdf
from printouts.sheets import blank_page, columns, deed_values, filled_page
from printouts.stamps import LayoutError, line_segments, stamp_groups
from scoring.models import SheetSignature, TableSheet
from tests.printouts.pdf_helpers import *  # noqa: F403 (the fixtures)
from tests.printouts.pdf_helpers import (
    PEOPLE,
    amounts,
    line_starting,
    page_words,
    pdf_pages,
    reader_lines,
    squash,
)
from tournament.models import Event, Player, Round, Seat, Table

# Market Edition Rules, HOUSES: "He may then begin on the second row of houses, and so on, up to
# a limit of four houses to a property." HOTELS: "When a player has three houses on each
# property of a complete color-group, he may buy a hotel from the Bank".
RUPEE = "india-rupee"


def blank_pdf(client, event) -> bytes:
    response = client.get(reverse("printouts:blank_score_sheet", kwargs={"pk": event.pk}))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return response.content


def column_edges(content: bytes, index: int = 0) -> dict[str, float]:
    """The right edge of each "With n" heading ("1".."4", "a"): its column's right edge."""
    words = page_words(content, index)
    withs = [w for w in words if w.text == "With"]
    edges = {}
    for heading in withs:
        following = min(
            (w for w in words if abs(w.middle - heading.middle) < 1 and w.left > heading.right),
            key=lambda w: w.left,
        )
        if following.text.isdigit() or following.text == "a":  # not "With buildings"
            edges[following.text] = following.right
    return edges


def word_boxes(content: bytes, text: str, index: int = 0) -> list:
    return [w for w in page_words(content, index) if w.text == text]


# --- the values of the sheet, without a PDF ------------------------------------------------


def test_boardwalk_values_classic_us():
    edition = load_edition("classic-us")
    boardwalk = edition.spaces[39]
    assert deed_values(boardwalk, edition) == [200, 400, 600, 800, 1000, 1200, 1400]


def test_rupee_sheet_has_a_column_for_the_fourth_house():
    edition = load_edition(RUPEE)
    assert (edition.houses_per_hotel, edition.max_houses) == (3, 4)
    boardwalk = edition.spaces[39]
    # price 400, house 200: 1..4 houses 600..1200; a hotel is its price (one house) plus the
    # three houses turned in for it, on the 400 of the deed: 400 + 4 x 200.
    assert deed_values(boardwalk, edition) == [200, 400, 600, 800, 1000, 1200, 1200]
    assert columns(edition)[-2:] == ["With 4 houses", "With a hotel"]


@pytest.mark.parametrize("slug", edition_slugs())
def test_every_edition_has_a_column_per_house_a_lot_can_carry(slug):
    edition = load_edition(slug)
    assert len(columns(edition)) == 2 + edition.max_houses + 1
    street = next(deed for deed in edition.deeds if deed.kind == "street")
    owner = "P1"
    for houses in range(edition.max_houses + 1):
        data = {"players": [{"id": owner}], "properties": []}
        data["properties"].append({"position": street.position, "owner": owner, "houses": houses})
        page = filled_page(edition, data, owner)
        row = next(row for row in page.rows if row.deed == street)
        assert [cell.marked for cell in row.cells].index(True) == 1 + houses
        assert row.value == street.price + houses * street.house_cost
    hotel = {"players": [{"id": owner}], "properties": []}
    hotel["properties"].append({"position": street.position, "owner": owner, "hotel": True})
    row = next(row for row in filled_page(edition, hotel, owner).rows if row.deed == street)
    assert [cell.marked for cell in row.cells] == [False] * (len(row.cells) - 1) + [True]


def test_railroad_has_only_mortgaged_and_owned():
    edition = load_edition("classic-us")
    reading = edition.spaces[5]
    assert deed_values(reading, edition) == [100, 200, None, None, None, None, None]


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


# --- blank sheets ------------------------------------------------------------------------------


def test_blank_sheet_lists_every_deed_with_its_values(organizer_client, event):
    content = blank_pdf(organizer_client, event)
    assert len(pdf_pages(content)) == 1
    text = pdf_pages(content)[0]
    edition = load_edition("classic-us")
    for deed in edition.deeds:
        assert deed.name in text
    lines = reader_lines(content)
    assert amounts(line_starting(lines, "Boardwalk")) == [200, 400, 600, 800, 1000, 1200, 1400]
    assert amounts(line_starting(lines, "Mediterranean Avenue")) == [
        30,
        60,
        110,
        160,
        210,
        260,
        310,
    ]
    flat = squash(text)
    for label in ("Total Property (A)", "Total Cash (B)", "Grand Total (A+B)"):
        assert label in flat
    assert "Player's signature" in flat and "Banker's signature" in flat
    assert "Spring Championship" in flat
    for bill in ("$1", "$5", "$20", "$50", "$100", "$500"):
        assert bill in lines
    assert "$10 Grand Total (A+B)" in lines
    assert lines[0] == "Score Sheet Round ____ Table ____ Seat ____"
    assert lines[-1] == "Score Sheet · 1 / 1"


def test_blank_sheet_headings_are_the_kits(organizer_client, event):
    """Tournament Kit, the Score Sheet: "No Buildings Mort- Fully gaged Owned" and "With
    Buildings With With With With With 1 House 2 House 3 House 4 House a Hotel"."""
    content = blank_pdf(organizer_client, event)
    lines = reader_lines(content)
    assert "No buildings With buildings" in lines
    words = page_words(content)
    (no,) = [w for w in words if w.text == "No"]
    headings = sorted((w for w in words if abs(w.middle - no.middle) < 1), key=lambda w: w.left)
    assert [w.text for w in headings] == ["No", "buildings", "With", "buildings"]
    (mortgaged,) = [w for w in words if w.text == "Mortgaged"]
    (owned,) = [w for w in words if w.text == "owned" and abs(w.middle - mortgaged.middle) < 1]
    edges = column_edges(content)
    # each heading centred over its columns: mortgaged and owned; 1..4 houses and the hotel
    assert mortgaged.left < (headings[0].left + headings[1].right) / 2 < owned.right
    assert owned.right < (headings[2].left + headings[3].right) / 2 < edges["a"]


def test_rupee_blank_sheet_prints_the_4_house_column(organizer_client, event):
    event.edition = RUPEE
    event.save()
    content = blank_pdf(organizer_client, event)
    lines = reader_lines(content)
    assert amounts(line_starting(lines, "Boardwalk")) == [200, 400, 600, 800, 1000, 1200, 1200]
    assert list(column_edges(content)) == ["1", "2", "3", "4", "a"]
    assert "₹1,200" in pdf_pages(content)[0]


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize("slug", edition_slugs())
def test_every_edition_prints_its_columns_on_one_page(slug, paper):
    edition = load_edition(slug)
    event = Event(name="Open", edition=slug, paper_size=paper)
    content = score_sheets_pdf(event=event, sheets=[blank_page(edition)], footer="")
    assert len(PdfReader(io.BytesIO(content)).pages) == 1
    expected = [str(k) for k in range(1, edition.max_houses + 1)] + ["a"]
    assert list(column_edges(content)) == expected
    text = pdf_pages(content)[0]
    for deed in edition.deeds:
        assert deed.name in text


def test_round_batch_one_sheet_per_seat_named_by_table_and_seat(organizer_client, event, seated):
    url = reverse("printouts:round_score_sheets", kwargs={"pk": event.pk, "number": 1})
    response = organizer_client.get(url)
    assert response.status_code == 200
    assert "round-1-score-sheets.pdf" in response["Content-Disposition"]
    pages = pdf_pages(response.content)
    assert len(pages) == 8
    for index, (first, last, alias) in enumerate(PEOPLE):
        table, seat = index // 4 + 1, index % 4 + 1
        lines = reader_lines(response.content, index)
        assert lines[0] == f"Score Sheet Round 1 Table {table} Seat {seat}"
        assert lines[1].endswith(f"Player {first} {last} ({alias})")
        assert lines[-1] == f"Round 1 score sheets · {index + 1} / 8"
        assert alias in pages[index]


def test_paper_size_follows_the_event(organizer_client, event):
    url = reverse("printouts:blank_score_sheet", kwargs={"pk": event.pk})
    a4 = PdfReader(io.BytesIO(organizer_client.get(url).content)).pages[0].mediabox
    assert (round(float(a4.width)), round(float(a4.height))) == (595, 842)
    event.paper_size = "letter"
    event.save()
    letter = PdfReader(io.BytesIO(organizer_client.get(url).content)).pages[0].mediabox
    assert (round(float(letter.width)), round(float(letter.height))) == (612, 792)


def test_progress_is_reported_as_pages_are_laid_out():
    edition = load_edition("classic-us")
    event = Event(name="Open", edition="classic-us", paper_size="A4")
    round_ = Round(number=2)
    sheets = []
    for index in range(30):
        player = Player(first_name=f"P{index}", last_name="Q", alias=f"Token {index}")
        table = Table(number=index // 5 + 1)
        seat = Seat(position=index % 5 + 1)
        sheets.append(blank_page(edition, player=player, seat=seat, table=table, round=round_))
    reports = []
    content = score_sheets_pdf(
        event=event, sheets=sheets, footer="Round 2", on_page=lambda *done: reports.append(done)
    )
    assert reports[-1] == (30, 30)
    assert [done for done, _ in reports] == sorted({done for done, _ in reports})
    assert len(reports) > 1
    assert len(pdf_pages(content)) == 30
    assert reader_lines(content, 29)[0] == "Score Sheet Round 2 Table 6 Seat 5"
    assert reader_lines(content, 29)[-1] == "Round 2 · 30 / 30"


# --- filled sheets -------------------------------------------------------------------------


def table_pdf(client, event, table) -> bytes:
    url = reverse("printouts:table_score_sheets", kwargs={"pk": event.pk, "table_pk": table.pk})
    response = client.get(url)
    assert response.status_code == 200
    return response.content


def test_filled_table_carries_marks_counts_totals_and_signatures(organizer_client, event, filled):
    table, players = filled
    content = table_pdf(organizer_client, event, table)
    assert len(pdf_pages(content)) == 4
    ada = reader_lines(content, 0)
    # the printed values, the X before the marked one, then the row's value
    boardwalk = line_starting(ada, "Boardwalk")
    assert boardwalk.endswith("$1,200 X $1,400 $1,400")
    assert amounts(boardwalk) == [200, 400, 600, 800, 1000, 1200, 1400, 1400]
    assert line_starting(ada, "Park Place").endswith("$750 X $950 $1,150 $1,350 $950")
    assert line_starting(ada, "Reading Railroad") == "Reading Railroad X $100 $200 $100"
    assert line_starting(ada, "Total Property (A)") == "Total Property (A) $2,450"
    assert line_starting(ada, "Total Cash (B)") == "Total Cash (B) $1,380"
    assert line_starting(ada, "$10 ") == "$10 0 $0 Grand Total (A+B) $3,830"
    assert line_starting(ada, "$20 ") == "$20 4 $80"
    assert line_starting(ada, "$500 ") == "$500 2 $1,000"
    assert "AL BNK" in ada
    assert line_starting(ada, "Approved by ")
    assert ada[-1] == "Round 1 table 1 · 1 / 4"
    bo = reader_lines(content, 1)
    assert line_starting(bo, "Mediterranean Avenue").endswith(
        "$30 X $60 $110 $160 $210 $260 $310 $60"
    )
    assert line_starting(bo, "Total Property (A)") == "Total Property (A) $60"
    assert line_starting(bo, "Total Cash (B)") == "Total Cash (B) $1,340"
    di = reader_lines(content, 3)
    assert "Bankrupt yes" in di
    assert "Bankrupt" not in " ".join(ada)
    for index, (first, last, alias) in enumerate(PEOPLE[:4]):
        assert f"Player {first} {last} ({alias})" in pdf_pages(content)[index]


def test_marked_cell_is_filled_and_others_are_not(organizer_client, event, filled):
    table, _ = filled
    content = table_pdf(organizer_client, event, table)
    page = pdfium.PdfDocument(content)[0]
    scale = 3
    image = page.render(scale=scale).to_pil().convert("RGB")
    height = page.get_height()
    (x_mark,) = [w for w in word_boxes(content, "X") if w.middle > 200 and w.left > 400]

    def colour(left: float, middle: float) -> tuple[int, int, int]:
        return image.getpixel((int(left * scale), int((height - middle) * scale)))

    red, green, blue = colour(x_mark.left - 4, x_mark.middle)  # Boardwalk's hotel cell
    assert red > 230 and green > 200 and blue < 190
    row_height = 5.6 / 25.4 * 72
    assert colour(x_mark.left - 4, x_mark.middle + row_height) == (255, 255, 255)  # Park Place


def test_rupee_lot_with_4_houses_is_marked_in_the_4_house_column(organizer_client, event, seated):
    event.edition = RUPEE
    event.save()
    _, tables, players = seated
    TableSheet.objects.create(
        table=tables[0],
        data={
            "edition": RUPEE,
            "players": [{"id": str(p.pk), "cash": 0} for p in players[:4]],
            "properties": [{"position": 39, "owner": str(players[0].pk), "houses": 4}],
        },
    )
    content = table_pdf(organizer_client, event, tables[0])
    boardwalk = line_starting(reader_lines(content, 0), "Boardwalk")
    assert boardwalk == "Boardwalk ₹200 ₹400 ₹600 ₹800 ₹1,000 X ₹1,200 ₹1,200 ₹1,200"
    (x_mark,) = word_boxes(content, "X")
    edges = column_edges(content)
    assert edges["3"] < x_mark.left and x_mark.right < edges["4"]


def test_filled_table_without_a_sheet_prints_zero_totals(organizer_client, event, seated):
    _, tables, _ = seated
    content = table_pdf(organizer_client, event, tables[1])
    assert len(pdf_pages(content)) == 4
    assert "Grand Total (A+B) $0" in " ".join(reader_lines(content, 0))


def test_filled_letter_sheets_keep_one_page_each(organizer_client, event, filled):
    """An approved sheet on letter paper used to spill its last note onto a page of its own."""
    event.paper_size = "letter"
    event.save()
    table, _ = filled
    content = table_pdf(organizer_client, event, table)
    pages = pdf_pages(content)
    assert len(pages) == 4
    for index in range(4):
        lines = reader_lines(content, index)
        assert lines[-2].startswith("Approved by ")
        assert lines[-1] == f"Round 1 table 1 · {index + 1} / 4"


def test_long_names_and_markup_in_names_print_as_text(organizer_client, event, seated):
    _, tables, players = seated
    ada = players[0]
    ada.first_name = "Augusta Ada King, Countess of Lovelace, née Byron" * 2
    ada.alias = '<img src="file:///etc/passwd">'
    ada.save()
    content = table_pdf(organizer_client, event, tables[0])
    text = squash(pdf_pages(content)[0])
    # printed as text, wrapped where the header's width runs out
    assert '<imgsrc="file:///etc/passwd">' in "".join(text.split())
    assert "Countess of Lovelace" in text
    assert len(pdf_pages(content)) == 4


def test_score_sheet_renders_to_a_non_blank_png(organizer_client, event, filled):
    table, _ = filled
    for content in (blank_pdf(organizer_client, event), table_pdf(organizer_client, event, table)):
        image = pdfium.PdfDocument(content)[0].render(scale=1).to_pil().convert("L")
        width, height = image.size
        assert abs(width - 595) <= 1 and abs(height - 842) <= 1  # A4 in points
        dark = sum(image.histogram()[:128])
        # a sheet of lines and numbers: well over one percent ink, far from all black
        assert 0.01 * width * height < dark < 0.5 * width * height


def test_filled_sheet_records_when_it_was_approved(organizer_client, event, filled):
    table, _ = filled
    sheet = TableSheet.objects.get(table=table)
    sheet.approved_at = timezone.make_aware(timezone.datetime(2030, 4, 20, 14, 5))
    sheet.approved_by = User.objects.create_user("headjudge")
    sheet.save()
    content = table_pdf(organizer_client, event, table)
    assert "Approved by headjudge on April 20, 2030, 2:05 PM." in reader_lines(content, 0)


# --- the composition's pieces -----------------------------------------------------------------


def test_one_line_stamps_are_cut_into_their_lines():
    # How WeasyPrint draws three plain lines of one style: one text object, the font once.
    ops = [b"q", b"q", b"/a1.0 gs", b"0 0 0 rg", b"BT", b"1 0 0 -1 10 20 Tm", b"/F1 12 Tf"]
    ops += [b"[<01>] TJ", b"1 0 0 -1 12 40 Tm", b"[<02>] TJ", b"1 0 0 -1 9 60 Tm"]
    ops += [b"/F2 12 Tf", b"[<03>] TJ", b"ET", b"Q", b"Q"]
    state = [b"/a1.0 gs", b"0 0 0 rg", b"BT"]
    assert line_segments(ops, 3) == [
        [*state, b"1 0 0 -1 10 20 Tm", b"/F1 12 Tf", b"[<01>] TJ", b"ET"],
        [*state, b"/F1 12 Tf", b"1 0 0 -1 12 40 Tm", b"[<02>] TJ", b"ET"],
        [*state, b"/F1 12 Tf", b"1 0 0 -1 9 60 Tm", b"/F2 12 Tf", b"[<03>] TJ", b"ET"],
    ]
    with pytest.raises(LayoutError):
        line_segments(ops, 2)
    with pytest.raises(LayoutError):  # anything but text (an emoji's image) is not cut
        line_segments([*ops[:-2], b"1 0 0 1 5 5 cm", b"/Im0 Do", b"Q", b"Q"], 3)


def test_stamp_groups_are_the_palette_pages_top_groups():
    page = [b"1 0 0 -1 0 842 cm", b"q", b"0.75 0 0 0.75 0 0 cm", b"q", b"q"]
    page += [b"q", b"BT", b"A", b"ET", b"Q", b"q", b"0 0 1 rg", b"1 1 2 2 re", b"f", b"Q"]
    page += [b"Q", b"Q", b"Q"]
    prefix, groups = stamp_groups(page, 2)
    assert prefix == [b"1 0 0 -1 0 842 cm", b"0.75 0 0 0.75 0 0 cm"]
    assert groups == [[b"BT", b"A", b"ET"], [b"0 0 1 rg", b"1 1 2 2 re", b"f"]]
    with pytest.raises(LayoutError):
        stamp_groups(page, 3)


def test_names_with_emoji_print_through_element_stamps(organizer_client, event, filled):
    table, players = filled
    ada = players[0]
    ada.alias = "Top Hat 🎩"
    ada.save()
    SheetSignature.objects.filter(player=ada).update(initials="A🎩")
    content = table_pdf(organizer_client, event, table)
    assert len(pdf_pages(content)) == 4
    # pypdf misreads any page whose fonts include the emoji's fallback, even from a single
    # WeasyPrint layout; pdfium reads it as printed.
    lines = reader_lines(content, 0)
    assert "Player Ada Lovelace (Top Hat 🎩)" in line_starting(lines, "Spring Championship")
    assert "A🎩 BNK" in lines
