"""The results pages: judges' round desk, a table's sheet, corrections, ties, posting,
standings (organizer and public), the final and the CSV exports.

The permission matrix reads the routes from ``scoring.results_urls``, so a page added
there later is checked without anyone remembering to add it here.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import Group, User
from django.urls import URLPattern, reverse

from scoring import results_urls
from scoring.models import ResultLine, RoundPosting, SheetRevision, TableSheet
from scoring.services.posting import round_post
from spectator.services import release_set
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, posted_back, table_of
from tournament.models import Player, Round
from tournament.roles import (
    BANKER,
    HEAD_JUDGE,
    HEAD_JUDGE_PERMISSION,
    JUDGE,
    JUDGE_PERMISSION,
    MANAGE,
    ORGANIZER,
)

ANONYMOUS = "anonymous"
ROLES = [ANONYMOUS, BANKER, JUDGE, HEAD_JUDGE, ORGANIZER]
ALLOWED = {
    ANONYMOUS: set(),
    BANKER: set(),
    JUDGE: {JUDGE_PERMISSION},
    HEAD_JUDGE: {JUDGE_PERMISSION, HEAD_JUDGE_PERMISSION},
    ORGANIZER: {JUDGE_PERMISSION, HEAD_JUDGE_PERMISSION, MANAGE},
}
# Who may do what, as the issue asks: judges read tables, approve and correct; the head
# judge decides ties and posts; the organizer sees standings, seats the final, exports.
EXPECTED = {
    "results_round": JUDGE_PERMISSION,
    "results_table": JUDGE_PERMISSION,
    "results_correct": JUDGE_PERMISSION,
    "results_approve": JUDGE_PERMISSION,
    "results_tie": HEAD_JUDGE_PERMISSION,
    "results_post": HEAD_JUDGE_PERMISSION,
    "results_unpost": HEAD_JUDGE_PERMISSION,
    "standings": MANAGE,
    "standings_tie": HEAD_JUDGE_PERMISSION,
    "standings_tie_breakers": MANAGE,
    "final_seat": MANAGE,
    "results_csv": MANAGE,
    "standings_csv": MANAGE,
}
ROUTES = [
    *[(pattern, "GET") for pattern in results_urls.page_patterns],
    *[(pattern, "POST") for pattern in results_urls.action_patterns],
]
# Real names that must never reach a public page (aliases are the players' tokens).
REAL_NAMES = {
    "Boot": ("Rosalind", "Quimby"),
    "Car": ("Ezekiel", "Marchbanks"),
    "Hat": ("Philippa", "Thorncastle"),
    "Dog": ("Barnaby", "Winterbottom"),
}


def user(role: str) -> User:
    person = User.objects.create_user(f"{role.lower().replace(' ', '-')}-user", password="pw")
    person.groups.add(Group.objects.get(name=role))
    return person


def login(client, role: str):
    if role != ANONYMOUS:
        client.force_login(user(role))
    return client


@pytest.fixture
def players(event) -> dict[str, Player]:
    people = players_with_aliases(event, aliases=list(REAL_NAMES))
    for alias, (first, last) in REAL_NAMES.items():
        Player.objects.filter(pk=people[alias].pk).update(first_name=first, last_name=last)
        people[alias].refresh_from_db()
    return people


@pytest.fixture
def round1(event, players) -> Round:
    """Round 1: one table of four, signed: Boot 3000 (19), Car 2000 (10), Hat 1500 (5),
    Dog 1000 (3)."""
    round_ = make_round(event, 1, [list(players.values())])
    p = players
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 1500, p["Dog"]: 1000})
    return round_


@pytest.fixture
def tied_round(event, players) -> Round:
    """Round 1 with Car and Hat level on everything: the engine leaves them tied."""
    round_ = make_round(event, 1, [list(players.values())])
    p = players
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 2000, p["Hat"]: 2000, p["Dog"]: 1000})
    return round_


def url(name: str, event, **kwargs) -> str:
    return reverse(f"scoring:{name}", kwargs={"pk": event.pk, **kwargs})


def _url_for(pattern: URLPattern, event) -> str:
    converters = pattern.pattern.converters
    kwargs = {}
    if "round_number" in converters:
        kwargs["round_number"] = 1
    if "table_number" in converters:
        kwargs["table_number"] = 1
    return url(pattern.name, event, **kwargs)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


# --- The permission matrix -----------------------------------------------------------------


def test_every_results_route_is_a_page_or_an_action():
    assert results_urls.urlpatterns == [
        *results_urls.page_patterns,
        *results_urls.action_patterns,
    ]


@pytest.mark.parametrize(("pattern", "method"), ROUTES, ids=[p.name for p, _m in ROUTES])
def test_every_results_view_carries_the_permission_it_should(pattern, method):
    assert pattern.callback.required_permission == EXPECTED[pattern.name]


def test_the_matrix_covers_every_route():
    assert {p.name for p, _m in ROUTES} == set(EXPECTED)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("pattern", "method"), ROUTES, ids=[p.name for p, _m in ROUTES])
def test_permission_matrix(client, event, round1, pattern, method, role):
    client = login(client, role)
    target = _url_for(pattern, event)
    response = client.get(target) if method == "GET" else client.post(target, {})

    if role == ANONYMOUS:
        assert response.status_code == 302
        assert response.url.startswith(reverse("login") + "?next=")
    elif EXPECTED[pattern.name] not in ALLOWED[role]:
        assert response.status_code == 403
    elif method == "GET":
        assert response.status_code == 200
    else:
        assert response.status_code == 302
        assert not response.url.startswith(reverse("login"))


@pytest.mark.parametrize("pattern", results_urls.action_patterns, ids=lambda p: p.name)
def test_actions_refuse_get(client, event, round1, pattern):
    client = login(client, ORGANIZER)
    assert client.get(_url_for(pattern, event)).status_code == 405


# --- The judges' round page ---------------------------------------------------------------


def test_round_page_lists_every_table_by_wave_with_its_status(client, event, players):
    p = list(players.values())
    more = players_with_aliases(event, aliases=["Iron", "Ship", "Thimble", "Wheel"])
    round_ = make_round(event, 1, [p, list(more.values())], tables_per_wave=1)
    play(table_of(round_, 1), {p[0]: 3000, p[1]: 2000, p[2]: 1500, p[3]: 1000})
    response = login(client, JUDGE).get(url("results_round", event, round_number=1))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Wave 1" in body and "Wave 2" in body
    assert 'id="table-1" data-status="signed"' in body
    assert 'id="table-2" data-status="entering"' in body
    assert "1 of 2 tables signed or approved" in body
    # A plain judge sees no posting button.
    assert "Post round 1" not in body


def test_round_page_404s_for_an_unknown_round(client, event, round1):
    response = login(client, JUDGE).get(url("results_round", event, round_number=9))
    assert response.status_code == 404


# --- A table's sheet ----------------------------------------------------------------------


def test_table_page_shows_the_sheet_by_player_signatures_and_history(client, event, round1):
    response = login(client, JUDGE).get(url("results_table", event, round_number=1, table_number=1))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Rosalind Quimby" in body  # judges see real names
    assert "$3,000" in body and ">19<" in body
    assert "BNK" in body and "Boo" in body  # the banker's and a player's initials
    assert "Version 1" in body and "Submission" in body
    assert "Approve the sheet" in body


def test_table_page_without_a_sheet(client, event, players):
    make_round(event, 1, [list(players.values())])
    response = login(client, JUDGE).get(url("results_table", event, round_number=1, table_number=1))
    assert response.status_code == 200
    assert "has not started" in response.content.decode()


def test_a_judge_approves_a_signed_sheet(client, event, round1):
    judge = user(JUDGE)
    client.force_login(judge)
    response = client.post(
        url("results_approve", event, round_number=1, table_number=1), follow=True
    )
    assert "sheet approved" in " ".join(messages_of(response))
    sheet = TableSheet.objects.get(table__round=round1)
    assert sheet.status == TableSheet.Status.APPROVED and sheet.approved_by == judge


def test_approving_twice_shows_the_services_refusal(client, event, round1):
    client = login(client, JUDGE)
    target = url("results_approve", event, round_number=1, table_number=1)
    client.post(target)
    response = client.post(target, follow=True)
    assert "Only a sheet signed by its table can be approved." in messages_of(response)


# --- Corrections ----------------------------------------------------------------------------


def _correction_post(client, event, players, **changes) -> dict[str, str]:
    """The correction form as the page fills it in, with ``changes`` applied."""
    response = client.get(url("results_correct", event, round_number=1, table_number=1))
    return {**posted_back(response.context["form"]), **changes}


def test_a_judge_corrects_a_sheet_with_a_reason(client, event, players, round1):
    judge = user(JUDGE)
    client.force_login(judge)
    car = players["Car"]
    data = _correction_post(
        client, event, players, **{f"cash_{car.pk}": "3500", "reason": "Miscounted cash"}
    )
    response = client.post(
        url("results_correct", event, round_number=1, table_number=1), data, follow=True
    )
    assert "correction saved" in " ".join(messages_of(response))
    line = ResultLine.objects.get(player=car)
    assert (line.net_worth, line.place, int(line.points)) == (3500, 1, 19)
    revision = SheetRevision.objects.filter(kind=SheetRevision.Kind.CORRECTION).get()
    assert revision.reason == "Miscounted cash" and revision.by == judge
    # Only the cash changed: the other players' entries and the deeds are untouched.
    assert [(c["key"], c["field"]) for c in revision.changes] == [(str(car.pk), "cash")]
    page = response.content.decode()
    assert "Miscounted cash" in page and "2000 → 3500" in page


def test_an_invalid_correction_shows_the_violations_and_keeps_what_was_typed(
    client, event, players, round1
):
    client = login(client, JUDGE)
    boot = players["Boot"]
    # Boardwalk (39) with a hotel, but Park Place (37) unowned: a building rule is broken.
    data = _correction_post(
        client,
        event,
        players,
        **{"owner_39": str(boot.pk), "buildings_39": "hotel", "reason": "Forgot the deeds"},
    )
    response = client.post(url("results_correct", event, round_number=1, table_number=1), data)
    assert response.status_code == 200
    assert response.context["violations"]
    body = response.content.decode()
    assert "refused this correction" in body
    form = response.context["form"]
    assert form["owner_39"].value() == str(boot.pk) and form["reason"].value() == (
        "Forgot the deeds"
    )
    assert not SheetRevision.objects.filter(kind=SheetRevision.Kind.CORRECTION).exists()


def test_a_correction_needs_a_reason(client, event, players, round1):
    client = login(client, JUDGE)
    car = players["Car"]
    data = _correction_post(client, event, players, **{f"cash_{car.pk}": "3500"})
    data.pop("reason", None)
    response = client.post(url("results_correct", event, round_number=1, table_number=1), data)
    assert response.status_code == 200
    assert response.context["form"].errors["reason"]
    assert ResultLine.objects.get(player=car).net_worth == 2000


def test_a_posted_round_refuses_corrections(client, event, players, round1):
    round_post(round_=round1, by=None)
    client = login(client, JUDGE)
    car = players["Car"]
    data = _correction_post(client, event, players, **{f"cash_{car.pk}": "3500", "reason": "Late"})
    response = client.post(url("results_correct", event, round_number=1, table_number=1), data)
    assert "withdraw the posting" in response.content.decode()
    assert ResultLine.objects.get(player=car).net_worth == 2000


def test_the_correction_page_of_an_unsigned_sheet_offers_no_form(client, event, players):
    make_round(event, 1, [list(players.values())])
    response = login(client, JUDGE).get(
        url("results_correct", event, round_number=1, table_number=1)
    )
    assert response.status_code == 200 and response.context["form"] is None


# --- Ties at a table ------------------------------------------------------------------------


def test_the_head_judge_orders_a_tie(client, event, players, tied_round):
    client = login(client, HEAD_JUDGE)
    car, hat = players["Car"], players["Hat"]
    page = client.get(url("results_table", event, round_number=1, table_number=1))
    assert "Decide the tie" in page.content.decode()
    response = client.post(
        url("results_tie", event, round_number=1, table_number=1),
        {
            "players": f"{car.pk},{hat.pk}",
            "mode": "order",
            "place_1": str(hat.pk),
            "place_2": str(car.pk),
            "reason": "Hat held more deeds",
        },
        follow=True,
    )
    assert "tie decided" in " ".join(messages_of(response))
    assert ResultLine.objects.get(player=hat).place == 2
    assert ResultLine.objects.get(player=car).place == 3


def test_the_head_judge_shares_the_points_of_a_tie(client, event, players, tied_round):
    client = login(client, HEAD_JUDGE)
    car, hat = players["Car"], players["Hat"]
    client.post(
        url("results_tie", event, round_number=1, table_number=1),
        {"players": f"{car.pk},{hat.pk}", "mode": "share", "reason": "Agreed"},
    )
    # Places 2 and 3 of four: (10 + 5) / 2.
    assert str(ResultLine.objects.get(player=car).points) == "7.50"
    assert str(ResultLine.objects.get(player=hat).points) == "7.50"


def test_an_incomplete_tie_order_is_refused(client, event, players, tied_round):
    client = login(client, HEAD_JUDGE)
    car, hat = players["Car"], players["Hat"]
    response = client.post(
        url("results_tie", event, round_number=1, table_number=1),
        {
            "players": f"{car.pk},{hat.pk}",
            "mode": "order",
            "place_1": str(car.pk),
            "place_2": str(car.pk),
            "reason": "x",
        },
        follow=True,
    )
    assert "Give every tied player exactly one place." in messages_of(response)
    assert ResultLine.objects.get(player=car).place == 2  # still the shared place


def test_a_judge_sees_the_tie_but_cannot_decide_it(client, event, tied_round):
    client = login(client, JUDGE)
    page = client.get(url("results_table", event, round_number=1, table_number=1))
    assert "The head judge decides this tie." in page.content.decode()


# --- Posting ---------------------------------------------------------------------------------


def test_the_head_judge_posts_and_withdraws_a_round(client, event, round1):
    client = login(client, HEAD_JUDGE)
    response = client.post(url("results_post", event, round_number=1), follow=True)
    assert "Round 1 is posted" in " ".join(messages_of(response))
    assert RoundPosting.objects.filter(round=round1).exists()
    assert "Withdraw the posting of round 1" in response.content.decode()

    response = client.post(url("results_unpost", event, round_number=1), follow=True)
    assert "no longer posted" in " ".join(messages_of(response))
    assert not RoundPosting.objects.filter(round=round1).exists()


def test_posting_refuses_an_unsettled_round_and_says_why(client, event, tied_round):
    client = login(client, HEAD_JUDGE)
    response = client.post(url("results_post", event, round_number=1), follow=True)
    assert "Table 1: a tie waits for the head judge’s decision." in " ".join(messages_of(response))
    assert not RoundPosting.objects.exists()


def test_posting_refuses_an_unsigned_table(client, event, players):
    make_round(event, 1, [list(players.values())])
    client = login(client, HEAD_JUDGE)
    response = client.post(url("results_post", event, round_number=1), follow=True)
    assert "the score sheet is not signed yet" in " ".join(messages_of(response))


def test_withdrawing_an_unposted_round_is_refused(client, event, round1):
    client = login(client, HEAD_JUDGE)
    response = client.post(url("results_unpost", event, round_number=1), follow=True)
    assert "This round is not posted." in messages_of(response)


# --- Standings ------------------------------------------------------------------------------


def test_organizer_standings_show_names_aliases_and_unposted_results(client, event, round1):
    client = login(client, ORGANIZER)
    response = client.get(url("standings", event))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Rosalind Quimby" in body and "Boot" in body
    assert "includes unposted results" in body and "not posted" in body
    assert "Ranked by points, then games won, then total net worth, then best game" in body
    rows = [(r["row"].rank, r["row"].alias, r["cells"][0]) for r in response.context["rows"]]
    assert rows == [(1, "Boot", "19"), (2, "Car", "10"), (3, "Hat", "5"), (4, "Dog", "3")]

    round_post(round_=round1, by=None)
    body = client.get(url("standings", event)).content.decode()
    assert "includes unposted results" not in body


def _level_round(event, players) -> Round:
    """Two tables of two with identical games: Boot and Hat level on every tie-breaker."""
    p = players
    round_ = make_round(event, 1, [[p["Boot"], p["Car"]], [p["Hat"], p["Dog"]]])
    play(table_of(round_, 1), {p["Boot"]: 3000, p["Car"]: 1000})
    play(table_of(round_, 2), {p["Hat"]: 3000, p["Dog"]: 1000})
    return round_


def test_the_head_judge_decides_a_standings_tie(client, event, players):
    _level_round(event, players)
    client = login(client, ORGANIZER)
    page = client.get(url("standings", event))
    assert "Players level on every tie-breaker" in page.content.decode()
    boot, hat = players["Boot"], players["Hat"]
    response = client.post(
        url("standings_tie", event),
        {
            "players": f"{boot.pk},{hat.pk}",
            "place_1": str(hat.pk),
            "place_2": str(boot.pk),
            "reason": "Coin toss before witnesses",
        },
        follow=True,
    )
    assert "Standings tie decided." in messages_of(response)
    rows = [(r["row"].rank, r["row"].alias, r["row"].tied) for r in response.context["rows"]][:2]
    assert rows == [(1, "Hat", False), (2, "Boot", False)]


def test_a_standings_tie_decision_needs_a_reason(client, event, players):
    _level_round(event, players)
    client = login(client, ORGANIZER)
    boot, hat = players["Boot"], players["Hat"]
    response = client.post(
        url("standings_tie", event),
        {"players": f"{boot.pk},{hat.pk}", "place_1": str(hat.pk), "place_2": str(boot.pk)},
        follow=True,
    )
    assert response.context["rows"][0]["row"].tied
    assert any("required" in m for m in messages_of(response))


def test_the_organizer_orders_the_tie_breakers_on_the_standings_page(client, event):
    # The eight-player example of test_scoring_standings: E and F tie on 41 points; E has
    # two wins (6200 net worth), F one (8000). Wins first: E, F; net worth first: F, E.
    from tests.scoring.test_scoring_standings import play_example

    play_example(event, None)
    client = login(client, ORGANIZER)
    page = client.get(url("standings", event))
    body = page.content.decode()
    assert "The format's default order is in force." in body
    assert [r["row"].alias for r in page.context["rows"]][:2] == ["E", "F"]
    form = page.context["tie_breaker_form"]
    assert [f.value() for f in form.key_fields()] == ["points", "wins", "net_worth", "best_game"]

    order = {"key_1": "points", "key_2": "net_worth", "key_3": "wins", "key_4": "best_game"}
    response = client.post(url("standings_tie_breakers", event), order, follow=True)
    assert "Tie-breaker order saved." in messages_of(response)
    assert [r["row"].alias for r in response.context["rows"]][:2] == ["F", "E"]
    body = response.content.decode()
    assert "Ranked by points, then total net worth, then games won, then best game" in body
    assert "The organizer's order is in force." in body

    twice = {**order, "key_3": "points"}
    response = client.post(url("standings_tie_breakers", event), twice, follow=True)
    assert "Use every tie-breaker exactly once." in messages_of(response)
    assert [r["row"].alias for r in response.context["rows"]][:2] == ["F", "E"]

    response = client.post(url("standings_tie_breakers", event), {"default": "1"}, follow=True)
    assert [r["row"].alias for r in response.context["rows"]][:2] == ["E", "F"]
    event.refresh_from_db()
    assert event.tie_breakers == []


# --- The final ------------------------------------------------------------------------------


def test_seating_the_final_is_refused_until_rounds_are_posted(client, event, round1):
    client = login(client, ORGANIZER)
    response = client.post(url("final_seat", event), follow=True)
    assert "Post every preliminary round before seating the final." in messages_of(response)
    assert not Round.objects.filter(kind=Round.Kind.FINAL).exists()


def test_the_organizer_seats_the_final_and_sees_its_table(client, event, players, round1):
    round_post(round_=round1, by=None)
    event.advancing = 4
    event.save(update_fields=["advancing"])
    client = login(client, ORGANIZER)
    response = client.post(url("final_seat", event), follow=True)
    assert "The final is seated as round 2." in messages_of(response)
    body = response.content.decode()
    assert 'id="final-table-1"' in body and "Rosalind Quimby" in body
    assert "Seat the final" not in body
    assert reverse("tournament:seating_change", kwargs={"pk": event.pk, "round_number": 2}) in body
    final = Round.objects.get(kind=Round.Kind.FINAL)
    assert final.tables.get().seats.count() == 4


# --- CSV ------------------------------------------------------------------------------------


def _csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_results_csv_download(client, event, round1):
    response = login(client, ORGANIZER).get(url("results_csv", event, round_number=1))
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith("attachment;")
    rows = _csv_rows(response)
    assert rows[0][:3] == ["Stage", "Table", "Alias"]
    assert rows[1] == ["preliminary", "1", "Boot", "no", "3000", "0", "1", "19"]


def test_standings_csv_download_all_and_posted(client, event, round1):
    client = login(client, ORGANIZER)
    response = client.get(url("standings_csv", event))
    assert response["Content-Disposition"].startswith("attachment;")
    assert _csv_rows(response)[1] == ["1", "Boot", "1", "19", "1", "3000", "3000", "0"]
    posted = _csv_rows(client.get(url("standings_csv", event) + "?posted=1"))
    assert len(posted) == 1  # only the header until round 1 is posted


def test_a_tie_breaker_has_one_name_on_every_page_and_in_the_csv(client, event, round1):
    """The public page said "Wins" where the organizer's said "games won" (issue #19)."""
    round_post(round_=round1, by=None)
    release_set(event=event, pages={"standings": True}, by=None)
    client = login(client, ORGANIZER)
    organizer = client.get(url("standings", event))
    public = client.get(reverse("spectator:standings", kwargs={"pk": event.pk}))
    header = _csv_rows(client.get(url("standings_csv", event)))[0]
    form = organizer.context["tie_breaker_form"]
    assert str(dict(form.fields["key_1"].choices)["wins"]) == "games won"
    assert "Ranked by points, then games won, then" in organizer.content.decode()
    assert '<th scope="col" class="num">Games won</th>' in organizer.content.decode()
    assert '<th scope="col" class="num key-wins">Games won</th>' in public.content.decode()
    assert "Ranked by points, games won, total net worth, best game." in public.content.decode()
    assert header[3:] == [
        "Points",
        "Games won",
        "Total net worth",
        "Best game",
        "Unmortgaged property value",
    ]


