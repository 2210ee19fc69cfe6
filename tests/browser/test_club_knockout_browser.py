"""A 30-player club knockout in a real browser, from check-in to the six-player final and
the winner's notification form (the kit's "THE DAY OF THE TOURNAMENT"), with the
bracket planner following the check-in desk on another screen.

Everything is done on the pages an organizer, a head judge and the bankers use (table 1 of
each round on the banker's tablet, the other tables' sheets through the services the tablet
calls); the database is otherwise read only to check what the pages did. The kit's plan
for 30 players is worked out by hand: one round at six tables of five ("there must be six
tables to give you the required six players for the final"), then the six table winners
play the final. Each table's cash falls by seat, so seat 1 wins every table and the final's
seat 1 wins the day.
"""

from __future__ import annotations

import io
import re
import uuid

import pytest
from django.contrib.auth.models import Group, User

from clock.services import table_mark_finished
from players.services import player_check_in
from scoring.services.sheets import sheet_save_draft, sheet_submit
from scoring.services.signatures import sheet_sign
from tournament.models import Event, Player, Round, Seat, Table

PASSWORD = "a long Boardwalk passphrase"
# Each table's cash by seat: seat 1 richest, so the winners are known in advance.
CASH_BY_SEAT = [3000, 2500, 2000, 1500, 1000, 500]
FIRST_NAMES = [
    "Abel", "Bea", "Cyrus", "Dora", "Emil", "Fern", "Gil", "Hana", "Ivo", "Jade",
    "Kurt", "Lia", "Milo", "Nell", "Otto", "Pia", "Quin", "Rhea", "Saul", "Tess",
    "Ugo", "Vera", "Wade", "Xena", "Yuri", "Zoe", "Arlo", "Bess", "Cole", "Dina",
]  # fmt: skip


def players_csv() -> str:
    lines = ["first_name,last_name,date_of_birth,email,eligibility_declared,family"]
    for number, first in enumerate(FIRST_NAMES, start=1):
        # Two households of two: round 1 keeps them at different tables.
        family = {1: "Stone", 2: "Stone", 3: "Reed", 4: "Reed"}.get(number, "")
        lines.append(
            f"{first},Player{number:02d},19{60 + number}-05-0{1 + number % 9},"
            f"{first.lower()}@example.org,yes,{family}"
        )
    return "\n".join(lines) + "\n"


@pytest.fixture
def organizer(transactional_db):
    user = User.objects.create_user("olive", password=PASSWORD)
    user.groups.add(Group.objects.get(name="Organizer"))
    return user


def signed_in(browser, live_server):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url("**/organizer/")
    return page


def create_and_check_in(page, url: str) -> Event:
    page.goto(f"{url}/organizer/events/new/?format=club")
    page.fill("[name=name]", "Harbour Charity Night")
    page.fill("[name=organization]", "Harbour Club")
    page.fill("[name=venue]", "Pier Hall")
    page.fill("[name=date]", "2031-06-07")
    page.fill("[name=start_time]", "10:00")
    page.fill("[name=expected_players]", "30")
    page.get_by_role("button", name="Create event").click()
    page.wait_for_url("**/players/")
    event = Event.objects.get(name="Harbour Charity Night")
    page.goto(f"{url}/organizer/events/{event.pk}/players/import/")
    page.fill("[name=text]", players_csv())
    page.get_by_role("button", name="Import").click()
    page.wait_for_load_state()
    players = list(Player.objects.filter(event=event, status="player").order_by("pk"))
    # The first 26 arrive through the desk's service, the next two at the desk itself
    # (the desk's page has its own browser tests: 30 taps there add seconds, nothing new).
    for player in players[:26]:
        player_check_in(player=player)
    check_in(page, url, event, players[26:28])
    # The seating page is open on another screen while the last two arrive: its planner
    # follows the check-in desk by itself (htmx polling), without a reload.
    seating = page.context.new_page()
    seating.goto(f"{url}/organizer/events/{event.pk}/seating/")
    assert "28 checked in" in " ".join(seating.inner_text("#bracket").split())
    seating.evaluate("() => { window.stillTheSamePage = true; }")
    check_in(page, url, event, players[28:])
    seating.wait_for_function(
        "() => document.querySelector('#bracket .counters strong').textContent.trim() === '30'",
        timeout=30_000,
    )
    assert seating.evaluate("() => window.stillTheSamePage") is True
    seating.close()
    return event


