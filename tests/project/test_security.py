"""Security: every URL of the project against every role, and the headers.

The throttles are in test_throttles.py.

The role walk reads the routes from the project's resolver, not from a list, so a page
added later is walked without anyone remembering it. What each route expects comes from
two independent places: the ``required_permission`` the access decorators put on a view
(tournament/access.py, banker/access.py), and the hand-written lists below of what
is public or needs only a login. A route in neither fails the walk.

The walk runs on the demo event (demo.event.load_demo_event: a championship played
through the real services), built once for the module; each role's walk runs in its own
transaction, so actions one role takes do not leak into the next role's walk.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.utils import timezone

from banker.links import banker_link_issue
from jobs.models import Job
from series.models import Entrant, Series, SeriesEvent
from tests.demo_rows import load_demo_rows
from tournament.models import Announcement, Event, JudgeCall, Player, Round, Table
from tournament.roles import BANKER, HEAD_JUDGE, JUDGE, ORGANIZER, ROLE_PERMISSIONS
from tournament.services import event_create

# --- What is public, by name (hand-written on purpose) -----------------------------------

PUBLIC = {
    "health",
    "set_language",
    "login",
    "logout",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
    "tournament:home",
    "players:register",
    "players:register_done",
    "spectator:hall_display",
    "spectator:hall_state",
    "clock:wave_clock_state",
    # The key in the URL is the credential; wrong keys are throttled.
    "banker:banker_link_open",
    "admin:login",
    "admin:logout",
    # --- series: the public series pages, aliases only -----------------------
    "series:public_home",
    "series:public_qualifiers",
    "series:public_entrants",
    "series:public_champion",
    # A Finals qualifier's emailed link: the signed token in the URL is the credential.
    "series:answer",
    # The banker tablet's service worker and manifest: no one's data in them.
    "banker:tablet_service_worker",
    "banker:tablet_manifest",
    # The public side: /favicon.ico redirects to the static icon.
    "favicon",
    # --- languages: the language switch page and its form, for everyone ---
    "accounts:language",
}
# The spectator app's pages are public, except the organizer's (release) pages.
PUBLIC_NAMESPACES = {"spectator"}
NOT_PUBLIC_PREFIXES = ("organizer", "release")
# Any logged-in person, whatever their role: their own landing pages and password.
LOGGED_IN = {
    "tournament:signed_in",
    "banker:banker_tables",
    "password_change",
    "password_change_done",
}
LOGOUT = {"logout", "admin:logout"}
GRANTS_A_TABLE = {"banker:banker_link_open"}
# Pages that answer with a page saying why there is nothing to give, under another status:
# the Winner Notification Form of a player who is not the event's winner (404), or before
# the event has one (409, the demo's final is not posted).
EXPLAINED = {"printouts:winner_notification": {404, 409}}
# Django's own login, logout, password-reset and password-change routes, shadowed on
# purpose by the throttled (and, for logout, the forgetful) ones in config/urls.py.
SHADOWED = {"login", "logout", "password_reset", "password_change"}

ANONYMOUS, SPECTATOR, OTHER_BANKER, OWN_BANKER = (
    "anonymous",
    "spectator",
    "banker of another table",
    "banker of this table",
)
ROLES = [ANONYMOUS, SPECTATOR, OTHER_BANKER, OWN_BANKER, JUDGE, HEAD_JUDGE, ORGANIZER]
ROLE_GROUP = {OTHER_BANKER: BANKER, OWN_BANKER: BANKER}
JUDGE_PERMISSION = "tournament.judge_event"


@dataclass
class Route:
    name: str
    route: str
    pattern: URLPattern

    @property
    def namespace(self) -> str:
        return self.name.split(":", 1)[0] if ":" in self.name else ""

    @property
    def callback(self):
        return self.pattern.callback

    def kind(self) -> str:
        """public, logged-in, admin (staff only) or protected (by required_permission)."""
        short = self.name.split(":")[-1]
        if self.name in PUBLIC:
            return "public"
        if self.namespace in PUBLIC_NAMESPACES and not short.startswith(NOT_PUBLIC_PREFIXES):
            return "public"
        if self.name in LOGGED_IN:
            return "logged-in"
        if self.namespace == "admin":
            return "admin"
        if getattr(self.callback, "required_permission", None):
            return "protected"
        return "unclassified"


def _routes(resolver: URLResolver | None = None, prefix: str = "", ns: str = "") -> list[Route]:
    resolver = resolver or get_resolver()
    routes = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{ns}:{entry.namespace}" if ns and entry.namespace else entry.namespace or ns
            routes += _routes(entry, prefix + str(entry.pattern), inner or "")
        else:
            name = f"{ns}:{entry.name}" if ns else str(entry.name)
            routes.append(Route(name=name, route=prefix + str(entry.pattern), pattern=entry))
    return routes


ROUTES = _routes()


def test_every_route_is_public_logged_in_admin_or_carries_a_permission():
    """A new view without a decorator, and not listed as public, fails here."""
    unclassified = [r.route for r in ROUTES if r.kind() == "unclassified"]
    assert unclassified == []


def test_every_organizer_and_bank_route_is_protected():
    for r in ROUTES:
        if r.route.startswith(("organizer/", "bank/tables/")):
            assert r.kind() == "protected", r.name


def test_the_public_list_names_real_routes():
    names = {r.name for r in ROUTES}
    assert PUBLIC <= names and LOGGED_IN <= names


# --- The populated event -----------------------------------------------------------------


@dataclass
class Demo:
    event: Event
    table: Table  # the table the walk's table routes act on
    other_table: Table  # the table the "banker of another table" banks
    key: str


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo championship, built once; rolled back when the module is done."""
    with django_db_blocker.unblock(), transaction.atomic():
        event = load_demo_rows()
        round_1 = Round.objects.get(event=event, number=1)
        table, other = Table.objects.filter(round=round_1).order_by("number")[:2]
        Announcement.objects.create(round=round_1, at_remaining_seconds=600, text="Walk")
        key = banker_link_issue(table=table, by=None).key
        yield Demo(event=event, table=table, other_table=other, key=key)
        transaction.set_rollback(True)


