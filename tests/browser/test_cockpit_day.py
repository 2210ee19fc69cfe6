"""A whole championship day run from the event cockpit, with clicks only.

The organizer logs in once; from then on the test never types an address. Each step it
opens the cockpit (the event's "Overview" tab), reads the one next action, follows the
primary button and does what the page it lands on asks: import the players, check them
in, mark a no-show (and undo it, then mark it again), pre-seat, publish, start and end the
clock, issue each table's banker link, post each round after confirming, seat the final
and give it its banker (an account: the final's banker must not be a player),
and reach the winner's forms. The only other addresses opened are the banker links, by the
bankers' own tablets, as a table card's QR code would.

A screenshot of the cockpit in each state of the day is kept in ``$COCKPIT_ARTIFACTS``
(default ``artifacts/cockpit``), named by its order and stage.
"""

from __future__ import annotations

import datetime
import os
import re
from pathlib import Path

import pytest

from tests.browser.test_e2e_tournament_day import (
    ALIAS_RANKS,
    PASSWORD,
    bank_a_table,
    make_user,
    players_csv,
)
from tournament.models import Event, Player, Round

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(os.environ.get("COCKPIT_ARTIFACTS", "artifacts/cockpit"))


class Cockpit:
    """The organizer's page and the screenshots of the cockpit, one per state."""

    def __init__(self, browser, live_server):
        self.browser = browser
        self.url = live_server.url
        self.shots = 0
        self.stages: list[str] = []
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for old in ARTIFACTS.glob("*.png"):
            old.unlink()
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        context.set_default_timeout(15_000)
        self.page = context.new_page()
        self.page.goto(self.url + "/accounts/login/")
        self.page.get_by_label("Username").fill("olive")
        self.page.get_by_label("Password").fill(PASSWORD)
        self.page.get_by_role("button", name=re.compile("log in", re.I)).click()
        self.page.wait_for_load_state()

        # From here on the organizer only clicks: typing an address fails the test.
        def no_typing(*_args, **_kwargs):
            raise AssertionError("the organizer typed an address after logging in")

        self.page.goto = no_typing

    def context(self, *, touch: bool = False):
        """A banker's tablet (used by the e2e test's ``bank_a_table``)."""
        context = self.browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=touch)
        context.set_default_timeout(15_000)
        return context

    def shot(self, page, name: str) -> None:
        """The bankers' screens are the e2e test's to keep; here only the cockpit's."""

    def overview(self) -> tuple[str, str]:
        """Open the cockpit from the event's navigation; screenshot a new state."""
        nav = self.page.locator("nav.event-nav")
        nav.get_by_role("link", name="Overview").click()
        self.page.wait_for_load_state()
        assert nav.locator('[aria-current="page"]').inner_text() == "Overview"
        stage = self.page.locator("[data-stage]").get_attribute("data-stage")
        label = self.page.locator("#next-action").inner_text().strip()
        if not self.stages or self.stages[-1] != f"{stage}: {label}":
            self.stages.append(f"{stage}: {label}")
            self.shots += 1
            name = re.sub(r"[^a-z0-9]+", "-", f"{stage}-{label}".lower()).strip("-")[:60]
            self.page.screenshot(
                path=str(ARTIFACTS / f"{self.shots:02d}-{name}.png"), full_page=True
            )
        return stage, label

    def follow(self) -> None:
        self.page.locator("#next-action").click()
        self.page.wait_for_load_state()


def create_event(cockpit: Cockpit) -> Event:
    page = cockpit.page
    page.get_by_role("link", name="Organizer").first.click()
    page.get_by_role("link", name="New Championship event").click()
    page.fill("[name=name]", "Pier Championship")
    page.fill("[name=organization]", "Pier Club")
    page.fill("[name=venue]", "Pier Hall")
    # Today, from midnight: the official start has passed, so no-shows can be marked.
    page.fill("[name=date]", datetime.date.today().isoformat())
    page.fill("[name=start_time]", "00:00")
    page.fill("[name=expected_players]", "20")
    page.fill("[name=alternates]", "4")
    page.get_by_role("button", name="Create event").click()
    page.wait_for_load_state()
    return Event.objects.get(name="Pier Championship")


