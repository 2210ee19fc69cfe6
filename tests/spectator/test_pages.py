"""The public pages: release switches, aliases only, standings, following one alias."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from scoring import selectors as scoring_selectors
from scoring.models import StandingsTieDecision
from scoring.services.advancement import advance_to_final
from scoring.services.posting import round_post
from spectator import selectors
from spectator.services import release_set
from tests.scoring.scoring_helpers import make_round, play, table_of
from tests.spectator.spectator_names import REAL_NAMES
from tournament.models import Table
from tournament.roles import ORGANIZER

NOT_YET = "Nothing is posted here yet."
EVERYTHING = dict.fromkeys(("home", "tables", "results", "standings", "final", "winner"), True)


def url(name: str, event, **kwargs) -> str:
    return reverse(f"spectator:{name}", kwargs={"pk": event.pk, **kwargs})


def page_urls(event) -> list[str]:
    return [
        url("tables", event, number=1),
        url("results", event, number=1),
        url("standings", event),
        url("final", event),
        url("winner", event),
    ]


def test_a_held_site_shows_nothing_until_the_organizer_releases_it(client, event, round1):
    release_set(event=event, pages={}, by=None, held=True)
    round_post(round_=round1, by=None)
    for address in page_urls(event):
        response = client.get(address)
        assert response.status_code == 200, address
        assert NOT_YET in response.content.decode(), address
        assert "Boot" not in response.content.decode(), address
    home = client.get(url("event_home", event)).content.decode()
    # The practical details are always there; the day itself waits for the switch.
    assert "Spring Championship" in home and "Library Annex" in home
    assert NOT_YET in home and url("standings", event) not in home

    release_set(event=event, pages=EVERYTHING, by=None)
    for address in page_urls(event)[:3]:
        body = client.get(address).content.decode()
        assert NOT_YET not in body and "Boot" in body, address
    home = client.get(url("event_home", event)).content.decode()
    assert url("standings", event) in home and url("tables", event, number=1) in home
    assert url("results", event, number=1) in home


def test_tables_also_need_the_round_published_and_results_the_round_posted(client, event, round1):
    release_set(event=event, pages=EVERYTHING, by=None)
    round1.assignments_published = False
    round1.save(update_fields=["assignments_published"])
    assert NOT_YET in client.get(url("tables", event, number=1)).content.decode()
    assert NOT_YET in client.get(url("results", event, number=1)).content.decode()

    round1.assignments_published = True
    round1.save(update_fields=["assignments_published"])
    tables = client.get(url("tables", event, number=1)).content.decode()
    assert all(alias in tables for alias in REAL_NAMES)
    assert NOT_YET in client.get(url("results", event, number=1)).content.decode()

    round_post(round_=round1, by=None)
    results = client.get(url("results", event, number=1)).content.decode()
    assert NOT_YET not in results and ">19<" in results
    # Championship Rules, POSTING SCORES: "Point scores (not net worth) will be posted".
    assert "3000" not in results and "Net worth" not in results


def test_a_round_the_event_does_not_have_is_404_and_so_is_an_unknown_event(client, event):
    assert client.get(url("tables", event, number=7)).status_code == 404
    assert client.get(url("results_live", event, number=7)).status_code == 404
    assert client.get(reverse("spectator:standings", kwargs={"pk": 999})).status_code == 404
    assert client.get(reverse("spectator:event_home", kwargs={"pk": 999})).status_code == 404


def test_the_organizer_switches_pages_on_and_off(client, event):
    from django.contrib.auth.models import Group, User

    user = User.objects.create_user("org", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    page = url("release", event)
    assert client.get(page).status_code == 200
    response = client.post(page, {"standings": "on", "home": "on"})
    assert response.status_code == 302
    assert selectors.release_for(event_pk=event.pk) == selectors.Release(home=True, standings=True)
    client.post(page, {"home": "on"})
    assert selectors.release_for(event_pk=event.pk) == selectors.Release(home=True)
    # The event's own pages (its navigation, from the cockpit) lead to the switches.
    cockpit = client.get(reverse("cockpit:cockpit", kwargs={"pk": event.pk})).content.decode()
    assert page in cockpit


def test_standings_count_posted_rounds_only_by_alias_in_the_tie_breaker_order(
    client, event, players, round1
):
    p = players
    release_set(event=event, pages={"standings": True}, by=None)
    # Round 2 is played and signed but not posted: the public must not see it.
    round2 = make_round(event, 2, [list(players.values())])
    play(table_of(round2, 1), {p["Dog"]: 5000, p["Hat"]: 2000, p["Car"]: 1500, p["Boot"]: 900})
    assert NOT_YET in client.get(url("standings", event)).content.decode()

    round_post(round_=round1, by=None)
    body = client.get(url("standings", event)).content.decode()
    table = selectors.standings(event_pk=event.pk, release=selectors.release_for(event_pk=event.pk))
    assert [(r.place, r.alias, r.values[0]) for r in table.rows] == [
        ("1", "Boot", "19"),
        ("2", "Car", "10"),
        ("3", "Hat", "5"),
        ("4", "Dog", "3"),
    ]
    assert "5000" not in body  # round 2 is not counted
    for first, last in REAL_NAMES.values():
        assert first not in body and last not in body
    # The organizer's order of the tie-breakers is the order of the columns (points first:
    # Championship Rules "Point scores (not net worth)"), and a key left out is no column.
    event.tie_breakers = ["points", "best_game", "wins", "net_worth"]
    event.save(update_fields=["tie_breakers"])
    body = client.get(url("standings", event)).content.decode()
    heads = [body.index(f"key-{key}") for key in ("points", "wins")]
    assert heads == sorted(heads)
    # The order still uses net worth and best game, but a championship never shows them.
    assert "key-net_worth" not in body and "key-best_game" not in body
    event.tie_breakers = ["points"]
    event.save(update_fields=["tie_breakers"])
    body = client.get(url("standings", event)).content.decode()
    assert "key-wins" not in body and "Ranked by points, then the head judge." in body


def test_public_standings_rank_like_the_organizers_standings_head_judge_order_included(
    event, players
):
    """Two players level on every key: shown tied, then in the head judge's order."""
    p = players
    round_ = make_round(event, 1, [[p["Boot"], p["Car"]], [p["Hat"], p["Dog"]]])
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 1000})
    play(table_of(round_, 2), {p["Hat"]: 3000, p["Dog"]: 1000})
    round_post(round_=round_, by=None)
    release = selectors.Release(standings=True)

    def both():
        official = [
            (f"{r.rank}=" if r.tied else str(r.rank), r.alias)
            for r in scoring_selectors.standings(event=event, only_posted=True)
        ]
        public = [
            (r.place, r.alias) for r in selectors.standings(event_pk=event.pk, release=release).rows
        ]
        return official, public

    official, public = both()
    assert public == official
    assert public[0][0] == "1=" and public[1][0] == "1="
    StandingsTieDecision.objects.create(
        event=event,
        order=[p["Hat"].pk, p["Boot"].pk],
        at=datetime.datetime(2030, 4, 20, 18, tzinfo=datetime.UTC),
        reason="Coin",
    )
    official, public = both()
    assert public == official
    assert public[:2] == [("1", "Hat"), ("2", "Boot")]