def _kwargs(route: Route, demo: Demo) -> dict[str, object]:
    """Every path parameter of the project, filled from the demo event (round 1)."""
    event, table = demo.event, demo.table
    round_1 = table.round
    values = {
        "pk": event.pk,
        "round_number": 1,
        "number": 1,
        "table_number": table.number,
        "table_pk": table.pk,
        "wave_pk": table.wave_id,
        "round_pk": round_1.pk,
        "player_pk": lambda: Player.objects.filter(seats__table=table).first().pk,
        "announcement_pk": lambda: Announcement.objects.filter(round=round_1).first().pk,
        "call_pk": lambda: (
            JudgeCall.objects.get_or_create(
                table=table, closed_at=None, defaults={"called_at": timezone.now()}
            )[0].pk
        ),
        "key": demo.key,
        "job_pk": lambda: _failed_job(event).pk,
        "uidb64": "MQ",
        "token": "set-password",
        # The admin's routes (staff only): any object and app will do, nobody gets in.
        "object_id": "1",
        "app_label": "tournament",
        "content_type_id": 1,
        "id": 1,
        "url": "nowhere/",
        # --- series: the demo's small series, its Finals and first entrant ----
        "series_pk": lambda: Series.objects.order_by("pk").first().pk,
        "division": "senior",
        "entrant_pk": lambda: Entrant.objects.order_by("pk").first().pk,
        "member_pk": lambda: SeriesEvent.objects.order_by("pk").first().pk,
    }
    names = re.findall(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>", route.route)
    kwargs = {}
    for name in (a or b for a, b in names):
        value = values[name]  # a KeyError names a new parameter to teach the walk
        kwargs[name] = value() if callable(value) else value
    return kwargs


def _failed_job(event: Event) -> Job:
    """A failed printout job of the event: its page, download and retry are walked too."""
    job, _ = Job.objects.get_or_create(
        kind="printouts:event-registration",
        scope=f"event-{event.pk}",
        key="walk",
        defaults={
            "params": {"form": "event-registration", "request": {"event": event.pk}},
            "task_path": "printouts.tasks.build_printout",
            "token": "walk",
            "status": Job.Status.FAILED,
            "error": "Paper jam",
        },
    )
    return job


def _url(route: Route, demo: Demo) -> str:
    if route.pattern.name is None:
        # Only the admin has unnamed routes (its catch-all and old change-page redirects):
        # fill the route's own text.
        assert route.namespace == "admin", route.route
        kwargs = _kwargs(route, demo)
        url = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m[1]]), route.route)
        url = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(kwargs[m[1]]), url)
        return "/" + url.replace("^", "").replace("$", "")
    return reverse(route.name, kwargs=_kwargs(route, demo))


