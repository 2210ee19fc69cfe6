"""What the public sees is never a surprise: the public pages follow publishing and posting,
unless the organizer holds the public site; every message about it is true when sent.

Everything goes through the real views: the organizer publishes round 1 on the seating
page, the head judge posts it on the results page, a phone (an anonymous client) reads the
public pages and the hall display, and the organizer taps the button a message carries.
The round: one table of four, signed, net worth Boot 3000 > Car 2000 > Hat 1500 > Dog 1000,
so the standings read Boot, Car, Hat, Dog.
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from spectator import selectors
from spectator.services import release_set
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Round
from tournament.roles import HEAD_JUDGE, JUDGE, ORGANIZER

NOT_YET = "Nothing is posted here yet."
HALL_HELD = "The clock appears here once the organizer releases the event"
SEAT_ORDER = ("Boot", "Car", "Hat", "Dog")


@pytest.fixture
def round1(event, players) -> Round:
    """Round 1 seated, played and signed; its tables not published yet."""
    p = players
    round_ = make_round(event, 1, [[p[alias] for alias in SEAT_ORDER]])
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 1500, p["Dog"]: 1000})
    assert not round_.assignments_published
    return round_


def official(role: str) -> Client:
    person = User.objects.create_user(f"{role.lower().replace(' ', '-')}", password="pw")
    person.groups.add(Group.objects.get(name=role))
    client = Client()
    client.force_login(person)
    return client


def spectator(name: str, event, **kwargs) -> str:
    return reverse(f"spectator:{name}", kwargs={"pk": event.pk, **kwargs})


def hall(event) -> str:
    return reverse("spectator:hall_display", kwargs={"pk": event.pk})


def messages_html(response) -> list[str]:
    """The messages as the page shows them (each <li class="message ...">)."""
    body = response.content.decode()
    return re.findall(r'<li class="message message-\w+">(.*?)</li>', body, flags=re.S)


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


class _Forms(HTMLParser):
    """The forms of a piece of HTML: action and fields, as a browser would submit them."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, list[tuple[str, str]]]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self.forms.append((attributes.get("action") or "", []))
        elif tag == "input" and self.forms and attributes.get("name"):
            self.forms[-1][1].append((attributes["name"], attributes.get("value") or ""))


def tap(client: Client, message: str):
    """Press the one button a message carries (its form's fields, CSRF token included)."""
    parser = _Forms()
    parser.feed(message)
    assert len(parser.forms) == 1, message
    action, fields = parser.forms[0]
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(value)
    return client.post(action, data, follow=True)


def publish(organizer: Client, event):
    address = reverse("seating:seating_publish", kwargs={"pk": event.pk, "round_number": 1})
    return organizer.post(address, {"published": "1"}, follow=True)


def post(head_judge: Client, event):
    address = reverse("scoring:results_post", kwargs={"pk": event.pk, "round_number": 1})
    return head_judge.post(address, follow=True)


def test_by_default_publishing_and_posting_open_the_public_pages(event, round1):
    phone, organizer, head_judge = Client(), official(ORGANIZER), official(HEAD_JUDGE)
    tables = spectator("tables", event, number=1)
    before = phone.get(tables)
    assert NOT_YET in before.content.decode()
    assert NOT_YET in phone.get(spectator("event_home", event)).content.decode()
    assert HALL_HELD in phone.get(hall(event)).content.decode()

    published = publish(organizer, event)
    [message] = messages_html(published)
    assert text_of(message) == "Round 1's tables are public."

    # The phone's copy is stale at once: the same ETag gets the new page, not a 304.
    again = phone.get(tables, headers={"if-none-match": before["ETag"]})
    assert again.status_code == 200 and again["ETag"] != before["ETag"]
    page = again.content.decode()
    assert NOT_YET not in page
    assert [page.index(f'<li class="alias">{a}</li>') for a in SEAT_ORDER] == sorted(
        page.index(f'<li class="alias">{a}</li>') for a in SEAT_ORDER
    )
    home = phone.get(spectator("event_home", event)).content.decode()
    assert NOT_YET not in home and f'href="{tables}"' in home
    projector = phone.get(hall(event)).content.decode()
    assert HALL_HELD not in projector
    assert "Boot, Car, Hat, Dog" in projector  # the table's aliases, in seat order
    # Posting is what opens the results.
    assert NOT_YET in phone.get(spectator("results", event, number=1)).content.decode()

    posted = post(head_judge, event)
    [message] = messages_html(posted)
    assert text_of(message) == "Round 1 is posted: its scores are public."
    results = phone.get(spectator("results", event, number=1)).content.decode()
    assert NOT_YET not in results and all(alias in results for alias in SEAT_ORDER)
    standings = phone.get(spectator("standings", event)).content.decode()
    assert NOT_YET not in standings
    places = [standings.index(f">{alias}<") for alias in ("Boot", "Car", "Hat", "Dog")]
    assert places == sorted(places)
    home = phone.get(spectator("event_home", event)).content.decode()
    assert f'href="{spectator("results", event, number=1)}"' in home
    assert f'href="{spectator("standings", event)}"' in home


