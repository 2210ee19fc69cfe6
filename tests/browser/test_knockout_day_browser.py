"""A 24-player charity knockout from "New event" to its winner, every role in its own
browser and with clicks only (`make e2e`).

The organizer, the head judge and two bankers sign in on their own tablets (1024x768) and
a spectator follows on a phone (390x844). Each opens one address, the login page or the
site's home, and from then on only clicks (typing an address fails the test); names,
scores and initials are typed into the pages' fields, and the players are pasted into the
import page, as a person would.

The kit's plan for 24 players is worked out by hand (Tournament Kit, THE DAY OF THE TOURNAMENT:
"there must be six tables to give you the required six players for the final"): one round
at six tables of four, then the six table winners play the final. Each table's cash falls
by seat, so seat 1 wins every table and the final's seat 1 wins the day.

The spectator's phone is checked at each stage: nothing of round 1 is public before its
tables are published, its tables are once they are, its results and the standings only
once the round is posted, and the hall display follows the clock to the winner.
A screenshot of each stage in each role's view is kept in ``$KNOCKOUT_ARTIFACTS``
(default ``artifacts/knockout-day``).
"""

from __future__ import annotations

import datetime
import os
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User

from tournament.models import Event, Player, Round, Seat

pytestmark = pytest.mark.e2e

PASSWORD = "a long Boardwalk passphrase"
ARTIFACTS = Path(os.environ.get("KNOCKOUT_ARTIFACTS", "artifacts/knockout-day"))
# Each table's cash by seat: seat 1 richest, so the winners are known in advance.
CASH_BY_SEAT = [3000, 2200, 1400, 600, 300, 100]
FIRST_NAMES = [
    "Abel", "Bea", "Cyrus", "Dora", "Emil", "Fern", "Gil", "Hana", "Ivo", "Jade", "Kurt",
    "Lia", "Milo", "Nell", "Otto", "Pia", "Quin", "Rhea", "Saul", "Tess", "Ugo", "Vera",
    "Wade", "Xena",
]  # fmt: skip
BANKERS = ("bram", "bette")


def players_csv() -> str:
    lines = ["first_name,last_name,date_of_birth,email,eligibility_declared,family"]
    for number, first in enumerate(FIRST_NAMES, start=1):
        lines.append(
            f"{first},Player{number:02d},19{60 + number}-05-0{1 + number % 9},"
            f"{first.lower()}@example.org,yes,"
        )
    return "\n".join(lines) + "\n"


def make_user(username: str, group: str) -> User:
    user = User.objects.create_user(username, password=PASSWORD)
    user.groups.add(Group.objects.get(name=group))
    return user


def clicks_only(page, who: str) -> None:
    """From now on ``page`` is only clicked: typing an address fails the test."""

    def no_typing(*_args, **_kwargs):
        raise AssertionError(f"the {who} typed an address")

    page.goto = no_typing


def words(text: str) -> str:
    return " ".join(text.split())


