"""The club knockout's pages: the bracket planner on the seating page, its confirmation,
round 1, the minimum's override, the warning on the event page and the next round.

The planner's numbers are read off the page and compared with the structures worked out by
hand in tests/knockout/test_bracket.py from the kit (Tournament Kit, "THE DAY OF THE
TOURNAMENT"):
"if you start with 216 people, your first round will be 36 tables of six people each and
your second round six tables of six players each".
"""

from __future__ import annotations

import datetime
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone

from tests.builders import an_event, players_with_aliases
from tests.url_names import qualified
from tournament.models import Event, Player, Round, Table
from tournament.roles import ORGANIZER


class PlanReader(HTMLParser):
    """Each plan on the page: its heading, and the cells of every row of its round table."""

    def __init__(self) -> None:
        super().__init__()
        self.plans: list[dict] = []
        self._in_h3 = self._in_table = self._in_cell = False
        self._row: list[str] = []

    def handle_starttag(self, tag, attrs):
        classes = dict(attrs).get("class", "") or ""
        if tag == "h3":
            self.plans.append({"title": "", "rows": []})
            self._in_h3 = True
        elif tag == "table" and "bracket-rounds" in classes:
            self._in_table = True
        elif self._in_table and tag == "tr":
            self._row = []
        elif self._in_table and tag in ("td", "th"):
            self._in_cell = True
            self._row.append("")

    def handle_endtag(self, tag):
        if tag == "h3":
            self._in_h3 = False
        elif tag == "table":
            self._in_table = False
        elif self._in_table and tag in ("td", "th"):
            self._in_cell = False
        elif self._in_table and tag == "tr" and self._row and self._row[0] != "Round":
            self.plans[-1]["rows"].append(tuple(self._row))

    def handle_data(self, data):
        text = " ".join(data.split())
        if self._in_h3:
            self.plans[-1]["title"] = (self.plans[-1]["title"] + " " + text).strip()
        elif self._in_cell and text:
            self._row[-1] = (self._row[-1] + " " + text).strip()


def plans_on(html: str) -> dict[str, list[tuple[str, ...]]]:
    reader = PlanReader()
    reader.feed(html)
    return {plan["title"]: plan["rows"] for plan in reader.plans if plan["rows"]}


TABLE_WINNERS = "Table winners go through"
HIGHEST = "The six highest asset totals go to the final"
WINNERS_THEN_ASSETS = "Table winners, then the six highest asset totals"


