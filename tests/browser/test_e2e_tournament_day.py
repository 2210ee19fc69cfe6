"""A whole tournament day in a real browser: the end-to-end test (`make e2e`).

Everything goes through the pages a person would use, with the roles a real day has:
the organizer creates the event and imports players from CSV, checks them in and marks a
no-show (the first alternate takes the seat), pre-seats the rounds; the head judge runs the
official clock; a banker at each table opens the table card's private link on a 1024x768
touch tablet, calls the last turn, enters the score sheet (one sheet is wrong first and is
corrected), and the players and the banker sign; a judge approves every table; the head
judge posts each round; the final is seated from the standings and scored; the winner's
notification form is downloaded and read; a spectator's standings page updates by itself.

The database is read only to check what the pages did, never to do a step for them. The
expected points come from the rule book's table (Championship Rules: 19-10-5-3 for a table of four),
written here, and each table's cash is chosen so its order is known in advance.
A screenshot of each step is kept in ``$E2E_ARTIFACTS`` (default ``artifacts/e2e``).
"""

from __future__ import annotations

import datetime
import io
import os
import re
from collections import defaultdict
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User

from tournament.models import Event, Player, Round, Seat, Table

pytestmark = pytest.mark.e2e

PASSWORD = "a long Boardwalk passphrase"
ARTIFACTS = Path(os.environ.get("E2E_ARTIFACTS", "artifacts/e2e"))
# The rule book's points for a table of four, first to last (Championship Rules).
POINTS_OF_FOUR = [19, 10, 5, 3]
# Each table's cash by seat: seat 1 richest, so places follow seats and are known.
CASH_BY_SEAT = [2900, 1700, 1100, 400]

FIRST_NAMES = [
    "Abel", "Bea", "Cyrus", "Dora", "Emil", "Fern", "Gil", "Hana", "Ivo", "Jade", "Kurt",
    "Lia", "Milo", "Nell", "Otto", "Pia", "Quin", "Rhea", "Saul", "Tess", "Ugo", "Vera",
    "Wade", "Xena",
]  # fmt: skip


