"""Languages in a real browser ("What must be shown"):

- an organizer switches to French in the header and the day's key screens speak French;
- a phone (390x844) whose browser asks for Hindi sees a rupee event's public standings in
  Hindi, the money grouped the Indian way (₹1,50,000);
- key pages hold together right to left (``dir="rtl"``): nothing overflows sideways and
  nothing in the header overlaps, so an Arabic or Hebrew catalog needs no code change.

The Hindi words asserted are whatever the shipped hi catalog says for a few msgids of the
standings page (``_HINDI_MSGIDS``), read through gettext: the test holds the page to the
catalog, and fails while the catalog does not translate them.
"""

from __future__ import annotations

import datetime
import re
import uuid

from django.contrib.auth.models import Group, User
from django.utils import timezone, translation
from django.utils.translation import gettext

from scoring.services.posting import round_post
from scoring.services.sheets import sheet_approve, sheet_submit
from scoring.services.signatures import sheet_sign
from spectator.services import release_set
from tests.browser.test_standings_browser import signed_round_1
from tournament.models import Clock, Player, Round, Seat, Table, Wave
from tournament.services import event_create

PASSWORD = "a long Boardwalk passphrase"
# On the public standings page, and in the hi catalog once it is merged.
_HINDI_MSGIDS = ("Place", "Player", "Games", "Back to the event")
DEVANAGARI = re.compile("[\u0900-\u097f]")


def _log_in(page, live_server, username: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


def _organizer(username: str = "odile") -> User:
    user = User.objects.create_user(username, password=PASSWORD)
    user.groups.add(Group.objects.get(name="Organizer"))
    return user


def test_an_organizer_switches_to_french_and_the_key_screens_speak_it(live_server, page):
    event = signed_round_1()
    release_set(event=event, pages={"home": True, "standings": True}, by=None)
    _organizer()
    _log_in(page, live_server, "odile")
    page.wait_for_url("**/organizer/")
    assert "Your events" in page.inner_text("main")

    page.select_option("#language-switch-header", "fr")
    page.locator(".site-header .language-switch button").click()
    page.wait_for_url("**/organizer/")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert "Vos événements" in page.inner_text("main")

    base = f"{live_server.url}/organizer/events/{event.pk}"
    screens = {
        f"{base}/players/": ["Remplaçants, dans l’ordre", "Liste d’attente, dans l’ordre"],
        f"{base}/seating/": ["Placement · Browser Cup", "Manche 1"],
        f"{base}/clock/": ["Chronomètre officiel · Browser Cup"],
        f"{base}/results/1/": ["Résultats, manche 1 · Browser Cup", "Publier la manche 1…"],
        f"{base}/standings/": ["Classement · Browser Cup", "Ordre des critères de départage"],
        f"{base}/printouts/": ["Impressions pour Browser Cup", "Feuilles de score"],
        f"{live_server.url}/events/{event.pk}/": ["À propos de l’événement", "Langue : français"],
    }
    for url, words in screens.items():
        page.goto(url)
        text = page.inner_text("body")
        for word in words:
            assert word in text, f"{url}: {word!r} missing"
        # French runs longer than English: still nothing wider than the tablet.
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{url}: {overflow}px too wide in French"
    # Posting the round from the French results page.
    page.goto(f"{base}/results/1/")
    page.locator("#post summary").click()  # posting asks to confirm (a second tap)
    page.get_by_role("button", name="Publier maintenant la manche 1").click()
    page.wait_for_load_state()
    assert "La manche 1 est publiée" in page.inner_text("main")


def _rupee_junior_posted() -> tuple:
    """A junior event on the rupee edition (it posts net worth), its one game posted."""
    event = event_create(
        name="Mumbai Juniors",
        organization="Club",
        venue="Hall",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
        format="junior",
        edition="india-rupee",
        language="hi",
    )
    round_ = Round.objects.create(event=event, number=1, started_at=timezone.now())
    wave = Wave.objects.create(round=round_, number=1)
    Clock.objects.create(
        wave=wave, duration_seconds=90 * 60, started_at=timezone.now() - datetime.timedelta(hours=2)
    )
    table = Table.objects.create(round=round_, wave=wave, number=1, status=Table.Status.FINISHED)
    cash = {"Asha": 150000, "Ravi": 125000, "Meera": 90000, "Kabir": 60000}
    players = {}
    for position, alias in enumerate(cash, start=1):
        players[alias] = Player.objects.create(
            event=event,
            first_name=alias,
            last_name="Surname",
            date_of_birth=datetime.date(2018, 1, 1),
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
                {"id": str(players[a].pk), "bankrupt": False, "cash": amount}
                for a, amount in cash.items()
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
    sheet_approve(sheet=sheet, by=None)  # a judge approves it: a championship posts then
    round_post(round_=round_, by=None)
    release_set(event=event, pages={"standings": True}, by=None)
    return event, cash


def test_a_phone_asking_for_hindi_sees_rupee_standings_in_hindi_with_lakhs(live_server, browser):
    event, _cash = _rupee_junior_posted()
    phone = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="hi-IN",
        extra_http_headers={"Accept-Language": "hi-IN,hi;q=0.9"},
    )
    page = phone.new_page()
    page.goto(f"{live_server.url}/events/{event.pk}/standings/")
    assert page.locator("html").get_attribute("lang") == "hi"
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 4
    first = rows.nth(0).inner_text()
    assert "Asha" in first and "₹1,50,000" in first
    assert "₹1,25,000" in rows.nth(1).inner_text()
    # Nothing sideways on a phone.
    width = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert width <= 0
    text = page.inner_text("body")
    with translation.override("hi"):
        hindi = {msgid: gettext(msgid) for msgid in _HINDI_MSGIDS}
    for msgid, words in hindi.items():
        assert words != msgid and DEVANAGARI.search(words), f"the hi catalog lacks {msgid!r}"
        assert words in text, f"{words!r} ({msgid}) not on the page"
    phone.close()


_OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll(
    '.site-header > *, .site-header nav > *, .language-switch > *')]
    .filter((el) => el.offsetParent !== null)
    .map((el) => [el, el.getBoundingClientRect()]);
  const clash = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 1 && h > 1) clash.push(a.className + ' / ' + b.className);
    }
  }
  return clash;
}"""


def _rtl_holds(page, url: str) -> None:
    page.goto(url)
    page.evaluate("document.documentElement.setAttribute('dir', 'rtl')")
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{url}: {overflow}px wider than the screen right to left"
    assert page.evaluate(_OVERLAPS) == [], f"{url}: header items overlap right to left"


def test_key_pages_hold_together_right_to_left(live_server, browser):
    event = signed_round_1()
    release_set(event=event, pages={"home": True, "standings": True, "tables": True}, by=None)
    round_post(round_=event.rounds.get(number=1), by=None)
    _organizer("rtl")
    for viewport in ({"width": 390, "height": 844}, {"width": 1024, "height": 768}):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        public = f"{live_server.url}/events/{event.pk}"
        for url in (f"{public}/", f"{public}/standings/", f"{live_server.url}/language/"):
            _rtl_holds(page, url)
        _log_in(page, live_server, "rtl")
        base = f"{live_server.url}/organizer/events/{event.pk}"
        for url in (
            f"{live_server.url}/organizer/",
            f"{base}/players/",
            f"{base}/seating/",
            f"{base}/results/1/",
            f"{base}/standings/",
        ):
            _rtl_holds(page, url)
        context.close()