def _client(role: str, demo: Demo) -> Client:
    client = Client()
    if role == ANONYMOUS:
        return client
    user = User.objects.create_user(f"walk-{role.replace(' ', '-')}", password="pw")
    group = ROLE_GROUP.get(role, role)
    if role != SPECTATOR:
        user.groups.add(Group.objects.get(name=group))
    if role == OWN_BANKER:
        Table.objects.filter(pk=demo.table.pk).update(banker=user)
    if role == OTHER_BANKER:
        Table.objects.filter(pk=demo.other_table.pk).update(banker=user)
    client.force_login(user)
    return client


def _permissions(role: str) -> set[str]:
    group = ROLE_GROUP.get(role, role)
    return {f"tournament.{codename}" for codename in ROLE_PERMISSIONS.get(group, [])}


def _allowed(route: Route, role: str) -> bool:
    """Whether ``role`` may use a protected route of the walk (on ``demo.table``)."""
    permission = route.callback.required_permission
    if not getattr(route.callback, "table_scoped", False):
        return permission in _permissions(role)
    # The table's heartbeat: its own tablet only (its link, or its banker signed in).
    if getattr(route.callback, "own_tablet_only", False):
        return role == OWN_BANKER
    # Table pages: the table's own banker, and judges and above; never another banker.
    return role == OWN_BANKER or JUDGE_PERMISSION in _permissions(role)


def _to_login(response, login: str) -> bool:
    return response.status_code == 302 and response.url.startswith(login + "?next=")


def _problem(route: Route, role: str, method: str, response) -> str | None:
    """What is wrong with this answer, or None."""
    status = response.status_code
    if status >= 500:
        return "server error"
    kind = route.kind()
    login, admin_login = reverse("login"), reverse("admin:login")
    if kind == "public":
        if status == 403 or _to_login(response, login) or _to_login(response, admin_login):
            return "public route refused"
        if method == "GET" and status not in (200, 302, 405):
            return "public page not shown"
        return None
    if kind == "admin":  # nobody in the walk is staff
        return None if _to_login(response, admin_login) else "admin route not refused"
    if role == ANONYMOUS:
        return None if _to_login(response, login) else "anonymous not sent to log in"
    if kind == "logged-in":
        ok = status in (200, 302, 405) and not _to_login(response, login)
        return None if ok else "logged-in page not shown"
    if not _allowed(route, role):
        return None if status == 403 else "not refused"
    if status == 403 or _to_login(response, login):
        return "refused a role that may"
    if method == "GET" and status not in {200, 302, 405, *EXPLAINED.get(route.name, ())}:
        return "page not shown"
    return None


def _walkable(routes: list[Route], demo: Demo) -> list[Route]:
    """Routes that reverse to themselves (a shadowed route is never reached)."""
    walk = []
    for route in routes:
        match = resolve(_url(route, demo))
        if match.func is route.callback:
            walk.append(route)
        else:
            assert route.name in SHADOWED, route.name
    return walk