def test_following_an_alias_shows_table_seat_points_and_place(client, event, players, round1):
    release_set(event=event, pages={"tables": True, "standings": True}, by=None)
    round_post(round_=round1, by=None)
    response = client.get(url("follow", event), {"alias": "Car"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "Round 1 · Table 1 · Seat 2" in body
    assert "Place 2" in body and ">10<" in body
    assert "Wrexham" not in body

    # Not an alias on a released page: the chooser, and no page cached under it.
    response = client.get(url("follow", event), {"alias": "Rosalind Quimby"})
    body = response.content.decode()
    assert "No player with that alias" in body and "Rosalind" not in body


def test_following_before_anything_is_released_says_not_yet(client, event, round1):
    body = client.get(url("follow", event), {"alias": "Car"}).content.decode()
    assert NOT_YET in body and "Seat" not in body


def test_the_final_and_the_winner(client, event, players, round1):
    p = players
    release_set(event=event, pages=EVERYTHING, by=None)
    round_post(round_=round1, by=None)
    event.advancing = 4
    event.save(update_fields=["advancing"])
    assert NOT_YET in client.get(url("final", event)).content.decode()
    final = advance_to_final(event=event, by=None, time_limit=1)
    body = client.get(url("final", event)).content.decode()
    assert all(alias in body for alias in REAL_NAMES)
    assert NOT_YET in client.get(url("winner", event)).content.decode()

    final_table = table_of(final, 1)
    final_table.status = Table.Status.FINISHED
    final_table.save(update_fields=["status"])
    play(final_table, {p["Hat"]: 9000, p["Boot"]: 100, p["Car"]: 50, p["Dog"]: 10})
    round_post(round_=final, by=None)
    body = client.get(url("winner", event)).content.decode()
    assert "Hat" in body and "Onslow" not in body
    assert "First place at the final (round 2)" in body
    assert "9000" not in body  # a championship posts points, not net worth (Championship Rules)
    assert url("winner", event) in client.get(url("event_home", event)).content.decode()


@pytest.mark.parametrize("name", ["event_home", "standings", "follow"])
def test_a_signed_in_official_gets_the_very_same_bytes_as_everyone(client, event, round1, name):
    """Shared copies hold nothing personal: no user name, no CSRF token."""
    from django.contrib.auth.models import Group, User

    release_set(event=event, pages=EVERYTHING, by=None)
    anonymous = client.get(url(name, event)).content
    user = User.objects.create_user("organizer-rosalind", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    signed_in = client.get(url(name, event)).content
    assert signed_in == anonymous
    assert b"organizer-rosalind" not in signed_in and b"csrfmiddlewaretoken" not in signed_in
