"""Each official is shown the links that open for them: the event's tabs, the cockpit's
next step, and the addresses ``allowed_url`` gives templates.

What each role may open is written out here from the README's "Who does what" table, not
read from the code: the organizer everything, the head judge the judges' pages plus the
clock and the ties (so the standings, where the ties the tie-breakers leave are decided),
a judge the desk and the results, a banker their own tables.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.cache import SessionStore
from django.test import RequestFactory
from django.urls import reverse

from banker.access import link_grant
from banker.links import banker_link_issue
from cockpit.plan import Action
from cockpit.views import _next_step
from demo.simulation import event_simulate
from tests.builders import built_once_for_the_module, user_with
from tournament.access import allowed_url, may_open, view_permission, who_does
from tournament.models import Event, Table
from tournament.roles import BANKER, HEAD_JUDGE, JUDGE, ORGANIZER


@pytest.fixture(scope="module")
def played_once(django_db_setup, django_db_blocker):
    """16 players, three rounds played and posted, the final not yet seated."""
    with built_once_for_the_module(django_db_blocker):
        yield event_simulate(players=16, seed=4, final=False).event.pk


@pytest.fixture
def played(db, played_once):
    return Event.objects.get(pk=played_once)


def _page(client, role: str, name: str, **kwargs) -> str:
    client.force_login(user_with(role, role.lower().replace(" ", "-")))
    response = client.get(reverse(name, kwargs=kwargs))
    assert response.status_code == 200
    return response.content.decode()


def _tabs(html: str) -> list[str]:
    nav = html[html.index('class="event-nav"') : html.index("</nav>", html.index("event-nav"))]
    return re.findall(r'data-section="([a-z_]+)"', nav)


@pytest.mark.parametrize(
    ("role", "tabs"),
    [
        (ORGANIZER, ["overview", "players", "check_in", "seating", "clock", "results",
                     "standings", "printouts", "public"]),
        (HEAD_JUDGE, ["overview", "check_in", "clock", "results", "standings"]),
        (JUDGE, ["overview", "check_in", "results"]),
    ],
)  # fmt: skip
def test_each_official_sees_the_tabs_of_the_pages_they_may_open(client, played, role, tabs):
    assert _tabs(_page(client, role, "cockpit:cockpit", pk=played.pk)) == tabs


def _next(html: str) -> str:
    start = html.index(">", html.index('class="next-action"')) + 1
    section = html[start : html.index("</section>", start)]
    return " ".join(re.sub(r"<[^>]+>", " ", section).split())


def test_the_cockpit_links_the_next_step_only_for_whoever_takes_it(client, played):
    """Seating the final is the organizer's: they get the button; the head judge and a
    judge are told the step and who takes it, with no link that would refuse them."""
    standings = reverse("scoring:standings", kwargs={"pk": played.pk})
    html = _page(client, ORGANIZER, "cockpit:cockpit", pk=played.pk)
    assert f'id="next-action" href="{standings}"' in html
    for role in (HEAD_JUDGE, JUDGE):
        html = _page(client, role, "cockpit:cockpit", pk=played.pk)
        assert 'id="next-action" href' not in html
        assert _next(html) == "Next Seat the final · The organizer does this."


def test_the_cockpit_steps_link_only_the_pages_that_open(client, played):
    html = _page(client, JUDGE, "cockpit:cockpit", pk=played.pk)
    steps = html[html.index('class="day-steps"') : html.index("</ol>", html.index("day-steps"))]
    linked = sorted(set(re.findall(r'href="/organizer/events/\d+/([a-z-]+)/', steps)))
    # Check-in and each round's results; not the players, seating, standings or printouts.
    assert linked == ["check-in", "results"]


def _request(user):
    request = RequestFactory().get("/")
    request.user = user
    request.session = SessionStore()
    return request


def test_a_judge_asked_to_mark_the_no_shows_gets_the_desk_beside_the_step(played):
    """The no-show step's page is the organizer's players page, with the check-in desk
    beside it; a judge, who marks no-shows at the desk, is shown the step unlinked (not
    told someone else takes it) and the desk as the button."""
    action = Action("Mark the no-shows", "players:player_list", also=(
        Action("Check-in desk", "players:check_in"),
    ), act="players:player_no_show")  # fmt: skip
    desk = reverse("players:check_in", kwargs={"pk": played.pk})
    players = reverse("players:player_list", kwargs={"pk": played.pk})
    judge = _next_step(_request(user_with(JUDGE, "jo")), action, played.pk)
    assert judge == {"next_url": "", "also": [("Check-in desk", desk)], "next_who": ""}
    organizer = _next_step(_request(user_with(ORGANIZER, "olive")), action, played.pk)
    assert organizer == {"next_url": players, "also": [("Check-in desk", desk)], "next_who": ""}


def test_a_step_beside_another_officials_step_keeps_its_own_label(played):
    """Assigning the final's banker is the organizer's; starting its clock, beside it, the
    head judge's: the head judge is told whose the first is and gets the clock's button."""
    clock = Action("Start the clock of the final", "clock:clock_control")
    action = Action("Assign the final's banker", "seating:seating", also=(clock,))
    head_judge = _next_step(_request(user_with(HEAD_JUDGE, "hedda")), action, played.pk)
    clock_url = reverse("clock:clock_control", kwargs={"pk": played.pk})
    assert head_judge == {
        "next_url": "",
        "also": [("Start the clock of the final", clock_url)],
        "next_who": "The organizer does this.",
    }
    judge = _next_step(_request(user_with(JUDGE, "jo")), action, played.pk)
    assert judge == {"next_url": "", "also": [], "next_who": "The organizer does this."}


def test_a_table_opens_for_its_banker_a_judge_and_its_tablet_and_no_one_else(played):
    table, other = Table.objects.filter(round__event=played).order_by("pk")[:2]
    banker, stranger = user_with(BANKER, "bea"), user_with(BANKER, "ben")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    Table.objects.filter(pk=other.pk).update(banker=stranger)
    sheet = reverse("banker:banker_sheet", kwargs={"table_pk": table.pk})

    assert may_open(_request(banker), sheet)
    assert may_open(_request(user_with(JUDGE, "jo")), sheet)
    assert not may_open(_request(stranger), sheet)
    assert not may_open(_request(AnonymousUser()), sheet)
    # A tablet with no login, holding the table card's link (the session it opened).
    tablet = _request(AnonymousUser())
    link_grant(tablet, table=table, key=banker_link_issue(table=table, by=None).key)
    assert may_open(tablet, sheet)
    assert not may_open(tablet, reverse("banker:banker_sheet", kwargs={"table_pk": other.pk}))
    # ... but not the pages behind a login, such as a banker's list of tables.
    assert not may_open(tablet, reverse("banker:banker_tables"))
    assert may_open(_request(banker), reverse("banker:banker_tables"))


def test_allowed_url_gives_the_address_or_nothing(played):
    head_judge = _request(user_with(HEAD_JUDGE, "hedda"))
    assert allowed_url(head_judge, "scoring:standings", pk=played.pk) == reverse(
        "scoring:standings", kwargs={"pk": played.pk}
    )
    assert allowed_url(head_judge, "printouts:index", pk=played.pk) == ""
    assert allowed_url(head_judge, "clock:clock_control", pk=played.pk) != ""
    assert allowed_url(_request(user_with(JUDGE, "jo")), "clock:clock_control", pk=1) == ""
    # Public pages open for everyone; an address that leads nowhere for no one.
    assert allowed_url(_request(AnonymousUser()), "spectator:standings", pk=played.pk) != ""
    assert not may_open(_request(user_with(ORGANIZER, "olive")), "/organizer/nowhere/")


def test_a_link_with_a_query_or_a_fragment_opens_as_its_page_does(db):
    """A link to the standings' second page, or to a row of it, is the standings page."""
    standings = reverse("scoring:standings", kwargs={"pk": 1})
    head_judge = _request(user_with(HEAD_JUDGE, "hedda"))
    judge = _request(user_with(JUDGE, "jo"))
    for link in (f"{standings}?page=2", f"{standings}#place-12", f"{standings}?q=a#b"):
        assert may_open(head_judge, link), link
        assert not may_open(judge, link), link


def test_who_takes_a_step_is_said_only_when_a_role_is_needed():
    assert str(who_does("scoring:final_seat")) == "The organizer does this."
    assert who_does("spectator:standings") == ""
    # A table's pages are its banker's, whom no step of the cockpit names: nothing is said.
    assert who_does("banker:banker_sheet") == ""
    assert view_permission("spectator:standings") is None
    assert view_permission("no:such_page") is None


@pytest.mark.django_db
def test_a_link_is_judged_by_its_path_whatever_its_query_or_fragment_holds():
    """A link's query and fragment are not part of the page it opens, however many ``?`` or
    ``#`` they hold: the banker's list opens for a banker and not for a stranger to it."""
    banker = _request(user_with(BANKER, "bea"))
    tables = reverse("banker:banker_tables")
    for url in (tables, f"{tables}?next=/x?y=1", f"{tables}#top#end", f"{tables}?a=1#b#c"):
        assert may_open(banker, url), url
        assert not may_open(_request(AnonymousUser()), url), url