def test_club_standings_page_explains_the_knockout_and_offers_only_club_keys(client, event):
    event.format = "club"
    event.save()
    client = login(client, ORGANIZER)
    response = client.get(url("standings", event))
    body = response.content.decode()
    # 000: a knockout, from a bracket confirmed on the seating page
    # (tests/tournament/test_knockout_pages.py).
    assert "No bracket is confirmed yet." in body
    assert "The top 4 players of the posted standings advance." not in body
    form = response.context["tie_breaker_form"]
    assert [f.value() for f in form.key_fields()] == ["net_worth", "wins", "best_game"]


def test_the_standings_page_seats_a_semifinal_when_the_final_would_not_fit(client, event):
    event.advancing = 12
    event.table_size_min, event.table_size_max = 4, 5
    event.save()
    players = players_with_aliases(event, aliases="ABCDEFGHIJKLMNO")
    aliases = ["ABCDE", "FGHIJ", "KLMNO"]
    round_ = make_round(event, 1, [[players[a] for a in group] for group in aliases])
    for index, group in enumerate(aliases, start=1):
        play(table_of(round_, index), {players[a]: 5000 - 1000 * i for i, a in enumerate(group)})
    round_post(round_=round_, by=None)
    client = login(client, ORGANIZER)
    response = client.post(url("final_seat", event), follow=True)
    assert "The semifinal is seated as round 2." in messages_of(response)
    body = response.content.decode()
    assert "The semifinal is round 2." in body and 'id="semifinal-table-3"' in body
    response = client.post(url("final_seat", event), follow=True)
    assert "Post the semifinal before seating the final." in messages_of(response)