def import_players(cockpit: Cockpit, event: Event) -> None:
    page = cockpit.page
    page.get_by_role("link", name="Import CSV").click()
    page.fill("[name=text]", players_csv())
    page.get_by_role("button", name="Import").click()
    page.wait_for_load_state()
    assert Player.objects.filter(event=event, status="player").count() == 20
    aliases = sorted(Player.objects.filter(event=event).values_list("alias", flat=True))
    ALIAS_RANKS.clear()
    ALIAS_RANKS.update({alias: rank for rank, alias in enumerate(aliases)})


def check_in_all_but(cockpit: Cockpit, event: Event, absent: Player) -> None:
    """Players and alternates arrive; one seated player does not."""
    page = cockpit.page
    for player in Player.objects.filter(event=event, status__in=("player", "alternate")):
        if player.pk == absent.pk:
            continue
        row = page.locator(f"#check-in-{player.pk}")
        row.get_by_role("button", name="Check in").click()
        row.get_by_role("button", name="Undo").wait_for()


def no_show(cockpit: Cockpit, absent: Player, *, undo: bool) -> None:
    """From the desk's "Not here at the start" list (the cockpit's step opens it): one tap
    marks the no-show, the message says who takes the seat; undo it the first time."""
    page = cockpit.page
    alternate = Player.objects.get(event=absent.event, status="alternate", alternate_position=1)
    not_here = page.locator("#not-here")
    not_here.get_by_role("button", name=f"No-show: {absent.alias}").click()
    page.wait_for_load_state()
    told = f"{absent.alias} is a no-show; {alternate.alias} ({alternate.full_name}) takes the seat."
    assert told in page.inner_text("main")
    absent.refresh_from_db()
    alternate.refresh_from_db()
    assert (absent.status, alternate.status) == ("no_show", "player")
    if not undo:
        return
    page.locator("#not-here").get_by_role(
        "button", name=f"Undo the no-show of {absent.alias}"
    ).click()
    page.wait_for_load_state()
    absent.refresh_from_db()
    alternate.refresh_from_db()
    assert absent.status == "player"
    assert (alternate.status, alternate.alternate_position) == ("alternate", 1)


def run_clock(cockpit: Cockpit, number: int, *, start: bool) -> None:
    """On the clock page: start round ``number``'s waves, or end play on each of them."""
    page = cockpit.page
    name = "Start" if start else "End play for this wave"
    # The end sits behind a second tap (a closed <details>), so find its summary.
    handle = (
        page.get_by_role("button", name="Start", exact=True)
        if start
        else page.locator("summary", has_text="End play")
    )
    while True:
        cards = (
            page.locator("section.clock-card")
            .filter(has=page.locator("h2", has_text=f"Round {number} ·"))
            .filter(has=handle)
        )
        if not cards.count():
            break
        card = page.locator(f"#{cards.first.get_attribute('id')}")
        if not start:
            card.locator("summary", has_text="End play").click()
        card.get_by_role("button", name=name, exact=True).click()
        # The action answers with htmx inside its card, the result with it.
        done = "play has started" if start else "play has ended"
        card.locator("[data-card-feedback]", has_text=done).wait_for()


def collect_sheets(cockpit: Cockpit, number: int) -> None:
    """Each table's banker link from its results page; the banker's tablet does the rest,
    then a judge approves the signed sheet on the table's page."""
    page = cockpit.page
    count = page.locator("table.results-tables tbody tr").count()
    for table_number in range(1, count + 1):
        page.get_by_role("link", name=f"Open table {table_number}", exact=True).click()
        page.get_by_role("link", name="Banker's private link and QR code").click()
        page.get_by_role("button", name="Issue a link").click()
        page.wait_for_load_state()
        link = page.inner_text("[data-banker-url]").strip()
        bank_a_table(
            cockpit,
            link,
            round_number=number,
            table_number=table_number,
            wrong_first=False,
        )
        page.get_by_role("link", name=f"Back to table {table_number}").click()
        # A championship posts only sheets a judge has approved.
        page.get_by_role("button", name="Approve the sheet").click()
        page.wait_for_load_state()
        page.get_by_role("link", name=f"Back to round {number}").click()


