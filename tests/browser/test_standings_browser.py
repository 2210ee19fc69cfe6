"""Posting a round in a real browser at tablet size: the head judge posts round 1 from the
judges' results page, and a logged-out visitor then sees the standings by alias."""

import datetime
import re
import uuid

from django.contrib.auth.models import Group, User
from django.utils import timezone

from scoring.services.sheets import sheet_approve, sheet_submit
from scoring.services.signatures import sheet_sign
from spectator.services import release_set
from tournament.models import Clock, Player, Round, Seat, Table, Wave
from tournament.services import event_create

PASSWORD = "a long Boardwalk passphrase"
PLAYERS = {"Boot": 3000, "Car": 2000, "Hat": 1500, "Dog": 1000}


def signed_round_1(cash_by_alias: dict[str, int] = PLAYERS, *, approve: bool = True):
    """An event whose round 1 is one table of four with a signed sheet (approved by a judge
    unless ``approve`` is off), not yet posted; each player's cash by alias (``PLAYERS``
    unless given)."""
    event = event_create(
        name="Browser Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
    )
    round_ = Round.objects.create(event=event, number=1, started_at=timezone.now())
    wave = Wave.objects.create(round=round_, number=1)
    Clock.objects.create(
        wave=wave,
        duration_seconds=90 * 60,
        started_at=timezone.now() - datetime.timedelta(minutes=95),
    )
    table = Table.objects.create(round=round_, wave=wave, number=1, status=Table.Status.FINISHED)
    players = {}
    for position, alias in enumerate(cash_by_alias, start=1):
        players[alias] = Player.objects.create(
            event=event,
            first_name=f"Realname{alias}",
            last_name="Surname",
            date_of_birth=datetime.date(1990, 1, 1),
            signature="Signed",
            signed_at=timezone.now(),
            alias=alias,
        )
        Seat.objects.create(round=round_, table=table, player=players[alias], position=position)
    sheet = sheet_submit(
        table=table,
        data={
            "edition": event.edition,
            "players": [
                {"id": str(players[a].pk), "bankrupt": False, "cash": cash}
                for a, cash in cash_by_alias.items()
            ],
            "properties": [],
        },
        expected_version=0,
        submission_key=uuid.uuid4(),
        by=None,
    )
    for player in players.values():
        sheet_sign(sheet=sheet, player=player, initials=player.alias[:3], by=None)
    sheet_sign(sheet=sheet, initials="BNK", by=None)
    if approve:
        sheet_approve(sheet=sheet, by=None)  # a judge approves it: a championship posts then
    return event


def test_a_head_judge_posts_round_1_and_the_public_sees_the_points(live_server, browser, page):
    event = signed_round_1(approve=False)
    head_judge = User.objects.create_user("hedda", password=PASSWORD)
    head_judge.groups.add(Group.objects.get(name="Head judge"))

    # The organizer has released the standings; before posting they have nothing to show.
    release_set(event=event, pages={"standings": True}, by=None)
    visitor = browser.new_context(viewport={"width": 1024, "height": 768})
    public = visitor.new_page()
    public.goto(f"{live_server.url}/events/{event.pk}/standings/")
    assert "Nothing is posted here yet." in public.inner_text("main")

    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("hedda")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url("**/organizer/judging/")
    page.get_by_role("link", name="Results, round 1").click()
    page.wait_for_url(f"**/organizer/events/{event.pk}/results/1/")
    assert "signed" in page.locator("#table-1").inner_text()
    # A championship posts only sheets a judge approved: the head judge approves it.
    page.get_by_role("link", name="Open table 1").click()
    page.get_by_role("button", name="Approve the sheet").click()
    page.wait_for_load_state()
    page.get_by_role("link", name="Back to round 1").click()
    assert "approved" in page.locator("#table-1").inner_text()

    # Posting asks to confirm (a second tap).
    page.locator("#post summary").click()
    page.get_by_role("button", name="Post round 1 now").click()
    page.wait_for_load_state()
    assert "Round 1 is posted" in page.inner_text("main")

    public.reload()
    text = public.inner_text("main")
    rows = public.locator("table.standings tbody tr")
    assert rows.count() == 4
    assert [rows.nth(i).locator(".alias").inner_text() for i in range(4)] == list(PLAYERS)
    assert [rows.nth(i).locator(".first-key").inner_text() for i in range(4)] == [
        "19",
        "10",
        "5",
        "3",
    ]
    assert "Realname" not in text and "Surname" not in text
    visitor.close()
