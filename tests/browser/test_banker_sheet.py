"""The banker's score sheet in a real browser at 1024x768: entry, live net worth, signing,
and a submission that survives a dropped network and is applied exactly once.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from banker.links import banker_link_issue
from scoring.models import SheetRevision, TableSheet
from scoring.selectors import banker_table_players
from tests.banker.banker_setup import finished_tables
from tournament.models import Table


@pytest.fixture
def table(transactional_db):
    return finished_tables(players=4)[0]


def open_by_link(page, live_server, table):
    link = banker_link_issue(table=table, by=None)
    page.goto(f"{live_server.url}/bank/k/{link.key}/")
    page.wait_for_selector("#sheet-form")


def wait_text(page, selector: str, text: str) -> None:
    """The bar is swapped by htmx after every change: look the element up each time."""
    page.wait_for_function(
        "([s, t]) => document.querySelector(s)?.textContent.trim() === t",
        arg=[selector, text],
    )


def fill_four(page, table):
    """Boot holds Boardwalk and $500 + 2 x $100; Car $1,500 typed; Hat $1,000; Dog out."""
    boot, car, hat, dog = banker_table_players(table=table)
    page.select_option("select[name=owner_39]", str(boot.pk))
    page.click(f"input[name=bills_{boot.pk}_500] ~ button[data-step='1']")
    for _ in range(2):
        page.click(f"input[name=bills_{boot.pk}_100] ~ button[data-step='1']")
    page.fill(f"input[name=cash_{car.pk}]", "1500")
    page.fill(f"input[name=cash_{hat.pk}]", "1000")
    page.check(f"input[name=bankrupt_{dog.pk}]")
    page.fill(f"input[name=out_order_{dog.pk}]", "1")
    return boot, car, hat, dog


def test_a_banker_enters_submits_and_signs_a_table_of_four(live_server, page, table):
    user = User.objects.create_user("banker", password="pw")
    user.groups.add(Group.objects.get(name="Banker"))
    Table.objects.filter(pk=table.pk).update(banker=user)  # the organizer assigned them
    page.goto(f"{live_server.url}/accounts/login/?next=/bank/tables/{table.pk}/sheet/")
    page.fill("input[name=username]", "banker")
    page.fill("input[name=password]", "pw")
    page.click("form [type=submit]")
    page.wait_for_selector("#sheet-form")
    # A first visit has nothing of its own to restore, so the offer stays hidden.
    assert not page.locator("#sheet-restore").is_visible()

    boot, car, hat, dog = fill_four(page, table)
    # The live net worth, in the bar at the bottom of the screen: 700 cash + 400 Boardwalk.
    worth = f"[data-worth='{boot.pk}'] [data-net-worth]"
    wait_text(page, worth, "$1,100")
    assert page.locator(worth).is_visible()
    assert page.locator("#sheet-submit").is_visible()
    # A house on Boardwalk alone breaks the rules: the message sits beside the deed.
    page.select_option("select[name=buildings_39]", "1")
    page.wait_for_selector("#deed-msgs-39 p")
    wait_text(page, worth, "$1,300")  # one house: + 200
    assert page.locator("#sheet-submit").is_disabled()
    page.select_option("select[name=buildings_39]", "0")
    page.wait_for_selector("#deed-msgs-39 p", state="detached")
    page.wait_for_selector("#sheet-submit:not([disabled])")

    page.click("#sheet-submit")
    page.wait_for_selector(".sign-list")
    for player in (boot, car, hat, dog):
        page.fill(f"#initials-{player.pk}", player.alias[:2])
        page.click(f"#initials-{player.pk} ~ button")
        page.wait_for_selector(f"#initials-{player.pk}", state="detached")
    page.fill("#initials-banker", "BK")
    page.click("#initials-banker ~ button")
    page.wait_for_selector("[data-locked]")
    assert page.locator(f"[data-result='{boot.pk}']").inner_text().startswith("2")
    sheet = TableSheet.objects.get(table=table)
    assert sheet.status == TableSheet.Status.SIGNED


def test_a_submission_survives_a_network_drop_and_is_applied_once(live_server, page, table):
    open_by_link(page, live_server, table)
    boot, car, hat, dog = fill_four(page, table)
    page.wait_for_selector("#sheet-submit:not([disabled])")

    attempts = {"count": 0}

    def flaky(route):
        attempts["count"] += 1
        if attempts["count"] <= 2:
            route.abort("internetdisconnected")  # never reaches the server
        elif attempts["count"] == 3:
            route.fetch()  # reaches the server and is applied, but the answer is lost
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/sheet/submit/", flaky)
    page.click("#sheet-submit")
    page.wait_for_selector("[data-sheet][data-submitting='retrying']")
    assert "will retry" in page.inner_text("#sheet-status")
    assert not TableSheet.objects.filter(table=table, status=TableSheet.Status.SUBMITTED).exists()

    # A reload in between: the entries and the pending submission come back and resume.
    page.reload()
    page.wait_for_selector("#sheet-form")
    assert page.input_value(f"input[name=cash_{car.pk}]") == "1500"
    assert page.input_value("select[name=owner_39]") == str(boot.pk)

    page.wait_for_selector(".sign-list", timeout=30_000)
    assert attempts["count"] >= 4
    sheet = TableSheet.objects.get(table=table)
    assert sheet.status == TableSheet.Status.SUBMITTED
    assert sheet.revisions.filter(kind=SheetRevision.Kind.SUBMISSION).count() == 1
    assert sheet.data["properties"][0]["owner"] == str(boot.pk)


def test_quick_entry_gives_deeds_to_a_player_with_one_tap_each(live_server, page, table):
    """Choose a player once, then tap deed names: the owner lists follow, and so does the
    live net worth (Mediterranean 60 + Baltic 60 + Boardwalk 400 = $520)."""
    open_by_link(page, live_server, table)
    boot, car, hat, dog = banker_table_players(table=table)
    page.click(f"[data-paint-owner='{boot.pk}']")
    for position in (1, 3, 39):
        page.click(f"tr.deed[data-position='{position}'] .deed-name")
    for position in (1, 3, 39):
        assert page.input_value(f"select[name=owner_{position}]") == str(boot.pk)
    wait_text(page, f"[data-worth='{boot.pk}'] [data-net-worth]", "$520")
    # A second tap hands the deed back to the bank; another player takes the next one.
    page.click("tr.deed[data-position='39'] .deed-name")
    assert page.input_value("select[name=owner_39]") == ""
    page.click(f"[data-paint-owner='{car.pk}']")
    page.click("tr.deed[data-position='37'] .deed-name")
    assert page.input_value("select[name=owner_37]") == str(car.pk)
    wait_text(page, f"[data-worth='{boot.pk}'] [data-net-worth]", "$120")
    wait_text(page, f"[data-worth='{car.pk}'] [data-net-worth]", "$350")
