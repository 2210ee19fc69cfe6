"""Who opens a table's pages, and what they are sent: the rules of banker/access.py and
of tournament/access.py, asked directly.

From the README's "Who does what": a banker opens the tables assigned to them and no other;
judges and above open any table, to help at it; the tablet holding a table card's private
link opens that table's pages while the link is in force, and nothing behind a login.
Every page behind a permission holds names or amounts, so no cache may keep it.
"""

from __future__ import annotations

import datetime
from urllib.parse import parse_qs

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.cache import SessionStore
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from banker.access import granted_table, holds_table, link_grant, link_grants
from banker.links import banker_link_issue, banker_link_revoke
from tests.banker.banker_setup import BANKER, JUDGE, ORGANIZER, finished_tables, user_with
from tests.builders import an_event
from tournament.access import acting_user, may_open, tables_banked_by
from tournament.models import Round, Table, Wave


@pytest.fixture
def tables(db) -> list[Table]:
    return finished_tables(players=8)


def request_of(user) -> object:
    request = RequestFactory().get("/")
    request.user = user
    request.session = SessionStore()
    return request


def tablet_holding(table: Table):
    """A tablet with no login that opened ``table``'s card link."""
    request = request_of(AnonymousUser())
    link_grant(request, table=table, key=banker_link_issue(table=table, by=None).key)
    return request


def never_stored(response) -> bool:
    directives = {part.strip() for part in response["Cache-Control"].split(",")}
    return {"private", "no-store"} <= directives


# --- What the pages are sent -------------------------------------------------------------


def test_a_tables_page_and_an_officials_page_are_never_stored(client, tables):
    """The sheet holds the players' aliases and amounts, the cockpit registered names."""
    table = tables[0]
    client.force_login(user_with(JUDGE, "jo"))
    sheet = client.get(reverse("banker:banker_sheet", kwargs={"table_pk": table.pk}))
    assert sheet.status_code == 200 and never_stored(sheet)
    cockpit = client.get(reverse("cockpit:cockpit", kwargs={"pk": table.round.event_id}))
    assert cockpit.status_code == 200 and never_stored(cockpit)


# --- The table card's private link --------------------------------------------------------


def test_the_card_link_opens_its_own_table_only_while_it_is_in_force(tables):
    mine, other = tables
    tablet = tablet_holding(mine)
    assert link_grants(tablet, mine) and holds_table(tablet, mine)
    assert granted_table(tablet) == mine
    assert not link_grants(tablet, other) and not holds_table(tablet, other)
    # The link still in force for the other table's card opens nothing here.
    banker_link_issue(table=other, by=None)
    assert not link_grants(tablet, other)
    banker_link_revoke(table=mine, by=None)
    assert not link_grants(tablet, mine)
    assert granted_table(tablet) is None


def test_a_revoked_link_is_forgotten_by_the_tablet(tables):
    """Revoking takes effect on the next tap, and the tablet no longer claims the table."""
    table = tables[0]
    tablet = tablet_holding(table)
    banker_link_revoke(table=table, by=None)
    assert not link_grants(tablet, table)
    assert "banker_link" not in tablet.session
    # A new link issued later is not the tablet's: it never opened it.
    banker_link_issue(table=table, by=None)
    assert not link_grants(tablet, table) and granted_table(tablet) is None


def test_a_grant_naming_another_table_than_its_key_opens_neither(tables):
    """A session whose grant was tampered with (the key of one table, the number of
    another) gives no table."""
    mine, other = tables
    key = banker_link_issue(table=mine, by=None).key
    request = request_of(AnonymousUser())
    request.session["banker_link"] = {"table": other.pk, "key": key}
    assert granted_table(request) is None
    assert not link_grants(request, other) and not link_grants(request, mine)
    request.session["banker_link"] = {"table": mine.pk, "key": key}
    assert granted_table(request) == mine


def test_without_a_session_or_a_grant_no_table_is_held(tables):
    request = RequestFactory().get("/")
    assert granted_table(request) is None
    request = request_of(AnonymousUser())
    assert granted_table(request) is None and not link_grants(request, tables[0])
    request.session["banker_link"] = "not a grant"
    assert granted_table(request) is None and not link_grants(request, tables[0])


def test_only_the_tables_own_banker_or_tablet_holds_it_a_judge_does_not(tables):
    """A judge may open any table to help, but speaks for no table's tablet."""
    mine, other = tables
    banker = user_with(BANKER, "bea")
    Table.objects.filter(pk=mine.pk).update(banker=banker)
    mine.refresh_from_db()
    assert holds_table(request_of(banker), mine)
    assert not holds_table(request_of(banker), other)
    assert not holds_table(request_of(user_with(JUDGE, "jo")), mine)
    assert not holds_table(request_of(AnonymousUser()), other)


# --- A banker's own tables -----------------------------------------------------------------


