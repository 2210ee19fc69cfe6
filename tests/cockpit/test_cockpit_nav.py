"""The navigation inside an event: on every officials' page of the event, each
section the person may open, the current one marked with aria-current."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from demo.simulation import event_simulate
from tests.builders import built_once_for_the_module
from tournament.models import Event, Table

SECTIONS = [
    "overview", "players", "check_in", "seating", "clock", "results", "standings",
    "printouts", "public",
]  # fmt: skip


@pytest.fixture(scope="module")
def played_once(django_db_setup, django_db_blocker):
    with built_once_for_the_module(django_db_blocker):
        yield event_simulate(players=16, seed=4, final=False).event.pk


@pytest.fixture
def played(db, played_once):
    return Event.objects.get(pk=played_once)


def login(client, group: str):
    user = User.objects.create_user(group.lower().replace(" ", "-"))
    user.groups.add(Group.objects.get(name=group))
    client.force_login(user)
    return client


def nav_of(html: str) -> tuple[list[str], list[str]]:
    nav = html[html.index('class="event-nav"') : html.index("</nav>", html.index("event-nav"))]
    sections = re.findall(r'data-section="([a-z_]+)"', nav)
    current = re.findall(r'data-section="([a-z_]+)" aria-current="page"', nav)
    return sections, current


@pytest.mark.parametrize(
    ("name", "extra", "section"),
    [
        ("cockpit:cockpit", {}, "overview"),
        ("tournament:event_edit", {}, "overview"),
        ("players:player_list", {}, "players"),
        ("players:player_import", {}, "players"),
        ("players:check_in", {}, "check_in"),
        ("seating:seating", {}, "seating"),
        ("clock:clock_control", {}, "clock"),
        ("scoring:results_round", {"round_number": 1}, "results"),
        ("scoring:results_table", {"round_number": 1, "table_number": 1}, "results"),
        ("scoring:standings", {}, "standings"),
        ("printouts:index", {}, "printouts"),
        ("spectator:release", {}, "public"),
    ],
)
def test_every_officials_page_marks_its_section(client, played, name, extra, section):
    login(client, "Organizer")
    html = client.get(reverse(name, kwargs={"pk": played.pk, **extra})).content.decode()
    sections, current = nav_of(html)
    assert sections == SECTIONS
    assert current == [section]


def test_the_banker_link_page_is_under_results(client, played):
    login(client, "Organizer")
    table = Table.objects.filter(round__event=played).first()
    html = client.get(reverse("banker:banker_link", kwargs={"table_pk": table.pk})).content
    assert nav_of(html.decode())[1] == ["results"]


def test_a_judge_sees_only_the_sections_a_judge_may_open(client, played):
    login(client, "Judge")
    html = client.get(reverse("players:check_in", kwargs={"pk": played.pk})).content.decode()
    assert nav_of(html) == (["overview", "check_in", "results"], ["check_in"])


def test_public_pages_have_no_officials_navigation(client, played):
    html = client.get(reverse("spectator:event_home", kwargs={"pk": played.pk})).content.decode()
    assert "event-nav" not in html
