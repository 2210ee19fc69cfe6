"""A bankruptcy on the banker's tablet in a real browser, under the site's CSP.

Championship Rules, SPECTATORS: "When players are bankrupt, they should promptly sign their score
sheet and leave the table." The banker records it on the table page, the player types their initials
there, and the score sheet at the end of the game starts from it, even on a tablet that
kept older entries of that sheet.
"""

from __future__ import annotations

import datetime
import os

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from clock.services import clock_start
from tournament.models import Bankruptcy, Player, Round, Seat, Table, Wave
from tournament.services import event_create

REPORT = """
document.addEventListener('securitypolicyviolation', (e) => {
  console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI);
});
"""
# Set BOARDWALK_SHOTS=/some/dir to keep screenshots of each step for a look by eye.
SHOTS = os.environ.get("BOARDWALK_SHOTS")


@pytest.fixture
def table(transactional_db) -> Table:
    """A table of four whose game has been on for ten minutes; its banker is "bea"."""
    event = event_create(
        name="Bankrupt Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2031, 3, 1),
        start_time=datetime.time(10, 0),
    )
    round_ = Round.objects.create(event=event, number=1)
    wave = Wave.objects.create(round=round_, number=1)
    banker = User.objects.create_user("bea", password="pw")
    banker.groups.add(Group.objects.get(name="Banker"))
    table = Table.objects.create(round=round_, wave=wave, number=1, banker=banker)
    for position, alias in enumerate(["Boot", "Car", "Hat", "Dog"], start=1):
        player = Player.objects.create(
            event=event,
            first_name=f"Real{alias}",
            last_name="Name",
            date_of_birth=datetime.date(1990, 1, 1),
            signature="x",
            signed_at=timezone.now(),
            alias=alias,
        )
        Seat.objects.create(round=round_, table=table, player=player, position=position)
    clock_start(wave=wave, now=timezone.now() - datetime.timedelta(minutes=10))
    return table


def open_page(browser, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.add_init_script(REPORT)
    complaints: list[str] = []
    page.on(
        "console",
        lambda m: (
            complaints.append(m.text) if "CSP" in m.text or "Content Security" in m.text else None
        ),
    )
    return context, page, complaints


def log_in(page, live_server) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "bea")
    page.fill("input[name=password]", "pw")
    page.click("form.stacked-form [type=submit]")
    page.wait_for_load_state()


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def fits(page) -> bool:
    """Nothing wider than the screen: no sideways scrolling on the tablet or the phone."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def record(page, *, who: str, to: str, initials: str) -> None:
    page.click("text=A player went bankrupt")
    page.wait_for_selector("form.bankruptcy-form")
    page.click(f"fieldset:has(legend:text('Who went bankrupt?')) label:has-text('{who}')")
    page.click(f"fieldset:has(legend:text('To whom?')) label:has-text('{to}')")
    page.fill("input[name=initials]", initials)
    page.click("text=Record and sign")
    page.wait_for_selector(".bankruptcy-list")


def test_a_bankruptcy_is_recorded_undone_and_starts_the_sheet(live_server, browser, table):
    context, page, complaints = open_page(browser, 1024, 768)
    log_in(page, live_server)
    # The banker peeks at the sheet during play: the tablet keeps that (empty) sheet.
    page.goto(f"{live_server.url}/bank/tables/{table.pk}/sheet/")
    page.wait_for_selector("#sheet-form")

    page.goto(f"{live_server.url}/bank/tables/{table.pk}/")
    assert page.locator("text=Nobody has gone bankrupt at this table.").is_visible()
    page.click("text=A player went bankrupt")
    page.wait_for_selector("form.bankruptcy-form")
    assert fits(page)
    shot(page, "record-1024")
    # Forgetting the initials: told so, the choices kept, nothing recorded.
    page.click("fieldset:has(legend:text('Who went bankrupt?')) label:has-text('Dog')")
    page.click("fieldset:has(legend:text('To whom?')) label:has-text('Hat')")
    page.click("text=Record and sign")
    page.wait_for_selector(".form-errors")
    assert "signature on the score sheet" in page.inner_text(".field-error")
    assert page.is_checked("fieldset:has(legend:text('Who went bankrupt?')) input[value]:checked")
    assert not Bankruptcy.objects.exists()
    page.fill("input[name=initials]", "DG")
    page.click("text=Record and sign")
    page.wait_for_selector(".bankruptcy-list")
    assert "Dog is out, bankrupt to Hat, and has signed." in page.inner_text(".messages")
    assert "signed DG" in page.inner_text(".bankruptcy-list")
    assert fits(page)
    shot(page, "table-1024")

    # A mistake: undone after a confirmation, Dog is back in the game.
    page.click(".bankruptcy-list summary")
    shot(page, "undo-1024")
    page.click("text=Yes, Dog is still playing")
    page.wait_for_selector("text=Nobody has gone bankrupt at this table.")
    assert not Bankruptcy.objects.exists()

    record(page, who="Dog", to="Hat", initials="DG")
    record(page, who="Boot", to="The Bank", initials="BT")
    record(page, who="Car", to="Hat", initials="CR")
    assert page.locator("text=Hat is the last player left and wins outright.").is_visible()
    page.click("text=Game over: one player remains")
    page.get_by_role("button", name="Yes, the game is over").click()  # the second step
    page.click("text=Enter the score sheet")
    page.wait_for_selector("#sheet-form")
    shot(page, "sheet-1024")
    dog, boot, car, hat = (Player.objects.get(alias=a) for a in ("Dog", "Boot", "Car", "Hat"))
    # The sheet starts from the record, not from the entries this tablet kept before it...
    for player, order in [(dog, "1"), (boot, "2"), (car, "3")]:
        assert page.is_checked(f"input[name=bankrupt_{player.pk}]")
        assert page.input_value(f"input[name=out_order_{player.pk}]") == order
    assert not page.is_checked(f"input[name=bankrupt_{hat.pk}]")
    assert page.locator("text=Signed: DG").is_visible()
    # ...which it offers to put back rather than laying them over the record.
    assert page.locator("#sheet-restore").is_visible()
    assert "a bankruptcy recorded at the table" in page.inner_text("#sheet-restore")
    assert complaints == []
    context.close()


def test_the_bankruptcy_pages_fit_a_phone(live_server, browser, table):
    context, page, complaints = open_page(browser, 390, 844)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/bank/tables/{table.pk}/")
    record(page, who="Dog", to="The Bank", initials="DG")
    assert fits(page)
    shot(page, "table-390")
    page.click("text=A player went bankrupt")
    page.wait_for_selector("form.bankruptcy-form")
    assert fits(page)
    shot(page, "record-390")
    assert complaints == []
    context.close()