class Day:
    """The day's browser contexts and a numbered screenshot log, one per stage and role."""

    def __init__(self, browser, live_server):
        self.browser = browser
        self.url = live_server.url
        self.shots = 0
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for old in ARTIFACTS.glob("*.png"):
            old.unlink()

    def signed_in(self, username: str, who: str):
        context = self.browser.new_context(viewport={"width": 1024, "height": 768})
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.goto(self.url + "/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name=re.compile("log in", re.I)).click()
        page.wait_for_load_state()
        assert "/accounts/login/" not in page.url, page.inner_text("main")
        clicks_only(page, who)
        return page

    def phone(self):
        context = self.browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.goto(self.url + "/")
        clicks_only(page, "spectator")
        return page

    def shot(self, page, name: str) -> None:
        self.shots += 1
        page.screenshot(path=str(ARTIFACTS / f"{self.shots:02d}-{name}.png"), full_page=True)


def click(page, locator) -> None:
    locator.click()
    page.wait_for_load_state()


# --- The organizer ------------------------------------------------------------------------


class Organizer:
    def __init__(self, day: Day):
        self.day = day
        self.page = day.signed_in("olive", "organizer")
        self.stages: list[str] = []

    def overview(self) -> tuple[str, str]:
        """The cockpit, from the event's navigation: the stage and its one next action."""
        page = self.page
        click(page, page.locator("nav.event-nav").get_by_role("link", name="Overview"))
        stage = page.locator("[data-stage]").get_attribute("data-stage")
        label = page.locator("#next-action").inner_text().strip()
        self.stages.append(f"{stage}: {label}")
        return stage, label

    def follow(self) -> None:
        click(self.page, self.page.locator("#next-action"))

    def create_event(self) -> Event:
        page = self.page
        click(page, page.get_by_role("link", name="New Club / charity event"))
        page.fill("[name=name]", "Harbour Charity Knockout")
        page.fill("[name=organization]", "Harbour Club")
        page.fill("[name=venue]", "Pier Hall")
        # Today, the day of the tournament.
        page.fill("[name=date]", datetime.date.today().isoformat())
        page.fill("[name=start_time]", "00:00")
        page.fill("[name=expected_players]", "24")
        click(page, page.get_by_role("button", name="Create event"))
        self.day.shot(page, "organizer-event-created")
        return Event.objects.get(name="Harbour Charity Knockout")

    def import_players(self, event: Event) -> None:
        page = self.page
        click(page, page.get_by_role("link", name="Import CSV"))
        page.fill("[name=text]", players_csv())
        click(page, page.get_by_role("button", name="Import"))
        assert Player.objects.filter(event=event, status="player").count() == 24
        self.day.shot(page, "organizer-players-imported")

    def check_in_everyone(self, event: Event) -> None:
        page = self.page
        for player in Player.objects.filter(event=event, status="player"):
            row = page.locator(f"#check-in-{player.pk}")
            row.get_by_role("button", name="Check in").click()
            row.get_by_role("button", name="Undo").wait_for()
        self.day.shot(page, "organizer-checked-in")

    def confirm_bracket(self) -> None:
        page = self.page
        bracket = page.locator("#bracket")
        assert "24 checked in" in words(bracket.inner_text())
        plan = bracket.locator("article").filter(has_text="Table winners go through")
        rows = [r.inner_text().split("\t") for r in plan.locator("tbody tr").all()]
        # Worked by hand: 24 players, six tables of four, the six winners to the final.
        assert [[cell.strip() for cell in row] for row in rows] == [
            ["Round 1", "24", "6 tables of 4", "6 table winners to the final"],
            ["Final", "6", "1 table of 6", "the winner"],
        ]
        click(page, plan.get_by_role("button", name="Confirm this plan"))
        assert "Bracket confirmed for 24 players" in page.inner_text(".messages")

    def seat_round_1(self, event: Event) -> Round:
        page = self.page
        click(page, page.get_by_role("button", name="Seat round 1"))
        round1 = Round.objects.get(event=event, number=1)
        assert sorted(t.seats.count() for t in round1.tables.all()) == [4] * 6
        # Each table its banker: the two bankers take three tables each.
        for table in round1.tables.order_by("number"):
            form = page.locator(f"#round-1-table-{table.number} form.banker-form").filter(
                has=page.locator("select[name=banker]")
            )
            form.locator("select[name=banker]").select_option(label=BANKERS[(table.number - 1) % 2])
            click(page, form.get_by_role("button", name="Save banker"))
            assert f"table {table.number}: banker saved" in page.inner_text(".messages")
        self.day.shot(page, "organizer-round-1-seated")
        return round1

    def publish(self, number: int) -> None:
        page = self.page
        section = page.locator(f"#round-{number}")
        click(page, section.get_by_role("button", name=f"Publish round {number}"))
        self.day.shot(page, f"organizer-round-{number}-published")

    def seat_the_final(self) -> None:
        page = self.page
        click(page, page.get_by_role("button", name="Seat the final"))
        self.day.shot(page, "organizer-final-seated")

    def assign_final_banker(self, final: Round) -> None:
        page = self.page
        table = final.tables.get()
        form = page.locator(f"#round-{final.number}-table-{table.number}")
        form.locator("select[name=banker]").select_option(label=BANKERS[0])
        click(page, form.get_by_role("button", name="Save banker"))
        self.day.shot(page, "organizer-final-banker")


# --- The head judge -----------------------------------------------------------------------


class HeadJudge:
    def __init__(self, day: Day):
        self.day = day
        self.page = day.signed_in("hedda", "head judge")

    def desk(self) -> None:
        page = self.page
        click(page, page.get_by_role("link", name="Check-in desk"))

    def run_clock(self, label: str, *, start: bool) -> None:
        page = self.page
        self.desk()
        click(page, page.get_by_role("link", name="Official clock"))
        cards = page.locator("section.clock-card").filter(
            has=page.locator("h2", has_text=f"{label} ·")
        )
        if start:
            card = page.locator(f"#{cards.first.get_attribute('id')}")
            card.get_by_role("button", name="Start", exact=True).click()
            card.locator("[data-card-feedback]", has_text="play has started").wait_for()
            self.day.shot(page, f"head-judge-{label.lower().replace(' ', '-')}-clock-running")
        else:
            card = page.locator(f"#{cards.first.get_attribute('id')}")
            card.locator("summary", has_text="End play").click()
            card.get_by_role("button", name="End play for this wave").click()
            card.locator("[data-card-feedback]", has_text="play has ended").wait_for()

    def approve_and_post(self, number: int, tables: int, name: str) -> None:
        page = self.page
        self.desk()
        click(page, page.get_by_role("link", name=f"Results, round {number}"))
        for table_number in range(1, tables + 1):
            click(page, page.get_by_role("link", name=f"Open table {table_number}", exact=True))
            click(page, page.get_by_role("button", name="Approve the sheet"))
            click(page, page.get_by_role("link", name=f"Back to round {number}"))
        self.day.shot(page, f"head-judge-{name}-approved")
        page.locator("#post summary").click()
        click(page, page.get_by_role("button", name=f"Post round {number} now"))
        assert f"Round {number} is posted" in page.inner_text("main")
        self.day.shot(page, f"head-judge-{name}-posted")


# --- The bankers --------------------------------------------------------------------------


class Banker:
    def __init__(self, day: Day, username: str):
        self.day = day
        self.username = username
        self.page = day.signed_in(username, "banker")
        self.banked: list[int] = []

    def my_tables(self) -> None:
        click(self.page, self.page.get_by_role("link", name="My tables"))

    def bank_every_table(self, name: str) -> None:
        """Every table the banker is given: the first from "My tables", the next ones from
        the locked sheet's "Your next table"; then "My tables" has nothing left to do."""
        page = self.page
        self.my_tables()
        if not self.banked:
            self.day.shot(page, f"banker-{self.username}-{name}-my-tables")
        if not page.locator("#current-table").count():
            assert page.locator("[data-desk-idle]").count() == 1
            return
        heading = page.locator("#current-table").inner_text()
        click(page, page.get_by_role("link", name="Open the table: clock, last turn, game over"))
        for _ in range(10):
            self.bank_current(name, heading)
            following = page.locator("[data-next-table]")
            if not following.count():
                break
            heading = following.inner_text()
            click(page, following)
        else:
            pytest.fail(f"{self.username} never ran out of tables")
        self.my_tables()
        assert page.locator("[data-desk-idle]").count() == 1

    def bank_current(self, name: str, heading: str) -> None:
        """On the table's page: game over, the sheet, every initial."""
        page = self.page
        page.locator("summary", has_text=re.compile("Game over: time is called")).click()
        click(page, page.get_by_role("button", name="Yes, the game is over"))
        click(page, page.get_by_role("link", name="Enter the score sheet"))
        page.wait_for_selector("#sheet-form")
        inputs = page.locator("input[name^=cash_]")
        for index in range(inputs.count()):
            inputs.nth(index).fill(str(CASH_BY_SEAT[index]))
        page.wait_for_selector("#sheet-submit:not([disabled])")
        if not self.banked:
            self.day.shot(page, f"banker-{self.username}-{name}-sheet")
        page.click("#sheet-submit")
        page.wait_for_selector(".sign-list")
        unsigned = page.locator(".sign-list input[id^=initials-]:not(#initials-banker)")
        field_ids = unsigned.evaluate_all("fields => fields.map((field) => field.id)")
        for field_id in field_ids:
            page.fill(f"#{field_id}", "ok")
            page.click(f"#{field_id} ~ button")
            page.wait_for_selector(f"#{field_id}", state="detached")
        page.wait_for_selector("#initials-banker:not([disabled])")
        page.fill("#initials-banker", "BK")
        page.click("#initials-banker ~ button")
        page.wait_for_selector("[data-locked]")
        if not self.banked:
            self.day.shot(page, f"banker-{self.username}-{name}-signed")
        self.banked.append(int(re.search(r"Table (\d+)", heading).group(1)))


# --- The spectator ------------------------------------------------------------------------


class Spectator:
    def __init__(self, day: Day):
        self.day = day
        self.page = day.phone()

    def event_home(self) -> str:
        page = self.page
        if page.locator("a.brand").count():
            click(page, page.locator("a.brand"))
        click(page, page.get_by_role("link", name=re.compile("Harbour Charity Knockout")))
        return words(page.inner_text("main"))

    def hall_display(self) -> None:
        click(self.page, self.page.get_by_role("link", name=re.compile("Hall display")))

    def hall(self, shot: str) -> tuple[str, list[str]]:
        """The hall display's words and its tables' status words, from the event home (and
        back to it: the hall is a projector's page, with no links of its own)."""
        self.event_home()
        self.hall_display()
        text = words(self.page.inner_text("main"))
        labels = [
            words(label).lower()
            for label in self.page.locator("[data-table-label]").all_text_contents()
        ]
        self.day.shot(self.page, shot)
        self.page.go_back()
        return text, labels

    def links(self) -> list[str]:
        return [words(a) for a in self.page.locator("main a").all_inner_texts()]

    def round_links(self, number: int) -> list[str]:
        """The links of round ``number`` in the event home's schedule."""
        item = self.page.locator("li.schedule-round").filter(has_text=f"Round {number} ·")
        if not item.count():
            return []
        return [words(a) for a in item.locator("a").all_inner_texts()]


def see_the_posted_round(day: Day, spectator: Spectator, event: Event, number: int, name: str):
    """Once a round is posted the phone finds its results and the standings (and, for the
    final, the winner on the hall display)."""
    page = spectator.page
    home = spectator.event_home()
    final = number > 1
    # The final's table has its own page ("The final table"), not a round's tables page.
    assert spectator.round_links(number) == (["Results"] if final else ["Tables", "Results"]), home
    assert "Standings" in spectator.links(), home
    day.shot(page, f"spectator-{name}-posted")
    item = page.locator("li.schedule-round").filter(has_text=f"Round {number} ·")
    click(page, item.get_by_role("link", name="Results"))
    results = words(page.inner_text("main"))
    winners = Seat.objects.filter(round__event=event, round__number=number, position=1)
    assert all(seat.player.alias in results for seat in winners), results
    day.shot(page, f"spectator-{name}-results")
    spectator.event_home()
    click(page, page.get_by_role("link", name="Standings"))
    standings = words(page.inner_text("main"))
    assert all(seat.player.alias in standings for seat in winners), standings
    day.shot(page, f"spectator-{name}-standings")
    if not final:
        # Every table of round 1 is scored on the hall.
        hall, labels = spectator.hall("spectator-hall-round-1-posted")
        assert labels == ["scored"] * 6, hall
    else:
        spectator.event_home()
        spectator.hall_display()
        winner = winners.get().player.alias
        assert winner in page.locator(".hall-end-winner").inner_text()
        day.shot(page, "spectator-hall-winner")
        page.go_back()


def see_round_1_seated(spectator: Spectator, event: Event) -> list[str]:
    """Seated, not published: the phone sees nothing of round 1, on the home or the hall."""
    home = spectator.event_home()
    assert spectator.round_links(1) == [], home
    hall, labels = spectator.hall("spectator-hall-round-1-seated")
    assert labels == [] and "releases the event's home page" in hall.lower(), hall
    aliases = [s.player.alias for s in Seat.objects.filter(round__event=event, round__number=1)]
    assert not any(alias in hall for alias in aliases), hall
    return aliases


def see_round_1_published(day: Day, spectator: Spectator, event: Event, aliases: list[str]):
    """Published: the round's tables by alias (no names), not its results or standings; the
    hall shows the tables waiting for the head judge's start."""
    home = spectator.event_home()
    assert spectator.round_links(1) == ["Tables"], home
    assert "Standings" not in spectator.links(), home
    click(spectator.page, spectator.page.get_by_role("link", name="Tables"))
    tables = words(spectator.page.inner_text("main"))
    for seat in Seat.objects.filter(round__event=event, round__number=1):
        assert seat.player.alias in tables
        assert seat.player.last_name not in tables
    day.shot(spectator.page, "spectator-round-1-tables")
    hall, labels = spectator.hall("spectator-hall-round-1-published")
    assert "NOT STARTED" in hall and labels == ["not started"] * 6, hall
    assert all(alias in hall for alias in aliases), hall


def see_the_clock_running(day: Day, spectator: Spectator, name: str) -> None:
    spectator.event_home()
    spectator.hall_display()
    spectator.page.locator(".hall-status[data-status=running]").wait_for()
    day.shot(spectator.page, f"spectator-hall-{name.replace(' ', '-')}-running")
    spectator.page.go_back()


def see_the_final_seated(day: Day, spectator: Spectator, final: Round) -> None:
    """The six table winners are the finalists, and the phone's final page names them."""
    finalists = {s.player.alias for s in final.seats.all()}
    winners = Seat.objects.filter(round__event=final.event, round__number=1, position=1)
    assert finalists == {s.player.alias for s in winners}
    spectator.event_home()
    click(spectator.page, spectator.page.get_by_role("link", name="The final table"))
    shown = words(spectator.page.inner_text("main"))
    assert all(alias in shown for alias in finalists), shown
    day.shot(spectator.page, "spectator-final-seated")


def collect_the_sheets(spectator: Spectator, bankers: list[Banker], final: Round | None):
    """Each banker banks the tables the organizer gave them, and only those; signed, not
    posted, the phone sees no results of the round yet."""
    name = "round-1" if final is None else "final"
    for banker in bankers:
        banker.bank_every_table(name)
    if final is None:
        assert [b.banked for b in bankers] == [[1, 3, 5], [2, 4, 6]]
    else:
        assert [b.banked for b in bankers] == [[1, 3, 5, 1], [2, 4, 6]]
    home = spectator.event_home()
    number = 1 if final is None else final.number
    assert "Results" not in spectator.round_links(number), home


def test_a_24_player_charity_knockout_from_new_event_to_the_winner(live_server, browser, settings):
    settings.BOARDWALK_LIVE_POLL_SECONDS = 1
    day = Day(browser, live_server)
    make_user("olive", "Organizer")
    make_user("hedda", "Head judge")
    for username in BANKERS:
        make_user(username, "Banker")
    organizer = Organizer(day)
    head_judge = HeadJudge(day)
    bankers = [Banker(day, username) for username in BANKERS]
    spectator = Spectator(day)

    event = organizer.create_event()
    home = spectator.event_home()
    day.shot(spectator.page, "spectator-before-play")
    assert "Nothing is posted here yet" in home

    final: Round | None = None
    posted: list[str] = []
    for _step in range(40):
        stage, label = organizer.overview()
        if stage == "forms":
            break
        organizer.follow()
        name = "round-1" if final is None else "final"
        number = 1 if final is None else final.number
        if label.startswith("Register players"):
            organizer.import_players(event)
        elif label.startswith("Check players in"):
            organizer.check_in_everyone(event)
        elif label == "Confirm the bracket":
            organizer.confirm_bracket()
        elif label == "Seat round 1":
            organizer.seat_round_1(event)
            aliases = see_round_1_seated(spectator, event)
        elif label == "Publish the tables of round 1":
            organizer.publish(1)
            see_round_1_published(day, spectator, event, aliases)
        elif label.startswith("Start the clock of"):
            head_judge.run_clock(f"Round {number}", start=True)
            see_the_clock_running(day, spectator, name)
        elif label.startswith("Follow the clock"):
            head_judge.run_clock(f"Round {number}", start=False)
        elif label.startswith("Collect the score sheets"):
            collect_the_sheets(spectator, bankers, final)
        elif label.startswith("Post the results"):
            tables = Round.objects.get(event=event, number=number).tables.count()
            head_judge.approve_and_post(number, tables, name)
            posted.append(name)
            see_the_posted_round(day, spectator, event, number, name)
        elif label == "Seat the final":
            assert "The final table" not in spectator.links()
            organizer.seat_the_final()
            final = Round.objects.get(event=event, kind=Round.Kind.FINAL)
            see_the_final_seated(day, spectator, final)
        elif label.startswith("Assign the final"):
            organizer.assign_final_banker(final)
            # Tournament Kit: "The Banker in the Final Round must not be a player": a banker's
            # account.
            assert final.tables.get().banker.username == BANKERS[0]
        else:
            pytest.fail(f"the cockpit asked for something this day does not know: {label}")
    else:
        pytest.fail(f"the day did not end: {organizer.stages}")

    assert posted == ["round-1", "final"]
    winner = Seat.objects.get(round=final, position=1).player
    home = spectator.event_home()
    # The home ends the day as the hall does: it opens on the winner, nothing "now".
    assert f"The winner {winner.alias}" in home and "Now Round" not in home, home
    click(spectator.page, spectator.page.get_by_role("link", name="The winner"))
    assert winner.alias in spectator.page.inner_text("main")
    day.shot(spectator.page, "spectator-winner")
    (ARTIFACTS / "stages.txt").write_text("\n".join(organizer.stages) + "\n")
