"""Cached, conditional public pages: a 304 while nothing changed, fresh pages after a change,
and a page rendered once serves every visitor (and every server sharing the cache)."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from scoring.services.posting import round_post
from spectator.services import release_set
from spectator.versioning import public_version
from tournament.models import Player


def url(name: str, event, **kwargs) -> str:
    return reverse(f"spectator:{name}", kwargs={"pk": event.pk, **kwargs})


def test_an_unchanged_page_is_304_and_a_posted_round_makes_it_200_again(client, event, round1):
    release_set(event=event, pages={"standings": True}, by=None)
    for address in (url("standings", event), url("standings_live", event)):
        first = client.get(address)
        assert first.status_code == 200
        etag = first["ETag"]
        assert "no-cache" in first["Cache-Control"]
        again = client.get(address, headers={"if-none-match": etag})
        assert again.status_code == 304 and again.content == b""
        assert again["ETag"] == etag

    before = client.get(url("standings_live", event))
    round_post(round_=round1, by=None)
    after = client.get(url("standings_live", event), headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert b"Boot" in after.content and b"Boot" not in before.content
    assert b"<html" not in after.content  # the fragment htmx swaps in, not a page


def test_a_cached_page_is_served_to_another_visitor_without_a_query(
    event, round1, django_assert_num_queries
):
    """Two clients stand for two application servers sharing one cache."""
    release_set(event=event, pages={"home": True, "standings": True, "tables": True}, by=None)
    round_post(round_=round1, by=None)
    addresses = [url("event_home", event), url("standings", event), url("tables", event, number=1)]
    first = {address: Client().get(address).content for address in addresses}
    for address in addresses:
        with django_assert_num_queries(0):
            response = Client().get(address)
        assert response.content == first[address]


def test_any_public_change_bumps_the_version_and_the_page_follows(client, event, round1):
    release_set(event=event, pages={"tables": True}, by=None)
    address = url("tables", event, number=1)
    assert b"Boot" in client.get(address).content
    version = public_version(event_pk=event.pk)

    boot = Player.objects.get(event=event, alias="Boot")
    boot.alias = "Lucky Boot"
    boot.save(update_fields=["alias"])
    assert public_version(event_pk=event.pk) != version
    assert b"Lucky Boot" in client.get(address).content

    # Withdrawing the release is a change too.
    release_set(event=event, pages={"tables": False}, by=None)
    assert b"Lucky Boot" not in client.get(address).content


def test_each_language_has_its_own_copy_and_etag(client, event):
    release_set(event=event, pages={"standings": True}, by=None)
    english = client.get(url("standings", event), headers={"accept-language": "en"})
    other = client.get(url("standings", event), headers={"accept-language": "fr"})
    assert english.status_code == other.status_code == 200
    assert "Accept-Language" in english["Vary"]
    assert b'lang="en"' in english.content and b'lang="fr"' in other.content
    assert english["ETag"] != other["ETag"]
