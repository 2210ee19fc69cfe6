"""The organizer's pages through real URLs: the player list, alternates, check-in, logging in."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from players.selectors import player_search
from tests.players.organizer_pages import (
    alternate_positions,
    messages_of,
    register,
)
from tests.url_names import qualified
from tournament.models import Event, Player
from tournament.organizer_forms import EVENT_FIELDSETS
from tournament.services import EVENT_FIELDS, event_create

# --- Player list ---------------------------------------------------------------------


def test_player_list_shows_aliases_and_alternates_in_order(org_client, small_event, full_house):
    alternate_move_url = reverse(
        "players:alternate_move", kwargs={"pk": small_event.pk, "player_pk": full_house[4].pk}
    )
    org_client.post(alternate_move_url, {"direction": "up"})
    response = org_client.get(reverse("players:player_list", kwargs={"pk": small_event.pk}))
    assert response.status_code == 200
    roster = response.context["roster"]
    assert [p.alias for p in roster.seated] == ["Lucky Thimble", "Golden Top Hat"]
    assert [p.alias for p in roster.alternates] == ["Swift Boot", "Quiet Iron", "Brave Cat"]
    body = response.content.decode()
    alternates = body[body.index('id="alternates"') :]
    assert alternates.index("Swift Boot") < alternates.index("Quiet Iron")
    assert alternates.index("Quiet Iron") < alternates.index("Brave Cat")
    assert "Lovelace" in body
    for name in ("player_add", "player_import", "player_export", "check_in", "register"):
        assert reverse(qualified(name), kwargs={"pk": small_event.pk}) in body


def test_player_list_flags_travel_and_guardian(org_client, db):
    club = event_create(
        name="Club Night",
        organization="Club",
        venue="Hall",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(18, 0),
        format="club",
    )
    register(
        club,
        "Kid",
        "Young",
        born=datetime.date(2018, 1, 1),
        guardian_name="Pat Young",
        guardian_consent=True,
        family="The Youngs",
    )
    register(
        club,
        "Teen",
        "Ager",
        born=datetime.date(2013, 1, 1),
        guardian_name="",
        guardian_consent=False,
    )
    body = org_client.get(reverse("players:player_list", kwargs={"pk": club.pk})).content
    body = body.decode()
    assert "guardian: Pat Young" in body
    assert body.count("travel rules") == 2
    assert "The Youngs" in body
    assert ">12<" in body and ">17<" in body


def test_alternate_moves_up_and_down(org_client, small_event, full_house):
    grace = full_house[2]
    url = reverse("players:alternate_move", kwargs={"pk": small_event.pk, "player_pk": grace.pk})
    org_client.post(url, {"direction": "down"})
    assert alternate_positions(small_event) == [
        ("Brave Cat", 1),
        ("Swift Boot", 2),
        ("Quiet Iron", 3),
    ]
    org_client.post(url, {"direction": "up"})
    assert alternate_positions(small_event)[0] == ("Swift Boot", 1)


def test_alias_edit(org_client, small_event, full_house):
    ada = full_house[0]
    url = reverse("players:player_alias", kwargs={"pk": small_event.pk, "player_pk": ada.pk})
    response = org_client.post(url, {"alias": "  Racing Car  "})
    assert response.status_code == 302
    ada.refresh_from_db()
    assert ada.alias == "Racing Car"


def test_alias_clash_shows_the_error_and_keeps_the_typed_alias(org_client, small_event, full_house):
    ada = full_house[0]
    url = reverse("players:player_alias", kwargs={"pk": small_event.pk, "player_pk": ada.pk})
    response = org_client.post(url, {"alias": "golden top hat"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Another player at this event already has this alias." in body
    assert 'value="golden top hat"' in body
    ada.refresh_from_db()
    assert ada.alias == "Lucky Thimble"


def test_no_show_seats_alternate_one_and_moves_the_others_up(org_client, small_event, full_house):
    ada = full_house[0]
    # No-shows only from the start; this event started yesterday.
    Event.objects.filter(pk=small_event.pk).update(
        date=datetime.date.today() - datetime.timedelta(1)
    )
    url = reverse("players:player_no_show", kwargs={"pk": small_event.pk, "player_pk": ada.pk})
    response = org_client.post(url)
    assert response.status_code == 302
    assert response.url == reverse("players:player_list", kwargs={"pk": small_event.pk})
    ada.refresh_from_db()
    grace = Player.objects.get(alias="Swift Boot")
    assert ada.status == Player.Status.NO_SHOW
    assert ada.status_changed_by.username == "olive"
    assert (grace.status, grace.alternate_position, grace.replaces) == ("player", None, ada)
    assert alternate_positions(small_event) == [("Brave Cat", 1), ("Quiet Iron", 2)]
    assert any("Swift Boot" in m and "takes the seat" in m for m in messages_of(response))
    # The no-show is listed among those out.
    page = org_client.get(response.url)
    assert [p.alias for p in page.context["roster"].out] == ["Lucky Thimble"]


def test_service_refusal_is_a_message_not_a_server_error(org_client, small_event, full_house):
    alternate = full_house[3]
    url = reverse(
        "players:player_no_show", kwargs={"pk": small_event.pk, "player_pk": alternate.pk}
    )
    response = org_client.post(url, follow=True)
    assert response.status_code == 200
    assert "Only a seated player can be marked as a no-show." in response.content.decode()


def test_eject_needs_a_reason(org_client, small_event, full_house):
    alan = full_house[1]
    url = reverse("players:player_eject", kwargs={"pk": small_event.pk, "player_pk": alan.pk})
    response = org_client.post(url, {"reason": "   "})
    assert response.status_code == 200
    assert "Give the reason for the ejection." in response.content.decode()
    alan.refresh_from_db()
    assert alan.status == Player.Status.PLAYER

    response = org_client.post(url, {"reason": "Hid money under the board."})
    assert response.status_code == 302
    alan.refresh_from_db()
    assert (alan.status, alan.status_reason) == ("ejected", "Hid money under the board.")
    page = org_client.get(reverse("players:player_list", kwargs={"pk": small_event.pk}))
    assert "Hid money under the board." in page.content.decode()


def test_withdraw_an_alternate_closes_the_gap(org_client, small_event, full_house):
    grace = full_house[2]
    url = reverse("players:player_withdraw", kwargs={"pk": small_event.pk, "player_pk": grace.pk})
    org_client.post(url, {"reason": "Feeling unwell"})
    grace.refresh_from_db()
    assert (grace.status, grace.status_reason) == ("withdrawn", "Feeling unwell")
    assert alternate_positions(small_event) == [("Brave Cat", 1), ("Quiet Iron", 2)]


def test_fill_an_empty_seat_from_the_alternates(org_client, small_event, full_house):
    alan = full_house[1]
    org_client.post(
        reverse("players:player_eject", kwargs={"pk": small_event.pk, "player_pk": alan.pk}),
        {"reason": "Cheating"},
    )
    page = org_client.get(reverse("players:player_list", kwargs={"pk": small_event.pk}))
    assert page.context["roster"].empty_seats == 1
    assert "Fill a seat from the alternates" in page.content.decode()
    response = org_client.post(
        reverse("players:alternate_fill_seat", kwargs={"pk": small_event.pk})
    )
    assert response.status_code == 302
    assert Player.objects.get(alias="Swift Boot").status == Player.Status.PLAYER
    assert alternate_positions(small_event) == [("Brave Cat", 1), ("Quiet Iron", 2)]


def test_actions_refuse_get(org_client, small_event, full_house):
    url = reverse(
        "players:player_no_show", kwargs={"pk": small_event.pk, "player_pk": full_house[0].pk}
    )
    assert org_client.get(url).status_code == 405


def test_another_events_player_is_not_found(org_client, event, small_event, full_house):
    url = reverse("players:player_no_show", kwargs={"pk": event.pk, "player_pk": full_house[0].pk})
    assert org_client.post(url).status_code == 404


def test_next_must_stay_on_the_site(org_client, small_event, full_house):
    url = reverse(
        "players:player_no_show", kwargs={"pk": small_event.pk, "player_pk": full_house[0].pk}
    )
    response = org_client.post(url, {"next": "https://evil.example/"})
    assert response.url == reverse("players:player_list", kwargs={"pk": small_event.pk})


# --- Check-in ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("golden", ["Golden Top Hat"]),
        ("  LUCKY thimble ", ["Lucky Thimble"]),
        ("lovelace", ["Lucky Thimble"]),
        ("GRACE", ["Swift Boot"]),
        ("ada love", ["Lucky Thimble"]),
        ("nobody", []),
    ],
)
def test_player_search(small_event, full_house, query, expected):
    assert [p.alias for p in player_search(event=small_event, query=query)] == expected


def test_empty_search_lists_everyone_still_in_the_event(small_event, full_house):
    full_house[4].status = Player.Status.WITHDRAWN
    full_house[4].save()
    found = [p.alias for p in player_search(event=small_event, query="  ")]
    assert found == ["Lucky Thimble", "Golden Top Hat", "Swift Boot", "Brave Cat"]


def test_check_in_page_searches(judge_client, small_event, full_house):
    url = reverse("players:check_in", kwargs={"pk": small_event.pk})
    response = judge_client.get(url, {"q": "turing"})
    assert response.status_code == 200
    assert [p.alias for p in response.context["players"]] == ["Golden Top Hat"]
    body = response.content.decode()
    assert "<html" in body
    assert 'hx-trigger="input changed delay:200ms' in body


def test_check_in_search_partial_for_htmx(judge_client, small_event, full_house):
    url = reverse("players:check_in", kwargs={"pk": small_event.pk})
    response = judge_client.get(url, {"q": "hopper"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert "Swift Boot" in body and "Lucky Thimble" not in body


def test_check_in_and_undo_without_javascript(judge_client, small_event, full_house):
    ada = full_house[0]
    kwargs = {"pk": small_event.pk, "player_pk": ada.pk}
    desk = reverse("players:check_in", kwargs={"pk": small_event.pk}) + "?q=ada"
    response = judge_client.post(reverse("players:player_check_in", kwargs=kwargs), {"next": desk})
    assert response.status_code == 302 and response.url == desk
    ada.refresh_from_db()
    assert ada.checked_in_at is not None
    page = judge_client.get(desk)
    assert page.context["counts"].players_checked_in == 1
    assert "Lucky Thimble checked in." in page.content.decode()

    judge_client.post(reverse("players:player_undo_check_in", kwargs=kwargs), {"next": desk})
    ada.refresh_from_db()
    assert ada.checked_in_at is None


def test_check_in_with_htmx_returns_the_row_and_counters(judge_client, small_event, full_house):
    ada = full_house[0]
    url = reverse("players:player_check_in", kwargs={"pk": small_event.pk, "player_pk": ada.pk})
    response = judge_client.post(url, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert f'id="check-in-{ada.pk}"' in body
    assert "Undo" in body
    assert 'hx-swap-oob="true"' in body and "1 / 2" in body


def test_check_in_refused_for_someone_out_shows_the_reason(judge_client, small_event, full_house):
    ada = full_house[0]
    ada.status = Player.Status.WITHDRAWN
    ada.save()
    url = reverse("players:player_check_in", kwargs={"pk": small_event.pk, "player_pk": ada.pk})
    response = judge_client.post(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "cannot check in" in response.content.decode()


# --- Logging in and out --------------------------------------------------------------


def test_login_page_and_logout(client, organizer):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()
    response = client.post(reverse("login"), {"username": "olive", "password": "pw"})
    assert response.url == reverse("tournament:signed_in")
    response = client.get(response.url)
    assert response.url == reverse("cockpit:events_home")
    page = client.get(response.url).content.decode()
    assert f'action="{reverse("logout")}"' in page and 'method="post"' in page
    assert client.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_the_event_form_shows_every_field_the_services_accept():
    """A field missing from the fieldsets would be required yet never rendered."""

    shown = [name for _legend, names in EVENT_FIELDSETS for name in names]
    assert sorted(shown) == sorted(EVENT_FIELDS)