@pytest.fixture
def organizer(db) -> User:
    user = User.objects.create_user("olive", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    return user


@pytest.fixture
def org_client(client, organizer):
    client.force_login(organizer)
    return client


@pytest.fixture
def club(db) -> Event:
    return an_event(
        name="Charity Night",
        fmt="club",
        organization="Harbour Club",
        venue="Pier Hall",
        date=datetime.date(2031, 6, 7),
        expected_players=300,
    )


def arrive(event: Event, count: int, *, first: int = 1, checked_in: bool = True) -> None:
    """``count`` players First<n> Last<n>, aliases P<nnn> from number ``first``."""
    players_with_aliases(
        event,
        aliases=[f"P{n:03d}" for n in range(first, first + count)],
        start=first,
        checked_in=checked_in,
        first_name="First{n}",
        last_name="Last{n}",
    )


def text(response) -> str:
    """The page's HTML with every run of white space made one space."""
    return " ".join(response.content.decode().split())


def planner(client, event: Event) -> str:
    return text(client.get(reverse("knockout:knockout_bracket", kwargs={"pk": event.pk})))


def seating(client, event: Event) -> str:
    return text(client.get(reverse("seating:seating", kwargs={"pk": event.pk})))


def post(client, name: str, event: Event, data=None):
    return client.post(reverse(qualified(name), kwargs={"pk": event.pk}), data or {}, follow=True)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# --- The planner, for the fields worked out by hand in tests/knockout/test_bracket.py ------


def test_24_players_six_tables_of_four_then_the_final(org_client, club):
    arrive(club, 24)
    plans = plans_on(planner(org_client, club))
    assert plans[TABLE_WINNERS] == [
        ("Round 1", "24", "6 tables of 4", "6 table winners to the final"),
        ("Final", "6", "1 table of 6", "the winner"),
    ]
    assert plans[HIGHEST][0] == (
        "Round 1",
        "24",
        "6 tables of 4",
        "the 6 highest asset totals to the final",
    )
    # A 15-minute briefing, one round of 90 and 15 to re-seat, the final of 90: 210 minutes.
    assert "about 3 h 30 min" in planner(org_client, club)


def test_216_players_the_kits_own_example(org_client, club):
    # Tournament Kit: "36 tables of six people each and your second round six tables of six
    # players".
    arrive(club, 216)
    page = planner(org_client, club)
    assert plans_on(page)[TABLE_WINNERS] == [
        ("Round 1", "216", "36 tables of 6", "36 table winners"),
        ("Round 2", "36", "6 tables of 6", "6 table winners to the final"),
        ("Final", "6", "1 table of 6", "the winner"),
    ]
    # 15 + 2 x (90 + 15) + 90 = 315 minutes.
    assert "about 5 h 15 min" in page
    # Tournament Kit: "a minimum of three and a maximum of five players": a club's tables are 3 to
    # 5, and the page says why this plan seats six (three rounds at tables of 3 to 5).
    assert "tables of 3 to 5" in page
    assert (
        "At tables of 3 to 5 the bracket needs 3 preliminary rounds; tables of six save a round"
        in page
    )


def test_219_players_are_told_216_fit_the_kits_two_round_plan(org_client, club):
    # Tournament Kit: "if you start with 216 people ... 36 tables of six ... six tables of six"; and
    # "You can allow people to play only if there is room or if they can gather a new table
    # of people". 219 at tables of up to six need three rounds; 216 need two.
    arrive(club, 219)
    page = planner(org_client, club)
    assert (
        "216 players fit a bracket of 2 preliminary rounds; the 3 players more here make it 3."
        in page
    )
    assert "only if there is room or if they can gather a new table of people" in page
    arrive(club, 4, first=220)
    assert "216 players fit a bracket" not in planner(org_client, club)


def test_100_players_25_tables_of_four_then_six_tables(org_client, club):
    arrive(club, 100)
    assert plans_on(planner(org_client, club))[TABLE_WINNERS] == [
        ("Round 1", "100", "25 tables of 4", "25 table winners"),
        ("Round 2", "25", "5 tables of 4, 1 table of 5", "6 table winners to the final"),
        ("Final", "6", "1 table of 6", "the winner"),
    ]


@pytest.mark.parametrize(
    ("players", "tables"),
    [(50, "10 tables of 4, 2 tables of 5"), (37, "8 tables of 4, 1 table of 5")],
)
def test_fields_no_knockout_fits_get_the_kits_other_choices(org_client, club, players, tables):
    # From 37 to 53 no bracket ends in exactly six table winners (tests/knockout/test_bracket.py).
    arrive(club, players)
    page = planner(org_client, club)
    plans = plans_on(page)
    assert TABLE_WINNERS not in plans
    assert plans[HIGHEST][0] == (
        "Round 1",
        str(players),
        tables,
        "the 6 highest asset totals to the final",
    )
    assert f"{players} players cannot reach exactly six table winners" in page
    assert "a knockout of table winners fits 36 or 54 players." in page
    # And the kit's way out after a round of table winners: round 1's winners play round
    # 2, whose six highest asset totals play the final (tests/knockout/test_bracket.py).
    rows = plans[WINNERS_THEN_ASSETS]
    assert rows[0] == ("Round 1", str(players), tables, f"{players // 4} table winners")
    assert rows[1][0] == "Round 2" and rows[1][3] == "the 6 highest asset totals to the final"
    assert rows[2] == ("Final", "6", "1 table of 6", "the winner")


def test_the_planner_follows_the_check_in_desk(org_client, club):
    arrive(club, 24)
    arrive(club, 6, first=25, checked_in=False)
    page = seating(org_client, club)
    # The seating page refreshes the planner by itself while people arrive.
    bracket_url = reverse("knockout:knockout_bracket", kwargs={"pk": club.pk})
    assert f'hx-get="{bracket_url}"' in page and 'hx-trigger="every 15s"' in page
    assert plans_on(page)[TABLE_WINNERS][0][1:3] == ("24", "6 tables of 4")
    Player.objects.filter(event=club, checked_in_at=None).update(checked_in_at=timezone.now())
    assert plans_on(planner(org_client, club))[TABLE_WINNERS][0][1:3] == ("30", "6 tables of 5")


# --- Confirming, seating round 1, and the minimum -------------------------------------------


def test_confirm_then_seat_round_1_and_confirm_again_when_more_arrive(org_client, club, organizer):
    arrive(club, 24)
    response = post(org_client, "knockout_seat", club)
    assert messages_of(response) == ["Confirm a bracket before seating round 1."]
    response = post(org_client, "knockout_confirm", club, {"method": "table_winners"})
    assert "Bracket confirmed for 24 players. Next: seat round 1." in messages_of(response)
    club.refresh_from_db()
    assert (club.knockout_method, club.bracket_confirmed_by) == ("table_winners", organizer)
    page = text(response)
    assert "Confirmed for 24 players by olive" in page
    assert "It matches the players checked in now." in page

    response = post(org_client, "knockout_seat", club)
    assert "Round 1 is seated at 6 tables. Next: publish it, then start it." in messages_of(
        response
    )
    assert sorted(t.seats.count() for t in Table.objects.filter(round__event=club)) == [4] * 6
    assert "Seat round 1 again" in text(response)

    # The other method with the same tables for round 1 keeps round 1 as it is seated.
    post(org_client, "knockout_confirm", club, {"method": "highest_assets"})
    assert Table.objects.filter(round__event=club).count() == 6
    # Two more arrive: the plan for 24 is stale, and seating says so plainly.
    arrive(club, 2, first=25)
    assert "26 are checked in now: confirm a plan for them below" in planner(org_client, club)
    response = post(org_client, "knockout_seat", club)
    assert messages_of(response) == [
        "The confirmed bracket is for 24 players, but 26 are checked in now. Confirm the "
        "bracket again for the players who are here."
    ]
    post(org_client, "knockout_confirm", club, {"method": "table_winners"})
    # The round 1 seated for 24 is cleared with the old plan: 26 sit at 4+4+4+4+5+5.
    assert not Round.objects.filter(event=club).exists()
    post(org_client, "knockout_seat", club)
    sizes = sorted(t.seats.count() for t in Table.objects.filter(round__event=club))
    assert sizes == [4, 4, 4, 4, 5, 5]


def test_below_the_minimum_seating_needs_a_recorded_reason(org_client, club, organizer):
    arrive(club, 20)
    player_list = org_client.get(reverse("players:player_list", kwargs={"pk": club.pk}))
    # Tournament Kit: "You must have a minimum of 24 players".
    assert "Only 20 players are registered: a Club / charity event needs at least 24." in (
        text(player_list)
    )
    post(org_client, "knockout_confirm", club, {"method": "table_winners"})
    page = seating(org_client, club)
    assert "You must have a minimum of 24 players.” 20 players are checked in." in page
    response = post(org_client, "knockout_seat", club)
    assert messages_of(response) == [
        "The kit requires a minimum of 24 players; 20 are checked in. Record your reason to "
        "play with fewer first."
    ]
    response = post(org_client, "knockout_override", club, {"reason": "  "})
    assert messages_of(response) == ["Give the reason to play with fewer players."]
    response = post(org_client, "knockout_override", club, {"reason": "A club night"})
    assert "A club night" in text(response)
    club.refresh_from_db()
    assert (club.minimum_override_reason, club.minimum_override_by) == ("A club night", organizer)
    response = post(org_client, "knockout_seat", club)
    assert "Round 1 is seated at 6 tables." in messages_of(response)[-1]
    # The plan's 4+4+3+3+3+3, not the engine's own five tables of four.
    sizes = sorted(t.seats.count() for t in Table.objects.filter(round__event=club))
    assert sizes == [3, 3, 3, 3, 4, 4]
    post(org_client, "knockout_override_withdraw", club)
    club.refresh_from_db()
    assert club.minimum_override_at is None and club.minimum_override_reason == ""


def test_a_championship_seating_page_has_no_planner(org_client, event):
    page = seating(org_client, event)
    assert "Pre-seat all rounds" in page and "Bracket planner" not in page
