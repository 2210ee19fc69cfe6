"""Every link a role is shown opens for that role, and no page shows template syntax.

The demo (demo.event.load_demo_event: a played championship with its final seated, a
played club knockout, a junior event and a small series) is built once for the module.
Its officials (organizer, head judge, judge, banker) each crawl the site from where they
land, as does an anonymous visitor (the public pages and the hall display) and a tablet
holding a table card's private link (tests/project/site_crawl.py says how, and what keeps
it short). Each visitor crawls once; both tests read the same crawl.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from banker.links import banker_link_issue
from demo.event import DEMO_CLUB_NAME, DEMO_EVENT_NAME, DEMO_JUNIOR_NAME
from tests.builders import built_once_for_the_module
from tests.demo_rows import load_demo_rows
from tests.project.site_crawl import Crawl, Visitor, crawl
from tournament.models import Event, Round, Table

OFFICIALS = ["organizer", "headjudge", "judge", "banker"]
ANONYMOUS, TABLET = "anonymous", "tablet"
VISITORS = [*OFFICIALS, ANONYMOUS, TABLET]


class _NoLayout:
    """Stands in for the PDF renderers: whether a printout opens is the question here, and
    tests/printouts/ check what they hold."""

    def __getattr__(self, name: str):
        return lambda **kwargs: b"%PDF-1.7\n%%EOF\n"


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo's three events of the day, built once; rolled back when the module is done."""
    with built_once_for_the_module(django_db_blocker):
        load_demo_rows()
        names = (DEMO_EVENT_NAME, DEMO_CLUB_NAME, DEMO_JUNIOR_NAME)
        yield [Event.objects.get(name=name) for name in names]


@pytest.fixture(scope="module")
def crawls():
    """Each visitor's crawl, done by the first test that needs it."""
    return {}


def _starts(visitor: str, events: list[Event]) -> list[str]:
    """Where each visitor begins: the officials where login lands them and their events'
    overviews; the public at the events' homes and hall displays; the tablet at its link."""
    if visitor == ANONYMOUS:
        pages = ["/"]
        for event in events:
            pages += [
                reverse("spectator:event_home", kwargs={"pk": event.pk}),
                reverse("spectator:hall_display", kwargs={"pk": event.pk}),
                reverse("spectator:hall_display", kwargs={"pk": event.pk}) + "?screen=1",
            ]
        return pages
    if visitor == "banker":
        return [reverse("tournament:signed_in")]
    overviews = [reverse("cockpit:cockpit", kwargs={"pk": event.pk}) for event in events]
    return [*overviews, reverse("tournament:signed_in")]


def _tablet(events: list[Event]) -> tuple[Visitor, str]:
    """A tablet opening the private link of the championship's final table (unplayed: its
    clock page shows the most)."""
    final = Round.objects.get(event=events[0], kind=Round.Kind.FINAL)
    table = Table.objects.filter(round=final).order_by("number").first()
    key = banker_link_issue(table=table, by=None).key
    visitor = Visitor(TABLET, Client(), AnonymousUser(), table=table.pk)
    return visitor, reverse("banker:banker_link_open", kwargs={"key": key})


def _crawl(name: str, events: list[Event]) -> Crawl:
    cache.clear()
    if name == TABLET:
        visitor, start = _tablet(events)
        return crawl(visitor, [start])
    client = Client()
    user = AnonymousUser()
    if name != ANONYMOUS:
        user = get_user_model().objects.get(username=name)
        client.force_login(user)
    return crawl(Visitor(name, client, user), _starts(name, events))


@pytest.fixture
def crawl_of(demo, crawls, db, monkeypatch):
    monkeypatch.setattr("printouts.catalog.renderers", _NoLayout)
    monkeypatch.setattr("printouts.views.renderers", _NoLayout)

    def get(name: str) -> Crawl:
        if name not in crawls:
            crawls[name] = _crawl(name, demo)
        return crawls[name]

    return get


def _listed(lines: list[str], limit: int = 80) -> str:
    unique = list(dict.fromkeys(lines))
    more = f"\n... and {len(unique) - limit} more" if len(unique) > limit else ""
    return "\n".join(unique[:limit]) + more


@pytest.mark.parametrize("visitor", VISITORS)
def test_every_link_shown_opens_for_whoever_is_shown_it(crawl_of, visitor):
    result = crawl_of(visitor)
    assert not result.link_problems, (
        f"{visitor} is shown links that do not open for them (page -> link: answer):\n"
        + _listed(result.link_problems)
    )
    # The crawl went somewhere: each visitor fetched pages of several kinds.
    assert len(result.fetched) >= 5


@pytest.mark.parametrize("visitor", VISITORS)
def test_no_page_shows_template_syntax(crawl_of, visitor):
    result = crawl_of(visitor)
    assert not result.raw_text, f"{visitor}'s pages show template syntax (page: text):\n" + _listed(
        result.raw_text
    )
