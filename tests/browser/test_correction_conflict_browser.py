"""Two judges correct the same table at once, in chromium at tablet size.

Both open the correction; the first saves Car's cash; the second, still on the page loaded
before, saves Dog's. The second gets the banker's conflict screen, with everything typed
still in the form, takes the first judge's number for Car and saves over. Screenshots go to
``$BROWSER_ARTIFACTS`` (default ``artifacts/browser``).
"""

import os
import re
from pathlib import Path

from django.contrib.auth.models import Group, User

from scoring.models import ResultLine
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.roles import JUDGE

PASSWORD = "a long Boardwalk passphrase"
ARTIFACTS = Path(os.environ.get("BROWSER_ARTIFACTS", "artifacts/browser"))


def sign_table(event) -> None:
    p = players_with_aliases(event, aliases=["Boot", "Car", "Hat", "Dog"])
    round_ = make_round(event, 1, [list(p.values())])
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 1500, p["Dog"]: 1000})


def judge_page(browser, live_server, name: str):
    person = User.objects.create_user(name, password=PASSWORD)
    person.groups.add(Group.objects.get(name=JUDGE))
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url("**/organizer/judging/")
    return context, page


def net_worth(alias: str) -> int:
    return ResultLine.objects.get(player__alias=alias).net_worth


def test_the_second_judge_sees_the_first_ones_correction_and_loses_nothing(
    live_server, browser, event
):
    sign_table(event)
    correction = f"{live_server.url}/organizer/events/{event.pk}/results/1/tables/1/correct/"
    first_context, first = judge_page(browser, live_server, "ada")
    second_context, second = judge_page(browser, live_server, "ben")
    first.goto(correction)
    second.goto(correction)

    first.get_by_label("Cash of Car").fill("4321")
    first.get_by_label("Reason").fill("Car's 500s were counted as 100s")
    first.get_by_role("button", name="Save the correction").click()
    first.wait_for_url("**/tables/1/")
    assert net_worth("Car") == 4321

    second.get_by_label("Cash of Dog").fill("5555")
    second.get_by_label("Reason").fill("Dog's bills recounted")
    second.get_by_role("button", name="Save the correction").click()
    conflict = second.locator(".sheet-conflict")
    conflict.wait_for()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    second.screenshot(path=str(ARTIFACTS / "correction-conflict.png"))
    second.screenshot(path=str(ARTIFACTS / "correction-conflict-full.png"), full_page=True)
    assert "Another judge corrected this sheet" in conflict.inner_text()
    rows = [
        [cell.strip() for cell in row.split("\t")]
        for row in conflict.locator("tbody tr").all_inner_texts()
    ]
    assert ["Car: counted cash", "4321", "2000"] in rows
    assert ["Dog: counted cash", "1000", "5555"] in rows
    # Nothing typed is lost, and nothing was saved over the first judge's correction.
    assert second.get_by_label("Cash of Dog").input_value() == "5555"
    assert second.get_by_label("Reason").input_value() == "Dog's bills recounted"
    assert (net_worth("Car"), net_worth("Dog")) == (4321, 1000)

    # The second judge takes the first one's number for Car and keeps their own for Dog.
    second.get_by_label("Cash of Car").fill("4321")
    second.get_by_role("button", name="Keep my entries (save them over)").click()
    second.wait_for_url("**/tables/1/")
    assert "correction saved" in second.inner_text("main")
    assert (net_worth("Car"), net_worth("Dog")) == (4321, 5555)
    first_context.close()
    second_context.close()