def check_in(page, url: str, event: Event, players: list[Player]) -> None:
    page.goto(f"{url}/organizer/events/{event.pk}/check-in/")
    for player in players:
        row = page.locator(f"#check-in-{player.pk}")
        row.get_by_role("button", name="Check in").click()
        row.get_by_role("button", name="Undo").wait_for()


def confirm_and_seat_round_1(page, url: str, event: Event) -> Round:
    page.goto(f"{url}/organizer/events/{event.pk}/seating/")
    bracket = page.locator("#bracket")
    assert "30 checked in" in " ".join(bracket.inner_text().split())
    plan = bracket.locator("article").filter(has_text="Table winners go through")
    rows = [r.inner_text().split("\t") for r in plan.locator("tbody tr").all()]
    assert [[cell.strip() for cell in row] for row in rows] == [
        ["Round 1", "30", "6 tables of 5", "6 table winners to the final"],
        ["Final", "6", "1 table of 6", "the winner"],
    ]
    plan.get_by_role("button", name="Confirm this plan").click()
    page.wait_for_load_state()
    assert "Bracket confirmed for 30 players" in page.inner_text(".messages")
    page.get_by_role("button", name="Seat round 1").click()
    page.wait_for_load_state()
    round1 = Round.objects.get(event=event, number=1)
    assert sorted(t.seats.count() for t in round1.tables.all()) == [5] * 6
    section = page.locator("#round-1")
    section.get_by_role("button", name="Publish round 1").click()
    page.wait_for_load_state()
    section = page.locator("#round-1")
    section.locator("summary", has_text="Start round 1").click()
    section.get_by_role("button", name="Start round 1 now").click()
    page.wait_for_load_state()
    return round1


def call_time(page, url: str, event: Event, number: int) -> None:
    """The head judge starts the round's clock, then ends play: time is called."""
    page.goto(f"{url}/organizer/events/{event.pk}/clock/")
    card = page.locator("section.clock-card").filter(has_text=f"Round {number}")
    card.get_by_role("button", name="Start").click()
    # The card's actions answer with htmx inside the card, the result with them.
    card.locator("[data-card-feedback]", has_text="play has started").wait_for()
    card.locator("summary", has_text="End play").click()
    card.get_by_role("button", name="End play for this wave").click()
    card.locator("[data-card-feedback]", has_text="play has ended").wait_for()


def bank(page, url: str, table: Table) -> None:
    """The banker's table page: no last turn in a club event, the game stops; the sheet."""
    page.goto(f"{url}/bank/tables/{table.pk}/")
    assert page.get_by_role("button", name="Last turn").count() == 0
    assert "Any player who has thrown the dice completes that move" in page.inner_text("main")
    page.locator("summary", has_text=re.compile("Game over: time is called")).click()
    page.get_by_role("button", name="Yes, the game is over").click()  # the second step
    page.wait_for_load_state()
    page.get_by_role("link", name="Enter the score sheet").click()
    page.wait_for_selector("#sheet-form")
    inputs = page.locator("input[name^=cash_]")
    for index in range(inputs.count()):
        inputs.nth(index).fill(str(CASH_BY_SEAT[index]))
    page.wait_for_selector("#sheet-submit:not([disabled])")
    page.click("#sheet-submit")
    page.wait_for_selector(".sign-list")
    # Every player's field, read once: counting them again after each signature could read
    # the next page while it is still arriving (no field yet) and stop before the last one.
    unsigned = page.locator(".sign-list input[id^=initials-]:not(#initials-banker)")
    field_ids = unsigned.evaluate_all("fields => fields.map((field) => field.id)")
    assert len(field_ids) == table.seats.count()
    for field_id in field_ids:
        page.fill(f"#{field_id}", "ok")
        page.click(f"#{field_id} ~ button")
        page.wait_for_selector(f"#{field_id}", state="detached")
    page.wait_for_selector("#initials-banker:not([disabled])")
    page.fill("#initials-banker", "BK")
    page.click("#initials-banker ~ button")
    page.wait_for_selector("[data-locked]")


