"""The printouts other than score sheets (tests/printouts/test_pdf_score_sheets.py): forms, table
lists, cards and the poster, read back as text and checked value by value; who may print."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone

from tests.printouts.pdf_helpers import *  # noqa: F403 (the fixtures)
from tests.printouts.pdf_helpers import (
    KIT_RETURN_ADDRESS,
    PEOPLE,
    line_starting,
    pdf_pages,
    post_final,
    reader_lines,
    squash,
)
from tournament.models import Player, Round, Seat, Table, Wave
from tournament.roles import JUDGE

# --- access and the index page -----------------------------------------------------------


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


def test_index_links_every_printout_and_the_cockpit_links_index(organizer_client, event, seated):
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
    # No final yet: no winner's form, and the organizer is told why.
    assert "printable once the event has a winner" in html
    assert "winner-notification.pdf" not in html
    # No return address set: the page says the forms print without one.
    assert "without a “Please return to” block" in html
    assert reverse("tournament:event_edit", kwargs={"pk": event.pk}) in html
    cockpit = organizer_client.get(reverse("cockpit:cockpit", kwargs={"pk": event.pk}))
    assert index in cockpit.content.decode()


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


def _set_return_block(event) -> None:
    event.forms_return_name = "Regional Games Federation"
    event.forms_return_address = "12 Marvin Gardens\n\nAtlantic City, NJ 08401 "
    event.forms_return_fax = "609-555-0142"
    event.save()


def test_event_registration_form_is_filled_from_the_event(organizer_client, event):
    event.contact_name = "Rich Uncle"
    event.contact_email = "director@example.org"
    event.contact_title = "Club Secretary"
    event.contact_phone = "555-0100"
    event.contact_fax = "555-0199"
    event.address = "1 Boardwalk"
    event.city = "Atlantic City"
    event.state = "NJ"
    event.postal_code = "08401"
    event.charity = "Food Bank"
    event.expected_players = 48
    event.save()
    _set_return_block(event)
    response = organizer_client.get(
        reverse("printouts:event_registration", kwargs={"pk": event.pk})
    )
    assert response.status_code == 200
    lines = reader_lines(response.content)
    # Tournament Kit, page 19: "Address City ... State Fax": city and state on one line, apart.
    assert line_starting(lines, "Address") == "Address 1 Boardwalk"
    assert line_starting(lines, "City") == "City Atlantic City State NJ 08401"
    assert line_starting(lines, "Telephone") == "Telephone 555-0100 Fax 555-0199"
    text = squash(" ".join(pdf_pages(response.content)))
    for expected in (
        "Event Registration Form",
        "Name Rich Uncle",
        "Title Club Secretary",
        "Name of Organization Atlantic Avenue Club",
        "Place of Tournament Library Annex",
        "Date of Tournament April 20, 2030",
        "Number of players expected 48",
        "Charity Food Bank",
        "director@example.org",
        "Tournament Director Signature",
        # The kit's return block, with the organizer's addressee, blank lines dropped.
        "Please return to: Regional Games Federation 12 Marvin Gardens "
        "Atlantic City, NJ 08401 or Fax: 609-555-0142",
        # Tournament Kit, page 19, word for word.
        "I have read, understand and agree to abide by all of the REQUIREMENTS for conducting "
        "a MONOPOLY Game Tournament as specified in the Hasbro MONOPOLY GAME TOURNAMENT KIT. "
        "I understand that Hasbro may disqualify any event that does not comply with all "
        "requirements.",
    ):
        assert expected in text, expected
    assert KIT_RETURN_ADDRESS not in text


def test_forms_without_a_return_address_print_no_return_block(
    organizer_client, event, seated, filled
):
    """Never the kit's 1990s Hasbro address: with nobody named, the block is left out."""
    post_final(event, {seated[2][0]: 2500, seated[2][4]: 900})
    for name, kwargs in [
        ("event_registration", {}),
        ("participant_registration", {}),
        ("winner_notification", {"player_pk": seated[2][0].pk}),
    ]:
        url = reverse(f"printouts:{name}", kwargs={"pk": event.pk, **kwargs})
        response = organizer_client.get(url)
        assert response.status_code == 200, name
        text = squash(" ".join(pdf_pages(response.content)))
        assert "Please return to" not in text, name
        assert KIT_RETURN_ADDRESS not in text and "Hasbro Games" not in text, name