class Day:
    """The browser contexts of the day's people and a numbered screenshot log."""

    def __init__(self, browser, live_server):
        self.browser = browser
        self.url = live_server.url
        self.shots = 0
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for old in ARTIFACTS.glob("*.png"):
            old.unlink()

    def context(self, *, touch: bool = False):
        context = self.browser.new_context(
            viewport={"width": 1024, "height": 768}, has_touch=touch, is_mobile=False
        )
        context.set_default_timeout(15_000)
        return context

    def signed_in(self, username: str):
        page = self.context().new_page()
        page.goto(self.url + "/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name=re.compile("log in", re.I)).click()
        page.wait_for_load_state()
        assert "/accounts/login/" not in page.url, page.inner_text("main")
        return page

    def shot(self, page, name: str) -> None:
        self.shots += 1
        page.screenshot(path=str(ARTIFACTS / f"{self.shots:02d}-{name}.png"), full_page=True)


def make_user(username: str, group: str) -> User:
    user = User.objects.create_user(username, password=PASSWORD)
    user.groups.add(Group.objects.get(name=group))
    return user


def players_csv() -> str:
    lines = [
        "first_name,last_name,date_of_birth,email,eligibility_declared,citizenship_declared,family"
    ]
    for number, first in enumerate(FIRST_NAMES, start=1):
        # Two households of two: seating keeps them apart.
        family = {1: "Stone", 2: "Stone", 3: "Reed", 4: "Reed"}.get(number, "")
        lines.append(
            f"{first},Player{number:02d},19{60 + number}-05-0{1 + number % 9},"
            f"{first.lower()}@example.org,yes,yes,{family}"
        )
    return "\n".join(lines) + "\n"


def create_event(day: Day, page) -> Event:
    page.goto(f"{day.url}/organizer/events/new/?format=championship")
    page.fill("[name=name]", "Harbour Championship")
    page.fill("[name=organization]", "Harbour Club")
    page.fill("[name=venue]", "Pier Hall")
    # Today from midnight: the official start has passed, so a no-show can be marked
    # (one is refused before the start).
    page.fill("[name=date]", datetime.date.today().isoformat())
    page.fill("[name=start_time]", "00:00")
    page.fill("[name=expected_players]", "20")
    page.fill("[name=alternates]", "4")
    page.get_by_role("button", name="Create event").click()
    page.wait_for_url("**/players/")
    day.shot(page, "event-created")
    return Event.objects.get(name="Harbour Championship")


def import_players(day: Day, page, event: Event) -> None:
    page.goto(f"{day.url}/organizer/events/{event.pk}/players/import/")
    page.fill("[name=text]", players_csv())
    page.get_by_role("button", name="Import").click()
    page.wait_for_load_state()
    day.shot(page, "players-imported")
    assert Player.objects.filter(event=event).count() == 24
    assert Player.objects.filter(event=event, status="alternate").count() == 4


def check_in_everyone_but(day: Day, page, event: Event, absent: Player) -> None:
    page.goto(f"{day.url}/organizer/events/{event.pk}/check-in/")
    seated = Player.objects.filter(event=event, status="player").exclude(pk=absent.pk)
    for player in seated:
        row = page.locator(f"#check-in-{player.pk}")
        row.get_by_role("button", name="Check in").click()
        row.get_by_role("button", name="Undo").wait_for()
    day.shot(page, "checked-in")
    # The absent player is a no-show: the first alternate takes the place.
    page.goto(f"{day.url}/organizer/events/{event.pk}/players/")
    # The no-show asks to confirm, naming the alternate who takes the seat.
    page.get_by_role("link", name=f"No-show: {absent.alias}").click()
    assert "Alternate 1" in page.inner_text("#no-show-consequence")
    page.locator("#confirm-no-show").click()
    page.wait_for_load_state()
    day.shot(page, "no-show-replaced")
    absent.refresh_from_db()
    replacement = Player.objects.get(event=event, replaces=absent)
    assert absent.status == "no_show" and replacement.status == "player"
    page.goto(f"{day.url}/organizer/events/{event.pk}/check-in/")
    row = page.locator(f"#check-in-{replacement.pk}")
    row.get_by_role("button", name="Check in").click()
    row.get_by_role("button", name="Undo").wait_for()


def preseat(day: Day, page, event: Event) -> None:
    page.goto(f"{day.url}/organizer/events/{event.pk}/seating/")
    page.get_by_role("button", name="Pre-seat all rounds").click()
    page.wait_for_load_state()
    day.shot(page, "pre-seated")
    for number in (1, 2, 3):
        assert Table.objects.filter(round__event=event, round__number=number).count() == 5


def publish_and_start(day: Day, page, event: Event, number: int) -> None:
    """Publish a preliminary round's tables and start it from the seating page.

    The final is not on the seating page: its first clock start starts it.
    """
    page.goto(f"{day.url}/organizer/events/{event.pk}/seating/?round={number}")
    section = page.locator(f"#round-{number}")
    if not section.count():
        return
    publish = section.get_by_role("button", name=f"Publish round {number}")
    if publish.count():
        publish.click()
        page.wait_for_load_state()
        section = page.locator(f"#round-{number}")
    section.locator("summary", has_text=f"Start round {number}").click()
    section.get_by_role("button", name=f"Start round {number} now").click()
    page.wait_for_load_state()


def run_the_clock(day: Day, head_judge, event: Event, number: int) -> None:
    """The head judge starts the round's clock, then calls time for every wave."""
    head_judge.goto(f"{day.url}/organizer/events/{event.pk}/clock/")
    # The page puts the live waves first, so the cards are found again after
    # each action rather than by their place on the page.
    cards = head_judge.locator("section.clock-card").filter(
        has=head_judge.locator("h2", has_text=f"Round {number} ·")
    )
    while cards.filter(has=head_judge.get_by_role("button", name="Start", exact=True)).count():
        card = cards.filter(has=head_judge.get_by_role("button", name="Start", exact=True)).first
        card = head_judge.locator(f"#{card.get_attribute('id')}")
        card.get_by_role("button", name="Start", exact=True).click()
        # The action answers with htmx inside its card, the result with it.
        card.locator("[data-card-feedback]", has_text="play has started").wait_for()
    day.shot(head_judge, f"round-{number}-clock-running")
    assert Round.objects.get(event=event, number=number).started_at is not None
    running = cards.filter(has=head_judge.locator("summary", has_text="End play"))
    while running.count():
        card = head_judge.locator(f"#{running.first.get_attribute('id')}")
        card.locator("summary", has_text="End play").click()
        card.get_by_role("button", name="End play for this wave").click()
        card.locator("[data-card-feedback]", has_text="play has ended").wait_for()


def issue_banker_links(day: Day, organizer, round_: Round) -> dict[int, str]:
    """The organizer issues each table's private link (the QR code on its table card)."""
    links = {}
    for table in round_.tables.order_by("number"):
        organizer.goto(f"{day.url}/organizer/tables/{table.pk}/banker-link/")
        organizer.get_by_role("button", name=re.compile("Issue")).click()
        organizer.wait_for_load_state()
        links[table.number] = organizer.inner_text("[data-banker-url]").strip()
    return links


# Every alias's rank in alphabetical order, filled in once the players are imported.
ALIAS_RANKS: dict[str, int] = {}


def fill_sheet(page, cash: list[int]) -> None:
    """Type each player's counted cash total, in the column order the sheet shows."""
    inputs = page.locator("input[name^=cash_]")
    assert inputs.count() == len(cash)
    for index, amount in enumerate(cash):
        inputs.nth(index).fill(str(amount))


def bank_a_table(day: Day, link: str, *, round_number: int, table_number: int, wrong_first: bool):
    """One banker at one table, on a touch tablet: last turn, game over, sheet, signatures."""
    context = day.context(touch=True)
    page = context.new_page()
    # The table card's link opens the table's page: its clock and the end-of-game buttons.
    page.goto(link)
    page.wait_for_url("**/bank/tables/*/")
    # Time has been called: last turn, then the game is over.
    page.get_by_role("button", name="Last turn").click()
    page.wait_for_load_state()
    # Game over is a second step, its submit inside a disclosure.
    page.locator("summary", has_text=re.compile("game over", re.I)).click()
    page.get_by_role("button", name=re.compile("game (is )?over", re.I)).click()
    page.wait_for_load_state()
    page.get_by_role("link", name="Enter the score sheet").click()
    page.wait_for_selector("#sheet-form")

    aliases = [head.inner_text().strip() for head in page.locator(".player-head").all()]
    # Columns follow the seats, so the cash by seat puts places in seat order. A few dollars
    # more per player (their alias's rank) make every total net worth different: players
    # level on points have the same places, so they differ by those dollars alone and the
    # cut for the final never needs the head judge.
    cash = [CASH_BY_SEAT[seat] + ALIAS_RANKS[alias] for seat, alias in enumerate(aliases)]
    fill_sheet(page, cash)
    if wrong_first:
        # A house on Boardwalk without Park Place: the rules refuse it, beside the deed.
        first_player = page.locator("select[name=owner_39] option").nth(1).get_attribute("value")
        page.select_option("select[name=owner_39]", first_player)
        page.select_option("select[name=buildings_39]", "1")
        page.wait_for_selector("#deed-msgs-39 p")
        assert page.locator("#sheet-submit").is_disabled()
        day.shot(page, f"round-{round_number}-table-{table_number}-refused")
        # Nothing typed is lost while it is wrong; the banker takes the house off.
        assert page.locator("input[name^=cash_]").first.input_value() == str(cash[0])
        page.select_option("select[name=buildings_39]", "0")
        page.wait_for_selector("#deed-msgs-39 p", state="detached")
    page.wait_for_selector("#sheet-submit:not([disabled])")
    page.click("#sheet-submit")
    page.wait_for_selector(".sign-list")
    # Each player still in the game initials the sheet, one after another.
    unsigned = page.locator(".sign-list input[id^=initials-]:not(#initials-banker)")
    for _ in range(len(aliases)):
        field_id = unsigned.first.get_attribute("id")
        page.fill(f"#{field_id}", "ok")
        page.click(f"#{field_id} ~ button")
        page.wait_for_selector(f"#{field_id}", state="detached")
    assert unsigned.count() == 0
    page.fill("#initials-banker", "BK")
    page.click("#initials-banker ~ button")
    page.wait_for_selector("[data-locked]")
    if table_number == 1:
        day.shot(page, f"round-{round_number}-table-1-signed")
    context.close()
    return aliases


def approve_and_post(day: Day, judge, head_judge, event: Event, round_: Round) -> None:
    for table in round_.tables.order_by("number"):
        judge.goto(
            f"{day.url}/organizer/events/{event.pk}/results/{round_.number}/tables/{table.number}/"
        )
        judge.get_by_role("button", name="Approve the sheet").click()
        judge.wait_for_load_state()
    judge.goto(f"{day.url}/organizer/events/{event.pk}/results/{round_.number}/")
    day.shot(judge, f"round-{round_.number}-approved")
    head_judge.goto(f"{day.url}/organizer/events/{event.pk}/results/{round_.number}/")
    # Posting asks to confirm (a second tap).
    head_judge.locator("#post summary").click()
    head_judge.get_by_role("button", name=f"Post round {round_.number} now").click()
    head_judge.wait_for_load_state()
    assert f"Round {round_.number} is posted" in head_judge.inner_text("main")


def play_round(day, organizer, head_judge, judge, event, number, *, wrong_first=False):
    publish_and_start(day, organizer, event, number)
    run_the_clock(day, head_judge, event, number)
    round_ = Round.objects.get(event=event, number=number)
    links = issue_banker_links(day, organizer, round_)
    for table_number, link in links.items():
        bank_a_table(
            day,
            link,
            round_number=number,
            table_number=table_number,
            wrong_first=wrong_first and table_number == 1,
        )
    approve_and_post(day, judge, head_judge, event, round_)
    return round_


def expected_points(event: Event) -> dict[int, int]:
    """Points from the rule book's table, places by seat (the cash was chosen that way)."""
    totals: dict[int, int] = defaultdict(int)
    for seat in Seat.objects.filter(round__event=event, round__kind=Round.Kind.PRELIMINARY):
        totals[seat.player_id] += POINTS_OF_FOUR[seat.position - 1]
    return totals


def release_and_open_the_standings_on_a_phone(day, organizer, event):
    """The organizer releases the public pages; a spectator keeps the standings open on a
    phone from the start. Nothing is posted yet, and the page says so."""
    organizer.goto(f"{day.url}/organizer/events/{event.pk}/public/")
    for switch in ("home", "tables", "results", "standings", "final", "winner"):
        organizer.check(f"[name={switch}]")
    organizer.get_by_role("button", name="Save").click()
    organizer.wait_for_load_state()
    phone = day.browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    spectator = phone.new_page()
    violations = []
    spectator.on(
        "console", lambda m: violations.append(m.text) if "Content Security" in m.text else None
    )
    spectator.goto(f"{day.url}/events/{event.pk}/standings/")
    assert "Nothing is posted here yet" in spectator.inner_text("main")
    # A mark in the page's own memory: it would be gone after any reload.
    spectator.evaluate("window.stillTheSamePage = true")
    return phone, spectator, violations


def test_a_whole_tournament_day(live_server, browser):
    day = Day(browser, live_server)
    make_user("olive", "Organizer")
    make_user("hedda", "Head judge")
    make_user("jules", "Judge")
    organizer = day.signed_in("olive")
    head_judge = day.signed_in("hedda")
    judge = day.signed_in("jules")

    event = create_event(day, organizer)
    import_players(day, organizer, event)
    aliases = sorted(Player.objects.filter(event=event).values_list("alias", flat=True))
    ALIAS_RANKS.update({alias: rank for rank, alias in enumerate(aliases)})
    absent = Player.objects.filter(event=event, status="player").order_by("pk")[3]
    check_in_everyone_but(day, organizer, event, absent)
    preseat(day, organizer, event)
    assert not Seat.objects.filter(round__event=event, player=absent).exists()

    phone, spectator, violations = release_and_open_the_standings_on_a_phone(day, organizer, event)

    for number in (1, 2, 3):
        play_round(day, organizer, head_judge, judge, event, number, wrong_first=number == 1)

    totals = expected_points(event)
    # The spectator's page caught up by itself (htmx polling), without a reload, and shows
    # the rule book's points and aliases only.
    leader = Player.objects.get(pk=max(totals, key=totals.get))
    spectator.wait_for_function(
        "() => document.querySelector('table.standings tbody tr .alias')?.textContent"
        " && document.querySelector('main').textContent.includes('1, 2, 3')",
        timeout=45_000,
    )
    assert spectator.evaluate("window.stillTheSamePage") is True
    first_row = spectator.locator("table.standings tbody tr").first
    assert first_row.locator(".alias").inner_text() == leader.alias
    assert str(totals[leader.pk]) in first_row.inner_text()
    shown = spectator.inner_text("main")
    for player in Player.objects.filter(event=event):
        assert player.last_name not in shown and player.email not in shown
    day.shot(spectator, "spectator-standings-updated")
    organizer.goto(f"{day.url}/organizer/events/{event.pk}/standings/")
    day.shot(organizer, "standings-after-round-3")
    leader_points = max(totals.values())
    assert str(leader_points) in organizer.inner_text("main")

    # Seat the final from the standings: the top four by points.
    organizer.get_by_role("button", name="Seat the final").click()
    organizer.wait_for_load_state()
    final = Round.objects.get(event=event, kind=Round.Kind.FINAL)
    finalists = set(Seat.objects.filter(round=final).values_list("player_id", flat=True))
    assert len(finalists) == 4
    assert min(totals[p] for p in finalists) >= sorted(totals.values(), reverse=True)[3]
    play_round(day, organizer, head_judge, judge, event, final.number)
    winner_seat = Seat.objects.get(round=final, position=1)
    winner = winner_seat.player

    # The winner notification form, with the winner's score sheets attached.
    organizer.goto(f"{day.url}/organizer/events/{event.pk}/printouts/")
    day.shot(organizer, "printouts")
    response = organizer.request.get(
        f"{day.url}/organizer/events/{event.pk}/players/{winner.pk}/winner-notification.pdf"
    )
    assert response.status == 200
    from pypdf import PdfReader

    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.body())).pages)
    assert winner.full_name in text and event.name in text
    (ARTIFACTS / "winner-notification.pdf").write_bytes(response.body())

    # The public winner page names the winner by alias.
    spectator.goto(f"{day.url}/events/{event.pk}/winner/")
    assert winner.alias in spectator.inner_text("main")
    assert winner.full_name not in spectator.inner_text("main")
    day.shot(spectator, "spectator-winner")
    assert violations == []
    phone.close()