def post_round(cockpit: Cockpit, number: int) -> None:
    page = cockpit.page
    page.locator("#post summary").click()
    assert "become the official results" in page.inner_text("#post-consequence")
    page.get_by_role("button", name=f"Post round {number} now").click()
    page.wait_for_load_state()
    assert f"Round {number} is posted" in page.inner_text("main")


def assign_the_final_banker(cockpit: Cockpit) -> None:
    """Tournament Kit: "The Banker in the Final Round must not be a player": the cockpit opens the
    seating page at the final's table; the organizer gives it the banker's account."""
    page = cockpit.page
    form = page.locator(f"form#{page.url.split('#', 1)[1]}")
    form.locator("select[name=banker]").select_option(label="bart")
    form.get_by_role("button", name="Save banker").click()
    page.wait_for_load_state()
    assert "banker saved" in page.inner_text(".messages")


def test_a_championship_day_from_the_cockpit(live_server, browser):
    make_user("olive", "Organizer")
    make_user("bart", "Banker")
    cockpit = Cockpit(browser, live_server)
    page = cockpit.page
    event = create_event(cockpit)
    absent: Player | None = None
    undone = False
    posted: list[int] = []
    for _step in range(60):
        stage, label = cockpit.overview()
        if stage == "forms":
            break
        cockpit.follow()
        path = page.url.split(cockpit.url, 1)[1]
        if label.startswith("Register players"):
            import_players(cockpit, event)
        elif label.startswith("Check players in"):
            absent = Player.objects.filter(event=event, status="player").order_by("pk")[3]
            check_in_all_but(cockpit, event, absent)
        elif label.startswith("Mark the no-shows"):
            no_show(cockpit, absent, undo=not undone)
            undone = True
        elif label == "Seat the rounds":
            page.get_by_role("button", name="Pre-seat all rounds").click()
            page.wait_for_load_state()
        elif label.startswith("Publish the tables of round"):
            number = int(path.rsplit("round-", 1)[1])
            page.get_by_role("button", name=f"Publish round {number}").click()
            page.wait_for_load_state()
        elif label.startswith("Start the clock"):
            run_clock(cockpit, int(stage.split("-")[1]), start=True)
        elif label.startswith("Follow the clock"):
            run_clock(cockpit, int(stage.split("-")[1]), start=False)
        elif label.startswith("Collect the score sheets"):
            collect_sheets(cockpit, int(stage.split("-")[1]))
        elif label.startswith("Post the results"):
            number = int(stage.split("-")[1])
            post_round(cockpit, number)
            posted.append(number)
        elif label == "Seat the final":
            page.get_by_role("button", name="Seat the final").click()
            page.wait_for_load_state()
        elif label.startswith("Assign the final's banker"):
            assign_the_final_banker(cockpit)
        else:
            pytest.fail(f"the cockpit asked for something this day does not know: {label}")
    else:
        pytest.fail(f"the day did not end: {cockpit.stages}")

    assert undone and absent is not None
    absent.refresh_from_db()
    assert absent.status == "no_show"
    final = Round.objects.get(event=event, kind=Round.Kind.FINAL)
    assert posted == [1, 2, 3, final.number]
    # The forms: the cockpit's last button opens the printouts, with the winner's form.
    cockpit.follow()
    assert "/printouts/" in page.url
    assert page.get_by_role("link", name=re.compile("Winner", re.I)).count()
    # Every round went through its steps, each shown by the cockpit in turn.
    for number in (1, 2, 3):
        for step in ("Publish the tables", "Start the clock", "Follow the clock", "Collect"):
            assert any(entry.startswith(f"round-{number}: {step}") for entry in cockpit.stages), (
                number,
                step,
                cockpit.stages,
            )
    stages = [entry.split(":")[0] for entry in cockpit.stages]
    for expected in ("registration", "check_in", "seating", "final", "round-4", "forms"):
        assert expected in stages, cockpit.stages
    assert "round-4: Assign the final's banker" in cockpit.stages
    assert final.tables.get().banker.username == "bart"
    (ARTIFACTS / "stages.txt").write_text("\n".join(cockpit.stages) + "\n")
