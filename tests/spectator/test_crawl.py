"""Crawl every public page of the demo event: no registered name, email, telephone, address
or date of birth anywhere in the HTML, and every page answers 200.

Works whether the demo is only registered and pre-seated or played through to a seated
final: whatever rounds exist are published, every page is released, and then the crawl
follows every same-site link (and htmx poll URL) from the event home, plus every spectator
URL for every round and every followable alias.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlencode, urljoin, urlparse

import pytest
from django.urls import reverse
from django.utils.formats import date_format

from spectator import following, selectors
from spectator.services import release_set
from tests.demo_rows import load_demo_rows
from tournament.models import Player, Round, Seat

SKIP_PREFIXES = ("/static/", "/admin/", "/accounts/", "/i18n/")


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        for name, value in attrs:
            if name in ("href", "hx-get") and value:
                self.found.append(value)


def _links(base: str, html: str) -> list[str]:
    parser = Links()
    parser.feed(html)
    out = []
    for link in parser.found:
        absolute = urldefrag(urljoin(base, link)).url
        parsed = urlparse(absolute)
        if parsed.scheme in ("", "http", "https") and parsed.netloc in ("", "testserver"):
            path = parsed.path + (f"?{parsed.query}" if parsed.query else "")
            if not path.startswith(SKIP_PREFIXES):
                out.append(path)
    return out


def _secrets(event) -> tuple[list[str], list[re.Pattern]]:
    """What a template could print of each registration: full names in the usual orders,
    email, telephone, street address and postal code, date of birth in several formats;
    and each last name as a whole word (unless an alias or the event's own text has it)."""
    strings: list[str] = []
    words: list[re.Pattern] = []
    public_text = " ".join(
        [
            event.name,
            event.venue,
            event.organization,
            *Player.objects.values_list("alias", flat=True),
        ]
    )
    fields = ("first_name", "last_name", "email", "telephone", "address", "postal_code")
    for person in Player.objects.filter(event=event).values(*fields, "date_of_birth"):
        first, last = person["first_name"], person["last_name"]
        strings += [f"{first} {last}", f"{last}, {first}", f"{last} {first}"]
        strings += [
            person[f] for f in ("email", "telephone", "address", "postal_code") if person[f]
        ]
        dob = person["date_of_birth"]
        strings += [
            dob.isoformat(),
            date_format(dob, "DATE_FORMAT"),
            date_format(dob, "SHORT_DATE_FORMAT"),
            dob.strftime("%d/%m/%Y"),
            dob.strftime("%m/%d/%Y"),
            dob.strftime("%d.%m.%Y"),
        ]
        if not re.search(rf"\b{re.escape(last)}\b", public_text):
            words.append(re.compile(rf"\b{re.escape(last)}\b"))
    return strings, words


@pytest.mark.django_db
def test_every_public_page_of_the_demo_is_200_and_shows_no_registration_data(client):
    event = load_demo_rows()
    assert event is not None
    Round.objects.filter(event=event, pk__in=Seat.objects.values("round")).update(
        assignments_published=True
    )
    release_set(
        event=event,
        pages=dict.fromkeys(("home", "tables", "results", "standings", "final", "winner"), True),
        by=None,
    )
    pk = event.pk
    start = reverse("spectator:event_home", kwargs={"pk": pk})
    queue = [start]
    for number in Round.objects.filter(event=event).values_list("number", flat=True):
        for name in ("tables", "results", "tables_live", "results_live"):
            queue.append(reverse(f"spectator:{name}", kwargs={"pk": pk, "number": number}))
    for name in ("standings", "final", "winner", "follow", "home_live"):
        queue.append(reverse(f"spectator:{name}", kwargs={"pk": pk}))
    for name in ("standings_live", "final_live", "winner_live", "follow_live"):
        queue.append(reverse(f"spectator:{name}", kwargs={"pk": pk}))
    aliases = following.followable_aliases(event_pk=pk, release=selectors.release_for(event_pk=pk))
    assert aliases, "the demo's published rounds give aliases to follow"
    for alias in aliases:
        queue.append(
            reverse("spectator:follow", kwargs={"pk": pk}) + "?" + urlencode({"alias": alias})
        )

    strings, words = _secrets(event)
    seen: set[str] = set()
    while queue:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path)
        assert response.status_code == 200, path
        if "html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        for secret in strings:
            assert secret not in html, (path, secret)
        for word in words:
            assert not word.search(html), (path, word.pattern)
        queue.extend(link for link in _links(path, html) if link not in seen)
    # The crawl reached the pages the links lead to, not only the ones listed above.
    assert reverse("spectator:hall_display", kwargs={"pk": pk}) in seen
    assert len(seen) > len(aliases) + 10
