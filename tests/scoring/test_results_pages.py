"""The results pages: judges' round desk, a table's sheet, corrections, ties and posting.

The standings, the final and the CSV exports are in test_standings_pages.py. The
permission matrix reads the routes from ``scoring.results_urls``, so a page added there
later is checked without anyone remembering to add it here.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import results_urls
from scoring.models import ResultLine, RoundPosting, SheetRevision, TableSheet
from scoring.results_views import _tied_choices
from scoring.services.posting import round_post
from tests.builders import players_with_aliases
from tests.scoring import results_pages
from tests.scoring.results_pages import (
    ALLOWED,
    ANONYMOUS,
    EXPECTED,
    ROLES,
    ROUTES,
    login,
    messages_of,
    url,
    url_for_pattern,
    user,
)
from tests.scoring.scoring_helpers import make_round, play, posted_back, table_of
from tournament.models import Player
from tournament.roles import (
    HEAD_JUDGE,
    JUDGE,
    ORGANIZER,
)

# The shared fixtures (results_pages.py), bound here so that pytest finds them.
players = results_pages.players
round1 = results_pages.round1
signed_round1 = results_pages.signed_round1
tied_round = results_pages.tied_round


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
    target = url_for_pattern(pattern, event)
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
    assert client.get(url_for_pattern(pattern, event)).status_code == 405


# --- The judges' round page ---------------------------------------------------------------


def test_round_page_lists_every_table_by_wave_with_its_status(client, event, players):
    p = list(players.values())
    more = players_with_aliases(event, aliases=["Iron", "Ship", "Thimble", "Wheel"])
    round_ = make_round(event, 1, [p, list(more.values())], tables_per_wave=1)
    play(table_of(round_, 1), {p[0]: 3000, p[1]: 2000, p[2]: 1500, p[3]: 1000}, approve=False)
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


def test_table_page_shows_the_sheet_by_player_signatures_and_history(client, event, signed_round1):
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


def test_a_judge_approves_a_signed_sheet(client, event, signed_round1):
    judge = user(JUDGE)
    client.force_login(judge)
    response = client.post(
        url("results_approve", event, round_number=1, table_number=1), follow=True
    )
    assert "sheet approved" in " ".join(messages_of(response))
    sheet = TableSheet.objects.get(table__round=signed_round1)
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
    (message,) = [m for m in messages_of(response) if "two places" in m]
    assert "Car" in message and "Hat" not in message
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


def test_a_tables_tied_players_are_offered_by_alias_whatever_their_ids():
    """A tie is keyed by its ids sorted as text, where "10" comes before "9": the head
    judge's lists still read Boot, Car, Hat."""
    seated = {"9": Player(alias="Boot"), "10": Player(alias="Car"), "11": Player(alias="hat")}
    choices = _tied_choices(tie=("10", "11", "9"), seated=seated)
    assert choices == [("9", "Boot"), ("10", "Car"), ("11", "hat")]