def test_a_fax_alone_still_prints_the_return_block(organizer_client, event):
    event.forms_return_fax = "609-555-0142"
    event.save()
    url = reverse("printouts:participant_registration", kwargs={"pk": event.pk})
    text = squash(pdf_pages(organizer_client.get(url).content)[0])
    assert "Please return to: or Fax: 609-555-0142" in text


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
            publicity_consent=True,  # all sign under the kit's grant (see test_publicity)
        )
    _set_return_block(event)
    url = reverse("printouts:participant_registration", kwargs={"pk": event.pk})
    pages = [squash(page) for page in pdf_pages(organizer_client.get(url).content)]
    assert len(pages) == sheets
    for number, page in enumerate(pages, start=1):
        assert "Participant Registration Form" in page
        assert "Name of Organization Atlantic Avenue Club" in page
        # Tournament Kit, page 21: the kit's consent, word for word.
        assert (
            "I, the undersigned, wish to register for this official MONOPOLY Game Tournament. "
            "I understand that Hasbro is not responsible for any prizes promised by the "
            "organization running this tournament. I give Hasbro the right to use, without "
            "compensation, my name and any photographs of me taken at the tournament for "
            "publicity and promotional purposes."
        ) in page
        assert "Please Print Name Address Signature" in page
        # On one line here: twelve signatures leave no room for an envelope's lines.
        assert (
            "Please return to: Regional Games Federation, 12 Marvin Gardens, Atlantic City, "
            "NJ 08401 · or Fax: 609-555-0142"
        ) in page
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
    ada, ed = players[0], players[4]
    ada.telephone = "555-0199"
    ada.save()
    event.money_raised = 1234.5
    event.charity = "Food Bank"
    event.save()
    _set_return_block(event)
    # Ada wins the final with $2,500 cash against Ed's $900.
    post_final(event, {ada: 2500, ed: 900})
    index = organizer_client.get(reverse("printouts:index", kwargs={"pk": event.pk}))
    url = reverse("printouts:winner_notification", kwargs={"pk": event.pk, "player_pk": ada.pk})
    assert url in index.content.decode()
    assert "Winner Notification Form for Ada Lovelace (Lucky Thimble)" in index.content.decode()
    response = organizer_client.get(url)
    assert response.status_code == 200
    pages = pdf_pages(response.content)
    assert len(pages) == 3  # the form, then round 1 and the final
    form = squash(pages[0])
    for expected in (
        "Winner Notification Form",
        "Winner's Name Ada Lovelace",
        "Address 1 Baltic Avenue, Atlantic City",
        "Telephone 555-0199",
        "Name of Organization Atlantic Avenue Club",
        "Place of Tournament Library Annex",
        "Date of Tournament April 20, 2030",
        "Money Raised for Charity $1,234.50 (Food Bank)",
        "Please attach photo of winner",
        # Tournament Kit, page 27, word for word.
        "Please attach your signed winner's score sheets from all preliminary rounds and the "
        "final round of play. Also, include the MONOPOLY GAME TOURNAMENT PARTICIPANT "
        "REGISTRATION FORM for verification of your status as a sanctioned tournament.",
        "Attached: the winner's 2 signed score sheets",
        "Please return to: Regional Games Federation",
    ):
        assert expected in form, expected
    sheet = reader_lines(response.content, 1)
    assert "Player Ada Lovelace (Lucky Thimble)" in line_starting(sheet, "Spring Championship")
    assert "Grand Total (A+B) $3,830" in line_starting(sheet, "$10 ")
    assert sheet[-1] == "Winner Notification Form · 2 / 3"
    final = reader_lines(response.content, 2)
    assert "Grand Total (A+B) $2,500" in line_starting(final, "$10 ")
    assert "Winner Notification Form · 1 / 3" in reader_lines(response.content, 0)
    assert "Diddley" not in " ".join(pages)


def test_no_winner_notification_before_the_final_is_posted(organizer_client, event, filled):
    """An unplayed final has no winner: a page that says so, never a form of $0 totals."""
    _table, players = filled
    ada = players[0]
    url = reverse("printouts:winner_notification", kwargs={"pk": event.pk, "player_pk": ada.pk})
    response = organizer_client.get(url)
    assert response.status_code == 409
    assert response["Content-Type"].startswith("text/html")
    assert "This event has no winner yet" in response.content.decode()
    assert "once the final has been played" in response.content.decode()


def test_no_winner_notification_for_a_player_who_did_not_win(organizer_client, event, filled):
    _table, players = filled
    ada, ed = players[0], players[4]
    post_final(event, {ada: 2500, ed: 900})
    url = reverse("printouts:winner_notification", kwargs={"pk": event.pk, "player_pk": ed.pk})
    response = organizer_client.get(url)
    assert response.status_code == 404
    body = response.content.decode()
    assert "Ed Sheeran is not the winner of this event" in body
    assert "The winner is Ada Lovelace (Lucky Thimble)" in body
    assert (
        reverse("printouts:winner_notification", kwargs={"pk": event.pk, "player_pk": ada.pk})
        in body
    )


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
    open_url = "http://testserver" + reverse("banker:banker_link_open", kwargs={"key": link.key})
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