def approve_and_post(page, url: str, event: Event, round_: Round) -> None:
    for table in round_.tables.order_by("number"):
        page.goto(
            f"{url}/organizer/events/{event.pk}/results/{round_.number}/tables/{table.number}/"
        )
        page.get_by_role("button", name="Approve the sheet").click()
        page.wait_for_load_state()
    page.goto(f"{url}/organizer/events/{event.pk}/results/{round_.number}/")
    # Posting asks to confirm (a second tap).
    page.locator("#post summary").click()
    page.get_by_role("button", name=f"Post round {round_.number} now").click()
    page.wait_for_load_state()
    assert f"Round {round_.number} is posted" in page.inner_text("main")


def bank_without_the_tablet(table: Table) -> None:
    """What the tablet sends for a table (game over, the sheet by seat, every initial),
    through the services its pages call: the tablet's pages have their own browser tests
    (test_banker_sheet.py), and six tables clicked through add a minute and nothing new."""
    table_mark_finished(table=table)
    seats = list(table.seats.order_by("position").select_related("player"))
    data = {
        "players": [
            {"id": str(seat.player_id), "cash": CASH_BY_SEAT[index]}
            for index, seat in enumerate(seats)
        ],
        "properties": [],
    }
    draft = sheet_save_draft(table=table, data=data, expected_version=0, by=None)
    sheet = sheet_submit(
        table=table,
        data=data,
        expected_version=draft.version,
        submission_key=uuid.uuid4(),
        by=None,
    )
    for seat in seats:
        sheet_sign(sheet=sheet, player=seat.player, initials="ok", by=None)
    sheet_sign(sheet=sheet, initials="BK", by=None)


def play(page, url: str, event: Event, round_: Round) -> None:
    """Time is called; table 1 is banked on the tablet's pages, the others through the
    same services; the organizer approves every sheet and posts the round on the pages."""
    call_time(page, url, event, round_.number)
    first, *others = round_.tables.order_by("number")
    bank(page, url, first)
    for table in others:
        bank_without_the_tablet(table)
    approve_and_post(page, url, event, round_)


def test_a_30_player_club_knockout_to_its_six_player_final(
    live_server, browser, organizer, settings
):
    # The planner polls every second instead of every 15 (no test waits idle).
    settings.BOARDWALK_LIVE_POLL_SECONDS = 1
    url = live_server.url
    page = signed_in(browser, live_server)
    event = create_and_check_in(page, url)
    round1 = confirm_and_seat_round_1(page, url, event)
    # Households at different tables, as in every round.
    for table in round1.tables.all():
        families = [s.player.household for s in table.seats.all() if s.player.household]
        assert len(families) == len(set(families))
    play(page, url, event, round1)
    winners = {s.player.alias for s in Seat.objects.filter(round=round1, position=1)}

    # The standings page names each table's winner, then seats them at the final.
    page.goto(f"{url}/organizer/events/{event.pk}/standings/")
    knockout = page.locator("#knockout").inner_text()
    assert all(alias in knockout for alias in winners)
    page.get_by_role("button", name="Seat the final").click()
    page.wait_for_load_state()
    # Posting round 1 released the public final page: the message says the final is on it.
    assert "The final is seated as round 2: the public final page shows it." in page.inner_text(
        ".messages"
    )
    final = Round.objects.get(event=event, kind=Round.Kind.FINAL)
    assert {s.player.alias for s in final.seats.all()} == winners
    play(page, url, event, final)
    winner = Seat.objects.get(round=final, position=1).player

    # The winner notification form, read back from the PDF.
    response = page.request.get(
        f"{url}/organizer/events/{event.pk}/players/{winner.pk}/winner-notification.pdf"
    )
    assert response.status == 200
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(response.body()))
    text = " ".join(p.extract_text() for p in reader.pages)
    assert "WINNER NOTIFICATION FORM" in text.upper()
    assert winner.full_name in text and event.name in text