class _NoLayout:
    """Stands in for ``printouts.render`` in this walk: who may print is the question here,
    and laying out every PDF for every role took half the walk (tests/printouts/ check
    what the printouts hold)."""

    def __getattr__(self, name: str):
        return lambda **kwargs: b"%PDF-1.7\n%%EOF\n"


@pytest.mark.parametrize("role", ROLES)
def test_every_route_answers_each_role_as_its_access_says(demo, role, db, monkeypatch):
    monkeypatch.setattr("printouts.catalog.renderers", _NoLayout)
    monkeypatch.setattr("printouts.views.renderers", _NoLayout)
    cache.clear()
    client = _client(role, demo)
    routes = _walkable(ROUTES, demo)
    # Logging out ends the walk's session, so the logout routes go last.
    routes.sort(key=lambda r: r.name in LOGOUT)
    problems = []
    for method in ("GET", "POST"):
        for route in routes:
            url = _url(route, demo)
            # The link grants its table to the session: walked apart, it would open the
            # sheet for everyone after it.
            by = Client() if route.name in GRANTS_A_TABLE else client
            response = by.get(url) if method == "GET" else by.post(url, {})
            problem = _problem(route, role, method, response)
            if problem:
                where = getattr(response, "url", "")
                problems.append(
                    f"{method} {url} {route.name}: {response.status_code} {where} {problem}"
                )
    assert not problems, "\n".join(problems)
    # The walk covered what the issue asks about, whatever the resolver holds.
    names = {r.name for r in routes}
    assert {
        "banker:banker_sheet",
        "banker:sheet_submit",
        "cockpit:events_home",
    } <= names


def test_spot_checks_of_the_walks_expectations(demo, db):
    """A few answers written out by hand, in case the walk's rules were wrong together."""
    sheet = reverse("banker:banker_sheet", kwargs={"table_pk": demo.table.pk})
    dashboard = reverse("cockpit:events_home")
    assert _client(OTHER_BANKER, demo).get(sheet).status_code == 403
    assert _client(OWN_BANKER, demo).get(sheet).status_code == 200
    judge = _client(JUDGE, demo)
    assert judge.get(dashboard).status_code == 403
    assert judge.get(sheet).status_code == 200
    assert _client(SPECTATOR, demo).get(sheet).status_code == 403
    standings = reverse("spectator:standings", kwargs={"pk": demo.event.pk})
    assert Client().get(standings).status_code == 200


def _event() -> Event:
    return event_create(
        name="Security Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2031, 4, 20),
        start_time=datetime.time(9, 30),
        expected_players=4,
    )


# --- Headers ------------------------------------------------------------------------------

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/health/", "/admin/login/"])
def test_every_response_carries_the_content_security_policy(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Security-Policy"] == POLICY
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.django_db
def test_error_pages_and_pdfs_carry_it_too(client):
    assert client.get("/no-such-page/")["Content-Security-Policy"] == POLICY
    user = User.objects.create_user("org", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    response = client.get(reverse("printouts:poster", kwargs={"pk": _event().pk}))
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Security-Policy"] == POLICY


@pytest.mark.django_db
def test_templates_hold_no_inline_styles_or_scripts():
    """The policy refuses them; a template that adds one breaks its page in the browser.

    PDF templates (printouts/, rendered by WeasyPrint, never served as HTML) may style inline.
    """
    from pathlib import Path

    from django.conf import settings

    offenders = []
    roots = [Path(settings.BASE_DIR) / "templates", *Path(settings.BASE_DIR).glob("*/templates")]
    for root in roots:
        for path in root.rglob("*.html"):
            if "printouts" in path.parts and path.name != "index.html":
                continue
            text = path.read_text()
            if re.search(r"\sstyle=|<style|\son[a-z]+=|javascript:", text):
                offenders.append(str(path))
            for script in re.findall(r"<script[^>]*>", text):
                if "src=" not in script:
                    offenders.append(f"{path}: {script}")
    assert offenders == []
