"""The results pages: standings (organizer and public), the final and the CSV exports."""

from __future__ import annotations

import csv
import io

from django.test import Client
from django.urls import reverse

from scoring.services.posting import round_post
from spectator.services import release_set
from tests.builders import players_with_aliases
from tests.scoring import results_pages
from tests.scoring.results_pages import login, messages_of, url
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Round
from tournament.roles import HEAD_JUDGE, ORGANIZER

# The shared fixtures (results_pages.py), bound here so that pytest finds them.
players = results_pages.players
round1 = results_pages.round1


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


def test_the_head_judge_opens_the_standings_to_decide_a_tie_and_sees_only_their_controls(
    client, event, players
):
    """The ties the tie-breakers leave are the head judge's (README, "Who does what"), and
    they are decided on the standings page: it opens for them, without the organizer's
    controls (the tie-breaker order, seating the final, the CSV files, the seating page)."""
    _level_round(event, players)
    organizer_only = [
        url("standings_tie_breakers", event),
        url("final_seat", event),
        url("standings_csv", event),
        reverse("seating:seating", kwargs={"pk": event.pk}),
    ]
    organizer = login(Client(), ORGANIZER).get(url("standings", event)).content.decode()
    assert all(f'"{address}' in organizer for address in organizer_only)

    client = login(client, HEAD_JUDGE)
    page = client.get(url("standings", event))
    assert page.status_code == 200
    body = page.content.decode()
    assert f'action="{url("standings_tie", event)}"' in body
    assert [address for address in organizer_only if f'"{address}' in body] == []
    assert "The organizer does this." in body  # beside the final, which they cannot seat

    boot, hat = players["Boot"], players["Hat"]
    response = client.post(
        url("standings_tie", event),
        {
            "players": f"{boot.pk},{hat.pk}",
            "place_1": str(boot.pk),
            "place_2": str(hat.pk),
            "reason": "Coin toss before witnesses",
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == url("standings", event)
    assert "Standings tie decided." in messages_of(response)


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
    # Points come first (Championship Rules: "Point scores (not net worth)"); the rest is the
    # organizer's.
    assert [f.value() for f in form.key_fields()] == ["wins", "net_worth", "best_game"]

    order = {"key_2": "net_worth", "key_3": "wins", "key_4": "best_game"}
    response = client.post(url("standings_tie_breakers", event), order, follow=True)
    assert "Tie-breaker order saved." in messages_of(response)
    assert [r["row"].alias for r in response.context["rows"]][:2] == ["F", "E"]
    body = response.content.decode()
    assert "Ranked by points, then total net worth, then games won, then best game" in body
    assert "The organizer's order is in force." in body

    twice = {**order, "key_3": "net_worth"}
    response = client.post(url("standings_tie_breakers", event), twice, follow=True)
    assert "Use each tie-breaker at most once." in messages_of(response)
    assert [r["row"].alias for r in response.context["rows"]][:2] == ["F", "E"]

    response = client.post(url("standings_tie_breakers", event), {"default": "1"}, follow=True)
    assert [r["row"].alias for r in response.context["rows"]][:2] == ["E", "F"]
    event.refresh_from_db()
    assert event.tie_breakers == []

    # None after points: "the head judge decides ties at the cut"; E and F are tied.
    none = {"key_2": "", "key_3": "", "key_4": ""}
    response = client.post(url("standings_tie_breakers", event), none, follow=True)
    assert "Tie-breaker order saved." in messages_of(response)
    assert [r["row"].tied for r in response.context["rows"]][:2] == [True, True]
    event.refresh_from_db()
    assert event.tie_breakers == ["points"]


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
    # Posting round 1 released the final page (the site is not held): it shows the table.
    assert "The final is seated as round 2: the public final page shows it." in messages_of(
        response
    )
    body = response.content.decode()
    assert 'id="final-table-1"' in body and "Rosalind Quimby" in body
    assert "Seat the final" not in body
    assert reverse("seating:seating_change", kwargs={"pk": event.pk, "round_number": 2}) in body
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
    """The public page said "Wins" where the organizer's said "games won"."""
    round_post(round_=round1, by=None)
    release_set(event=event, pages={"standings": True}, by=None)
    client = login(client, ORGANIZER)
    organizer = client.get(url("standings", event))
    public = client.get(reverse("spectator:standings", kwargs={"pk": event.pk}))
    header = _csv_rows(client.get(url("standings_csv", event)))[0]
    form = organizer.context["tie_breaker_form"]
    assert str(dict(form.fields["key_2"].choices)["wins"]) == "games won"
    assert "Ranked by points, then games won, then" in organizer.content.decode()
    assert '<th scope="col" class="num">Games won</th>' in organizer.content.decode()
    assert '<th scope="col" class="num key-wins">Games won</th>' in public.content.decode()
    assert (
        "Ranked by points, games won, total net worth, best game, then the head judge."
        in public.content.decode()
    )
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
    # Tournament Kit: a knockout, from a bracket confirmed on the seating page
    # (tests/knockout/test_knockout_pages.py).
    assert "No bracket is confirmed yet." in body
    assert "The top 4 players of the posted standings advance." not in body
    form = response.context["tie_breaker_form"]
    # Total net worth first (Tournament Kit: "by highest total assets"); the organizer orders the
    # rest.
    assert form.first_label == "total net worth"
    assert [f.value() for f in form.key_fields()] == ["wins", "best_game"]


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
    assert "The semifinal is seated as round 2: the public final page shows it." in messages_of(
        response
    )
    body = response.content.decode()
    assert "The semifinal is round 2." in body and 'id="semifinal-table-3"' in body
    response = client.post(url("final_seat", event), follow=True)
    assert "Post the semifinal before seating the final." in messages_of(response)
