"""The organizer's series pages and the public ones (aliases only, released explicitly).

The requirement: "Organizer: a series overview (events, their state, qualifiers, confirmations).
Public (released like the other public pages): each regional's qualifiers by alias, the
Finals entrants, the champion."
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from series import services
from series.models import SENIOR, Entrant
from tests.series.series_helpers import enter, play_round, regional, three_tables
from tournament.roles import JUDGE, ORGANIZER

pytestmark = pytest.mark.django_db


@pytest.fixture
def org_client(client):
    user = User.objects.create_user("olive", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    return client


@pytest.fixture
def played():
    finals = regional("Finals", day=28)
    series = services.series_create(name="UK Championship", season="2030", finals=finals)
    north = regional("North", day=10)
    services.series_add_event(series=series, event=north)
    players = enter(north, "ABCDEFGHIJKL")
    play_round(north, three_tables(players))
    return series, players


def url(name, series, **kwargs):
    return reverse(f"series:{name}", kwargs={"series_pk": series.pk, **kwargs})


def test_the_overview_shows_regionals_state_and_qualifiers(org_client, played):
    series, p = played
    page = org_client.get(url("detail", series)).content.decode()
    assert "North" in page and "1 / 1" in page
    for letter in "IEAB":
        assert p[letter].alias in page
    assert p["B"].full_name in page  # the organizer's page names them
    assert "Confirm the entrants" in page
    for name in ("people", "release", "invite", "alternates", "confirm"):
        kwargs = {"division": SENIOR} if name in ("invite", "alternates", "confirm") else {}
        assert org_client.get(url(name, series, **kwargs)).status_code == 200, name


def test_a_judge_may_not_open_the_series_page(client, played):
    series, _p = played
    user = User.objects.create_user("jude", password="pw")
    user.groups.add(Group.objects.get(name=JUDGE))
    client.force_login(user)
    assert client.get(url("detail", series)).status_code == 403


def test_declining_asks_first_then_passes_the_place_on(org_client, played):
    """The requirement: "A declined place passes to the next player of the same regional"."""
    series, p = played
    b = Entrant.objects.get(player=p["B"])
    page = org_client.get(url("decline", series, entrant_pk=b.pk)).content.decode()
    assert "cannot be undone" in page
    assert Entrant.objects.get(pk=b.pk).status == "qualifier"
    org_client.post(url("decline", series, entrant_pk=b.pk))
    assert Entrant.objects.get(pk=b.pk).status == "declined"
    assert Entrant.objects.get(player=p["F"]).status == "qualifier"


def test_accept_invite_alternates_and_confirm_from_the_pages(org_client, played):
    series, p = played
    for entrant in Entrant.objects.filter(series=series):
        org_client.post(url("accept", series, entrant_pk=entrant.pk))
    response = org_client.post(
        url("invite", series, division=SENIOR),
        {
            "first_name": "Past",
            "last_name": "Champion",
            "email": "past@example.org",
            "date_of_birth": "1980-02-02",
            "alias": "Old Boot",
            "reason": "Last season's champion",
        },
    )
    assert response.status_code == 302
    invited = Entrant.objects.get(alias="Old Boot")
    org_client.post(url("accept", series, entrant_pk=invited.pk))
    org_client.post(
        url("alternates", series, division=SENIOR),
        {f"position-{p['J'].pk}": "1", f"position-{p['F'].pk}": "2"},
    )
    alternates = Entrant.objects.filter(status="alternate").order_by("alternate_position")
    assert [e.player for e in alternates] == [p["J"], p["F"]]
    # Without ticking the confirmation nothing happens.
    org_client.post(url("confirm", series, division=SENIOR), {})
    assert not series.finals.players.exists()
    # Fewer accepted than a championship's minimum: asked to agree to that first.
    org_client.post(url("confirm", series, division=SENIOR), {"confirm": "on"})
    assert not series.finals.players.exists()
    org_client.post(url("confirm", series, division=SENIOR), {"confirm": "on", "short": "on"})
    assert series.finals.players.count() == 7


def test_bad_input_is_refused_without_a_server_error(org_client, played):
    series, _p = played
    assert org_client.post(url("places", series, member_pk=999), {"places": "3"}).status_code == 404
    assert org_client.get(url("invite", series, division="nope")).status_code == 404
    assert org_client.post(url("merge", series), {"keep": "x", "other": ""}).status_code == 302
    assert org_client.post(url("split", series), {"player": "abc"}).status_code == 302
    assert org_client.post(url("add_event", series), {"event": "zzz"}).status_code == 302
    assert org_client.post(url("accept", series, entrant_pk=99999)).status_code == 404
    assert org_client.post(url("alternates", series, division=SENIOR), {"position-1": "x"})
    assert org_client.post(url("qualify", series, division=SENIOR)).status_code == 302


def test_public_pages_wait_for_release_and_show_aliases_only(client, org_client, played):
    """Public pages by alias; never a registered name or email."""
    series, p = played
    for name in ("public_qualifiers", "public_entrants", "public_champion"):
        page = client.get(url(name, series)).content.decode()
        assert "Nothing released yet" in page
        assert p["B"].alias not in page
    org_client.post(
        url("release", series), {"qualifiers": "on", "entrants": "on", "champion": "on"}
    )
    qualifiers = client.get(url("public_qualifiers", series)).content.decode()
    entrants = client.get(url("public_entrants", series)).content.decode()
    for letter in "IEAB":
        assert p[letter].alias in qualifiers and p[letter].alias in entrants
    for player in p.values():
        for page in (qualifiers, entrants):
            assert player.last_name not in page and player.email not in page
    assert client.get(url("public_champion", series)).status_code == 200
    assert client.get(url("public_home", series)).status_code == 200


def test_the_regionals_standings_page_says_it_ends_with_its_qualifiers(org_client, played):
    """A regional of a series has no same-day final."""
    series, _p = played
    event = series.regionals.get().event
    page = org_client.get(reverse("scoring:standings", kwargs={"pk": event.pk})).content.decode()
    assert "ends with its qualifiers" in page
    assert "Seat the final" not in page
