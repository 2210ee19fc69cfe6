"""What the public sees of a game is the format's (tournament.formats.POSTS_*).

Championship Rules, POSTING SCORES: "Point scores (not net worth) will be posted at the end of each
round": a championship's public pages show places and points and never a net worth figure, though
its standings may still be ordered by one. A junior event posts net worth (Championship Rules,
JUNIOR: the most assets wins); a club names each table's winner (Tournament Kit). Officials keep net
worth.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from scoring.services.posting import round_post
from spectator import following, selectors
from spectator.services import release_set
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tests.spectator.final_day import EVERYTHING, play_to_the_final
from tests.spectator.test_crawl import _links
from tournament.roles import ORGANIZER

# Net worths no date, time, seat or points total on these pages could spell by chance.
ROUND_1 = {"A": 7919, "B": 6481, "C": 5333, "D": 4127, "E": 8363, "F": 3571, "G": 2953, "H": 1789}
FINAL = {"E": 9127, "A": 4409, "B": 3217, "F": 2141}


def _played_championship(event):
    # Winners on 19 points (E above A on total net worth), then the seconds on 10 (B above F).
    return play_to_the_final(event, round_1=ROUND_1, final=FINAL, post_final=True)[0]


def _figures(text: str) -> set[str]:
    figures = {str(n) for n in [*ROUND_1.values(), *FINAL.values()]}
    # Plain or grouped (7,919 / 7.919 / 7 919) and as a sum (E: 8363 + ...) are all caught
    # by looking for each figure's digits with any one separator; a figure inside a longer
    # run of letters or digits (a token, an id) is not one.
    return {
        f
        for f in figures
        if re.search(rf"(?<![0-9A-Za-z]){f[0]}[,. \u202f\u00a0]?{f[1:]}(?![0-9A-Za-z])", text)
    }


class _Shown(HTMLParser):
    """What a reader of the page is told: its text outside scripts and styles, and the
    attributes a browser shows or reads out (not tokens, nonces, links or form values)."""

    SHOWN_ATTRIBUTES = ("title", "alt", "aria-label", "aria-description", "placeholder")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs) -> None:
        if tag in ("script", "style", "template"):
            self._hidden += 1
        self.parts += [value for name, value in attrs if name in self.SHOWN_ATTRIBUTES and value]

    def handle_endtag(self, tag) -> None:
        if tag in ("script", "style", "template") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data) -> None:
        if not self._hidden:
            self.parts.append(data)


def _shown_text(markup: str) -> str:
    parser = _Shown()
    parser.feed(markup)
    parser.close()
    return " ".join(parser.parts)


def _json_text(value) -> str:
    """Every value a JSON answer holds (not its keys), HTML fragments read as shown."""
    if isinstance(value, dict):
        return " ".join(_json_text(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_json_text(v) for v in value)
    if isinstance(value, str):
        return _shown_text(value) if "<" in value else value
    return str(value)


def _public_text(response) -> str:
    body = response.content.decode()
    if "json" in response.get("Content-Type", ""):
        return _json_text(json.loads(body))
    return _shown_text(body)


@pytest.mark.django_db
def test_no_net_worth_figure_on_any_public_page_of_a_championship(client, event):
    _played_championship(event)
    pk = event.pk
    queue = [reverse("spectator:event_home", kwargs={"pk": pk})]
    for number in (1, 2):
        for name in ("tables", "results", "tables_live", "results_live"):
            queue.append(reverse(f"spectator:{name}", kwargs={"pk": pk, "number": number}))
    for name in ("standings", "final", "winner", "follow", "home_live", "standings_live"):
        queue.append(reverse(f"spectator:{name}", kwargs={"pk": pk}))
    for name in ("final_live", "winner_live", "follow_live"):
        queue.append(reverse(f"spectator:{name}", kwargs={"pk": pk}))
    release = selectors.release_for(event_pk=pk)
    for alias in following.followable_aliases(event_pk=pk, release=release):
        for name in ("follow", "follow_live"):
            url = reverse(f"spectator:{name}", kwargs={"pk": pk})
            queue.append(f"{url}?{urlencode({'alias': alias})}")
    queue += [
        reverse("spectator:hall_display", kwargs={"pk": pk}),
        reverse("spectator:hall_state", kwargs={"pk": pk}),
    ]
    seen: set[str] = set()
    while queue:
        path = queue.pop(0)
        if path in seen or path.startswith(("/organizer/", "/bank/")):
            continue
        seen.add(path)
        response = client.get(path)
        assert response.status_code == 200, path
        text = response.content.decode()
        # The figures are looked for only where a reader meets them: random tokens in the
        # markup (CSRF, nonces, keyed links) could spell one by chance.
        assert _figures(_public_text(response)) == set(), path
        # No column of them either (the standings may still say they order ties).
        assert "key-net_worth" not in text and "key-best_game" not in text, path
        assert ">Net worth<" not in text and "Net worth:" not in text, path
        if "html" in response.get("Content-Type", ""):
            queue.extend(_links(path, text))
    assert len(seen) > 25
    # The pages did show the game: places and points, and who won.
    results = client.get(reverse("spectator:results", kwargs={"pk": pk, "number": 1}))
    assert ">19<" in results.content.decode() and ">10<" in results.content.decode()
    winner = client.get(reverse("spectator:winner", kwargs={"pk": pk})).content.decode()
    assert ">E<" in winner
    state = json.loads(client.get(reverse("spectator:hall_state", kwargs={"pk": pk})).content)
    assert state["texts"]["winner"] == "Winner: E"


@pytest.mark.django_db
def test_officials_and_exports_keep_net_worth(client, event):
    _played_championship(event)
    organizer = User.objects.create_user("olive", password="pw")
    organizer.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(organizer)
    standings = client.get(reverse("scoring:standings", kwargs={"pk": event.pk}))
    assert {"7919", "8363"} <= _figures(standings.content.decode())
    csv = client.get(reverse("scoring:results_csv", kwargs={"pk": event.pk, "round_number": 1}))
    assert _figures(csv.content.decode()) == {str(n) for n in ROUND_1.values()}


@pytest.mark.django_db
def test_a_junior_event_posts_net_worth(client, event):
    event.format = "junior"
    event.save(update_fields=["format"])
    p = players_with_aliases(event, aliases=["A", "B", "C", "D"])
    round_ = make_round(event, 1, [list(p.values())])
    play(table_of(round_, 1), {p["A"]: 2345, p["B"]: 1987, p["C"]: 1234, p["D"]: 987})
    round_post(round_=round_, by=None)
    release_set(event=event, pages=EVERYTHING, by=None)
    results = client.get(reverse("spectator:results", kwargs={"pk": event.pk, "number": 1}))
    body = results.content.decode()
    assert "Net worth" in body and ">$2,345<" in body and "Points" not in body
    standings = client.get(reverse("spectator:standings", kwargs={"pk": event.pk}))
    body = standings.content.decode()
    assert "key-net_worth" in body and "key-unmortgaged" in body and ">$2,345<" in body


@pytest.mark.django_db
def test_a_club_event_posts_its_table_winners(client, event):
    event.format = "club"
    event.save(update_fields=["format"])
    p = players_with_aliases(event, aliases=list("ABCDEFGH"))
    round_ = make_round(event, 1, [[p[a] for a in "ABCD"], [p[a] for a in "EFGH"]])
    play(table_of(round_, 1), {p["A"]: 2345, p["B"]: 1987, p["C"]: 1234, p["D"]: 987})
    play(table_of(round_, 2), {p["E"]: 876, p["F"]: 3456, p["G"]: 765, p["H"]: 654})
    round_post(round_=round_, by=None)
    release_set(event=event, pages=EVERYTHING, by=None)
    body = client.get(reverse("spectator:results", kwargs={"pk": event.pk, "number": 1}))
    body = body.content.decode()
    assert body.count("table winner") == 2 and "Net worth" not in body and "2345" not in body
    winners = client.get(reverse("spectator:standings", kwargs={"pk": event.pk}))
    winners = winners.content.decode()
    # Table 1: A (2345 is the most there); table 2: F (3456).
    assert re.search(r">1</td><th[^>]*>A</th>", winners)
    assert re.search(r">2</td><th[^>]*>F</th>", winners)
    assert "3456" not in winners
    follow = client.get(reverse("spectator:follow", kwargs={"pk": event.pk}), {"alias": "F"})
    assert "Won their table in these rounds." in follow.content.decode()