def test_a_held_site_stays_private_and_every_message_says_so(event, round1):
    phone, organizer, head_judge = Client(), official(ORGANIZER), official(HEAD_JUDGE)
    # The organizer chooses to hold the public site on its page.
    response = organizer.post(spectator("release", event), {"held": "on"}, follow=True)
    assert response.status_code == 200
    assert "The public site is held" in response.content.decode()

    [message] = messages_html(publish(organizer, event))
    assert text_of(message) == (
        "Round 1's tables are published; not public yet: event home, table assignments. "
        "The public site is held: the organizer releases its pages. Release to the public"
    )
    assert "are public" not in text_of(message)
    assert f'action="{spectator("release_pages", event)}"' in message
    assert "Release to the public" in message

    [message_to_judge] = messages_html(post(head_judge, event))
    assert text_of(message_to_judge) == (
        "Round 1 is posted; not public yet: event home, round results, standings, final "
        "table, winner. The public site is held: the organizer releases its pages. "
        "Ask the organizer to release them."
    )
    # The head judge may not release pages, so is shown no button that would answer 403.
    assert "<form" not in message_to_judge

    for address in (
        spectator("event_home", event),
        spectator("tables", event, number=1),
        spectator("results", event, number=1),
        spectator("standings", event),
    ):
        assert NOT_YET in phone.get(address).content.decode(), address
    projector = phone.get(hall(event)).content.decode()
    assert HALL_HELD in projector and "Boot" not in projector
    assert selectors.release_for(event_pk=event.pk) == selectors.Release()


def test_one_tap_releases_what_a_held_message_names_and_one_more_undoes_it(event, round1):
    phone, organizer = Client(), official(ORGANIZER)
    release_set(event=event, pages={}, by=None, held=True)
    tables = spectator("tables", event, number=1)
    [message] = messages_html(publish(organizer, event))

    released = tap(organizer, message)
    # Back on the seating page the message was shown on, with the undo.
    assert released.redirect_chain[-1][0].startswith(
        reverse("seating:seating", kwargs={"pk": event.pk})
    )
    [message] = messages_html(released)
    assert text_of(message) == "Released to the public: event home, table assignments. Undo"
    assert "Boot" in phone.get(tables).content.decode()
    assert "Boot, Car, Hat, Dog" in phone.get(hall(event)).content.decode()
    # The site stays held: the results wait for a release of their own.
    assert selectors.public_site(event.pk).held

    [message] = messages_html(tap(organizer, message))
    assert text_of(message) == "Withdrawn from the public: event home, table assignments. Undo"
    assert NOT_YET in phone.get(tables).content.decode()
    assert HALL_HELD in phone.get(hall(event)).content.decode()


def test_a_tap_changes_only_the_pages_it_names_and_never_leaves_the_site(event):
    organizer = official(ORGANIZER)
    release_set(event=event, pages={"standings": True}, by=None, held=True)
    address = spectator("release_pages", event)
    response = organizer.post(
        address,
        {
            "pages": ["standings", "tables", "nonsense"],
            "released": "1",
            "back": "https://evil.example/",
        },
    )
    # A "back" elsewhere is refused for the public pages' own page.
    assert response.url == spectator("release", event)
    [message] = messages_html(organizer.get(response.url))
    assert text_of(message) == "Released to the public: table assignments. Undo"
    assert selectors.release_for(event_pk=event.pk) == selectors.Release(
        standings=True, tables=True
    )
    # Nor may it break the redirect's header.
    response = organizer.post(
        address, {"pages": ["tables"], "released": "0", "back": "/x\r\nSet-Cookie: a=b"}
    )
    assert response.status_code == 302 and response.url == spectator("release", event)
    organizer.get(response.url)  # its message read
    response = organizer.post(address, {"pages": ["tables"], "released": "0"}, follow=True)
    assert [text_of(m) for m in messages_html(response)] == [
        "Nothing to change: the public pages are as you asked."
    ]
    judge = official(JUDGE)
    assert judge.post(address, {"pages": ["home"], "released": "1"}).status_code == 403
    assert selectors.release_for(event_pk=event.pk) == selectors.Release(standings=True)


def test_without_the_hold_a_page_switched_off_comes_back_at_the_next_publishing(event, round1):
    """The release page says so; the organizer who wants a page kept off holds the site."""
    organizer = official(ORGANIZER)
    page = organizer.get(spectator("release", event)).content.decode()
    assert "a page you switch off here comes back at the next publishing or posting" in page
    organizer.post(spectator("release", event), {"home": "on"}, follow=True)
    assert not selectors.public_site(event.pk).held
    [message] = messages_html(publish(organizer, event))
    assert text_of(message) == "Round 1's tables are public."
    assert selectors.release_for(event_pk=event.pk) == selectors.Release(home=True, tables=True)


@pytest.fixture
def junior(event):
    event.format = "junior"
    event.preliminary_rounds = 1
    event.save(update_fields=["format", "preliminary_rounds"])
    return event


@pytest.mark.parametrize("held", [False, True], ids=["follows", "held"])
def test_the_hall_names_the_winner_once_posting_decides_it_unless_held(junior, players, held):
    """Championship Rules, JUNIOR: the most net worth in the one game wins: Boot, with 3000."""
    p = players
    round_ = make_round(junior, 1, [[p[alias] for alias in SEAT_ORDER]])
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 1500, p["Dog"]: 1000})
    release_set(event=junior, pages={}, by=None, held=held)
    phone, head_judge = Client(), official(HEAD_JUDGE)
    assert "Winner:" not in phone.get(hall(junior)).content.decode()

    [message] = messages_html(post(head_judge, junior))
    projector = phone.get(hall(junior)).content.decode()
    state = phone.get(reverse("spectator:hall_state", kwargs={"pk": junior.pk})).json()
    winner_page = phone.get(spectator("winner", junior)).content.decode()
    if held:
        assert "public site is held" in text_of(message)
        assert "Winner:" not in projector and state["texts"]["winner"] == ""
        assert NOT_YET in winner_page
    else:
        assert text_of(message) == "Round 1 is posted: its scores are public."
        assert "Winner: Boot" in projector and state["texts"]["winner"] == "Winner: Boot"
        assert NOT_YET not in winner_page and ">Boot<" in winner_page