def test_a_bankers_tables_come_latest_event_and_round_first_then_by_number(db):
    """The list a banker is sent to (and shown on a refusal) starts with today's table."""
    banker = user_with(BANKER, "bea")
    tables = {}
    # The Summer Cup was made before the earlier Spring Cup; the Evening Cup, the Summer
    # Cup's day, was made last.
    for name, date in (
        ("Summer Cup", datetime.date(2031, 6, 8)),
        ("Spring Cup", datetime.date(2031, 6, 1)),
        ("Evening Cup", datetime.date(2031, 6, 8)),
    ):
        event = an_event(name=name, date=date)
        for number in (1, 2):
            round_ = Round.objects.create(event=event, number=number)
            wave = Wave.objects.create(round=round_, number=1)
            for table_number in (2, 1):
                tables[name, number, table_number] = Table.objects.create(
                    round=round_, wave=wave, number=table_number, banker=banker
                )
    Table.objects.create(round=round_, wave=wave, number=3)  # another banker's, or none
    expected = [
        tables["Evening Cup", 2, 1], tables["Evening Cup", 2, 2],
        tables["Evening Cup", 1, 1], tables["Evening Cup", 1, 2],
        tables["Summer Cup", 2, 1], tables["Summer Cup", 2, 2],
        tables["Summer Cup", 1, 1], tables["Summer Cup", 1, 2],
        tables["Spring Cup", 2, 1], tables["Spring Cup", 2, 2],
        tables["Spring Cup", 1, 1], tables["Spring Cup", 1, 2],
    ]  # fmt: skip
    assert list(tables_banked_by(user=banker)) == expected


def test_what_a_tablet_does_is_recorded_as_done_by_no_one(tables):
    """A tablet on a card link has no account; a signed-in official is recorded by name."""
    assert acting_user(request_of(AnonymousUser())) is None
    organizer = user_with(ORGANIZER, "olive")
    assert acting_user(request_of(organizer)) == organizer


# --- Refusals ---------------------------------------------------------------------------


def test_a_table_that_does_not_exist_is_404_and_never_linked(client, tables):
    judge = user_with(JUDGE, "jo")
    client.force_login(judge)
    missing = reverse("banker:banker_sheet", kwargs={"table_pk": tables[-1].pk + 1000})
    assert client.get(missing).status_code == 404
    assert not may_open(request_of(judge), missing)


def test_anonymous_at_a_tables_page_logs_in_and_comes_back_to_it(client, tables):
    page = reverse("banker:banker_sheet", kwargs={"table_pk": tables[0].pk}) + "?tab=deeds"
    response = client.get(page)
    assert response.status_code == 302
    login, _, query = response["Location"].partition("?")
    assert login == reverse("login") and parse_qs(query) == {"next": [page]}


def test_a_banker_of_another_table_is_told_so_someone_without_a_role_is_just_refused(
    client, tables
):
    mine, theirs = tables
    banker = user_with(BANKER, "bea")
    Table.objects.filter(pk=mine.pk).update(banker=banker)
    page = reverse("banker:banker_sheet", kwargs={"table_pk": theirs.pk})
    client.force_login(banker)
    told = client.get(page)
    assert told.status_code == 403
    # The site's own page, signed in as them, with the reason.
    assert f"You are not the banker of {theirs}." in told.content.decode()
    assert "Log out bea" in told.content.decode()
    client.force_login(user_with(None, "visitor"))
    refused = client.get(page)
    assert refused.status_code == 403
    assert "This is not your table" not in refused.content.decode()


def test_a_refused_banker_is_shown_their_twenty_latest_tables_read_at_once(client, tables):
    """The refusal lists where to go instead: the latest 20 of a busy banker's tables (the
    tablet's screen, not a history), with no query per table listed."""
    theirs = tables[0]
    banker = user_with(BANKER, "bea")
    event = an_event(name="Long Day")
    mine = []
    for number in (1, 2, 3):
        round_ = Round.objects.create(event=event, number=number)
        wave = Wave.objects.create(round=round_, number=1)
        mine += [
            Table.objects.create(round=round_, wave=wave, number=n, banker=banker)
            for n in range(1, 8)
        ]
    client.force_login(banker)
    page = reverse("banker:banker_sheet", kwargs={"table_pk": theirs.pk})

    def refusal() -> tuple[str, int]:
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(page)
        assert answer.status_code == 403
        return answer.content.decode(), len(queries)

    refusal()  # the first page of a sign-in also keeps the session and the language
    listed, queries_for_21 = refusal()
    # Round 3's seven tables, round 2's, then round 1's by number: its table 7 is left out.
    left_out = mine[6]
    for table in mine:
        shown = reverse("banker:banker_sheet", kwargs={"table_pk": table.pk}) in listed
        assert shown == (table != left_out), table
    Table.objects.filter(pk__in=[t.pk for t in mine[2:]]).update(banker=None)
    listed, queries_for_2 = refusal()
    assert listed.count('class="my-tables"') == 1 and queries_for_2 == queries_for_21
