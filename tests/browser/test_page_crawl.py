"""Every page of the demo in chromium: no sideways overflow on a phone, WCAG 2 A and AA.

The list of pages is built from the URL conf, so a new page is crawled the day it is added
(or named below as not a page, with the reason). Each page is opened as the person who
uses it (the organizer for the officials' pages, the demo banker for the banker's, nobody
for the public ones), with the demo loaded once for the module:

- at 390x844 (a phone) the document is no wider than the viewport;
- axe-core (bundled by axe-playwright-python) finds no violation of the WCAG 2 A and AA
  rules, on the phone and on the 1024x768 tablet;
- on that tablet the banker's primary action is above the fold ("The clock page fits
  1024x768 without scrolling to Last turn, Game over and Enter the score sheet").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
WCAG = ["wcag2a", "wcag2aa"]

# The test database exists for the module's demo (pytest-django sets it up for marked
# tests); each test only reads it through the browser.
pytestmark = pytest.mark.django_db

# Routes that answer something other than a page, by name, with why.
NOT_PAGES = {
    "health": "plain text for load balancers",
    "favicon": "a redirect to the static icon",
    "set_language": "POST only",
    "logout": "POST only",
    "tournament:signed_in": "a redirect to the person's landing page",
    "banker:banker_link_open": "a redirect to the table's page (crawled as the banker's)",
    "printouts:jobs": "an htmx fragment of the printouts page",
    "printouts:job_download": "a file",
    "knockout:knockout_bracket": "an htmx fragment of the seating page (the bracket planner)",
    "clock:clock_card": "an htmx fragment of the clock page (one wave's card)",
    "cockpit:judge_calls_panel": "an htmx fragment of the judges' desk and the clock page",
    "password_reset_confirm": "needs a token from an email",
    # The offline tablet's app files, checked as served in
    # tests/banker/test_offline_worker.py; the pages they serve are crawled as the banker's.
    "banker:tablet_manifest": "the tablet's web app manifest (application/manifest+json)",
    "banker:tablet_service_worker": "the tablet's service worker script (text/javascript)",
}
# Public routes outside the spectator app (which is public but for its organizer pages).
PUBLIC = {
    "login",
    "password_reset",
    "password_reset_done",
    "password_reset_complete",
    "tournament:home",
    "players:register",
    "players:register_done",
    "spectator:hall_display",
    # A Finals qualifier's emailed link (series/invitation_mail.py).
    "series:answer",
}
BANKER_PAGES = {
    "banker:banker_tables",
    "banker:banker_sheet",
    "banker:banker_table",
    "banker:bankruptcy_record",
}
# Pages that only exist for one format of event, and public pages also crawled for the
# club knockout (its winner is posted; the championship's final is still to play).
CLUB_ONLY: set[str] = set()
ALSO_CLUB = {"spectator:final", "spectator:winner", "spectator:standings", "spectator:event_home"}
ALSO_CLUB |= {"spectator:hall_display"}
# Banker pages also crawled at a played table (game over, sheet signed and locked).
ALSO_PLAYED = {"banker:banker_sheet", "banker:banker_table"}
# What the banker must reach without scrolling on the tablet, by page.
PRIMARY = {
    "banker:banker_table": "[data-primary-action]",
    "banker:banker_sheet": "#sheet-submit",
    "banker:banker_tables": "[data-primary-action]",
    "banker:bankruptcy_record": "[data-primary-action]",
}


def _post_only(view) -> bool:
    """Whether the view is wrapped in require_POST (its closure holds ["POST"])."""
    seen, stack = set(), [view]
    while stack:
        fn = stack.pop()
        if id(fn) in seen or not callable(fn):
            continue
        seen.add(id(fn))
        for cell in getattr(fn, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if value == ["POST"]:
                return True
            if callable(value):
                stack.append(value)
        if hasattr(fn, "__wrapped__"):
            stack.append(fn.__wrapped__)
    return False


def _named_routes(resolver: URLResolver | None = None, ns: str = "") -> list[tuple[str, object]]:
    routes = []
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{ns}:{entry.namespace}" if ns and entry.namespace else entry.namespace or ns
            if inner != "admin":
                routes += _named_routes(entry, inner or "")
        elif isinstance(entry, URLPattern) and entry.name:
            routes.append((f"{ns}:{entry.name}" if ns else entry.name, entry))
    return routes


def _is_page(name: str, pattern: URLPattern) -> bool:
    route = str(pattern.pattern)
    if name in NOT_PAGES or route.endswith((".pdf", ".csv", "/state/")):
        return False
    if name.endswith("_live") or _post_only(pattern.callback):
        return False
    return True


def _who(name: str) -> str:
    short = name.split(":")[-1]
    if name in BANKER_PAGES:
        return "banker"
    if name.startswith("series:public_"):
        return "public"
    if name in PUBLIC or (name.startswith("spectator:") and not short.startswith("release")):
        return "public"
    return "organizer"


@dataclass(frozen=True)
class Page:
    name: str
    who: str
    event: str  # "championship", "club", or "played" (the championship's round 1 table)

    @property
    def id(self) -> str:
        suffix = "" if self.event == "championship" else f"[{self.event}]"
        return f"{self.who}:{self.name}{suffix}"


def _pages() -> list[Page]:
    pages = []
    for name, pattern in _named_routes():
        if not _is_page(name, pattern):
            continue
        events = ["club"] if name in CLUB_ONLY else ["championship"]
        if name in ALSO_CLUB:
            events.append("club")
        if name in ALSO_PLAYED:
            events.append("played")
        pages += [Page(name, _who(name), event) for event in events]
    return sorted(set(pages), key=lambda p: p.id)


PAGES = _pages()


# --- The demo, loaded once for the module --------------------------------------------------


@pytest.fixture
def browser_database(chromium):
    """The module's demo stays for all its pages: no flush between them (conftest's own
    ``browser_database`` asks for a transactional database, which flushes after each test)."""


@pytest.fixture(scope="module")
def site(demo):
    """A live server of the module's own: pytest-django's ``live_server`` would bring a
    transactional database to every test, flushing the demo after the first page."""
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer("localhost")
    server._live_server_modified_settings.enable()
    yield server
    server._live_server_modified_settings.disable()
    server.stop()


@dataclass
class Demo:
    events: dict
    kwargs: dict  # (event, who) -> path parameters
    sessions: dict  # who -> session cookie value


def _event_kwargs(event, banker) -> tuple[dict, object, object]:
    """The path parameters of one demo event's pages: its round 1, first table and player,
    a failed printout job, a table card's link, the demo series and a qualifier's emailed
    link; with the banker's current table and round 1's first table."""
    from banker.links import banker_link_issue
    from jobs.models import Job
    from series.invitation_mail import invitation_token
    from series.models import Entrant, Invitation, Series, SeriesEvent
    from tournament.models import Player, Round, Table

    round_1 = Round.objects.get(event=event, number=1)
    table = Table.objects.filter(round=round_1).order_by("number").first()
    own = Table.objects.filter(banker=banker, round__event=event)
    # The banker's current table: the latest round's (the championship's final).
    current = own.order_by("-round__number", "number").first() or table
    player = Player.objects.filter(seats__table=table).first()
    job = Job.objects.create(
        kind="printouts:event-registration",
        scope=f"event-{event.pk}",
        key="crawl",
        params={
            "form": "event-registration",
            "label": "Event registration form",
            "request": {"event": event.pk},
        },
        task_path="printouts.tasks.build_printout",
        token="crawl",
        status=Job.Status.FAILED,
        error="Paper jam",
    )
    entrant = Entrant.objects.order_by("pk").first()
    invitation, _ = Invitation.objects.get_or_create(entrant=entrant, defaults={"nonce": "crawl"})
    base = {
        "pk": event.pk,
        "number": 1,
        "round_number": 1,
        "table_number": table.number,
        "table_pk": table.pk,
        "wave_pk": table.wave_id,
        "round_pk": round_1.pk,
        "player_pk": player.pk,
        "job_pk": job.pk,
        "key": banker_link_issue(table=table, by=None).key,
        # The demo's small series, its senior Finals, an entrant, a member event.
        "series_pk": Series.objects.order_by("pk").first().pk,
        "division": "senior",
        "entrant_pk": entrant.pk,
        "member_pk": SeriesEvent.objects.order_by("pk").first().pk,
        # The first entrant's emailed link, as its page shows it.
        "token": invitation_token(invitation),
    }
    return base, current, table


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    from demo.event import DEMO_CLUB_NAME, DEMO_EVENT_NAME
    from tests.demo_rows import load_demo_rows
    from tournament.models import Event, Table

    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)
        cache.clear()
        load_demo_rows()
        events = {
            "championship": Event.objects.get(name=DEMO_EVENT_NAME),
            "club": Event.objects.get(name=DEMO_CLUB_NAME),
        }
        User = get_user_model()
        banker = User.objects.get(username="banker")
        # The organizer gives the championship's final table a banker (the seating page's
        # banker form): the demo banker's current table, its sheet still to enter.
        final = Table.objects.filter(round__event=events["championship"]).order_by(
            "-round__number", "number"
        )[0]
        Table.objects.filter(pk=final.pk).update(banker=banker)
        kwargs = {}
        for key, event in events.items():
            base, current, table = _event_kwargs(event, banker)
            kwargs[key, "organizer"] = kwargs[key, "public"] = base
            kwargs[key, "banker"] = {**base, "table_pk": current.pk, "wave_pk": current.wave_id}
            if key == "championship":
                Table.objects.filter(pk=table.pk).update(banker=banker)
                kwargs["played", "banker"] = kwargs["played", "organizer"] = base
        sessions = {}
        for who in ("organizer", "banker"):
            client = Client()
            client.force_login(User.objects.get(username=who))
            sessions[who] = client.cookies["sessionid"].value
        yield Demo(events=events, kwargs=kwargs, sessions=sessions)
        call_command("flush", interactive=False, verbosity=0)
        cache.clear()


def _url(page: Page, demo: Demo) -> str:
    _, pattern = next(r for r in _named_routes() if r[0] == page.name)
    params = re.findall(r"<(?:\w+:)?(\w+)>", str(pattern.pattern))
    values = demo.kwargs[page.event, page.who]
    return reverse(page.name, kwargs={p: values[p] for p in params})


def _open(browser, site, demo: Demo, page: Page, viewport: dict):
    context = browser.new_context(viewport=viewport)
    if page.who in demo.sessions:
        context.add_cookies(
            [{"name": "sessionid", "value": demo.sessions[page.who], "url": site.url}]
        )
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    response = tab.goto(site.url + _url(page, demo))
    assert response is not None and response.status == 200, (
        f"{page.id} answered {response and response.status} at {tab.url}: "
        "a new route that is not a page belongs in NOT_PAGES, with why"
    )
    assert "text/html" in response.headers.get("content-type", ""), page.id
    tab.wait_for_load_state("load")
    return context, tab


def _axe_violations(tab) -> list[str]:
    """axe-core's WCAG 2 A/AA violations on the page as it is laid out now. The script
    (half a megabyte, as axe-playwright-python bundles it) goes into the page once, however
    many times the page is checked (at each viewport size)."""
    from axe_playwright_python.base import AXE_SCRIPT

    if not tab.evaluate("() => typeof window.axe === 'object'"):
        tab.evaluate(AXE_SCRIPT)
    # axe first fetches the page's stylesheets and media for the rules that read them: of
    # the WCAG 2 A/AA rules only no-autoplay-audio does (the CSS one is experimental, not
    # run), so a page without audio or video skips that fetch (a tenth of a second a run).
    media = tab.evaluate("() => document.querySelector('audio, video') !== null")
    results = tab.evaluate(
        "(options) => axe.run(document, options)",
        {
            "runOnly": {"type": "tag", "values": WCAG},
            "resultTypes": ["violations"],
            "preload": media,
        },
    )
    problems = []
    for violation in results["violations"]:
        targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:5]]
        problems.append(
            f"{violation['id']} ({violation['impact']}, {len(violation['nodes'])}x): "
            f"{violation['help']} at {targets}"
        )
    return problems


WIDTHS = """() => ({
  document: document.documentElement.scrollWidth,
  viewport: document.documentElement.clientWidth,
  widest: [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
    .filter(e => !(e.parentElement && e.parentElement.closest('[data-scroll-box]')))
    .slice(-5).map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '')
      + '@' + Math.round(e.getBoundingClientRect().right)),
})"""


@pytest.mark.parametrize("page", PAGES, ids=[p.id for p in PAGES])
def test_page_fits_a_phone_and_passes_axe(page, demo, site, browser):
    context, tab = _open(browser, site, demo, page, PHONE)
    try:
        widths = tab.evaluate(WIDTHS)
        assert widths["document"] <= widths["viewport"], (
            f"{page.id} is {widths['document']}px wide on a {widths['viewport']}px phone; "
            f"wider: {widths['widest']}"
        )
        problems = _axe_violations(tab)
        assert problems == [], f"{page.id} at 390x844:\n" + "\n".join(problems)
        # The same page on a tablet, where the layout differs (tables instead of cards, the
        # tabs in one row): officials work on tablets and laptops, spectators too.
        tab.set_viewport_size(TABLET)
        problems = _axe_violations(tab)
        assert problems == [], f"{page.id} at 1024x768:\n" + "\n".join(problems)
    finally:
        context.close()


# On the tablet: the banker's current table (the final, still to play) and their landing page.
BANKER = [p for p in PAGES if p.who == "banker" and p.event == "championship"]


@pytest.mark.parametrize("page", BANKER, ids=[p.id for p in BANKER])
def test_banker_page_on_the_tablet_primary_action_above_the_fold(page, demo, site, browser):
    context, tab = _open(browser, site, demo, page, TABLET)
    try:
        action = tab.locator(PRIMARY[page.name]).first
        assert action.count() == 1, (
            f"{page.id}: no primary action {PRIMARY[page.name]} at {tab.url}:\n"
            + tab.inner_text("main")[:1500]
        )
        box = action.bounding_box()
        assert box is not None and box["y"] + box["height"] <= TABLET["height"], (
            f"{page.id}: the primary action ends at {box and box['y'] + box['height']}px, "
            f"below the {TABLET['height']}px fold"
        )
        problems = _axe_violations(tab)
        assert problems == [], f"{page.id} at 1024x768:\n" + "\n".join(problems)
    finally:
        context.close()


def test_the_crawl_covers_the_pages_the_issue_names():
    ids = {p.id for p in PAGES}
    assert {
        "organizer:cockpit:events_home",
        "organizer:seating:seating",
        "organizer:scoring:results_round",
        "organizer:clock:clock_control",
        "banker:banker:banker_sheet",
        "banker:banker:banker_table",
        "public:spectator:results",
        "public:spectator:hall_display[club]",
    } <= ids
    assert len(PAGES) >= 35


def test_the_axe_check_finds_the_violations_it_is_for(browser):
    """The crawl's zero means something: the same check on a page made to fail, twice (as
    the crawl checks each page at two sizes, with axe injected once)."""
    context = browser.new_context(viewport=PHONE)
    try:
        tab = context.new_page()
        tab.set_content(
            '<html lang="en"><head><title>Made to fail</title></head><body><main>'
            '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
            '<div style="overflow:auto;height:2em"><p>one</p><p>two</p><p>three</p></div>'
            "</main></body></html>"
        )
        for viewport in (PHONE, TABLET):
            tab.set_viewport_size(viewport)
            found = {problem.split(" ")[0] for problem in _axe_violations(tab)}
            assert {"image-alt", "scrollable-region-focusable"} <= found, found
    finally:
        context.close()
