"""The organizer's pages, driven through real URLs, forms and templates."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.contrib.messages import get_messages
from django.forms import CheckboxInput, Select
from django.urls import reverse

from tournament.models import Event, Player
from tournament.organizer_forms import EVENT_FIELDSETS
from tournament.roles import JUDGE, ORGANIZER
from tournament.selectors import player_search
from tournament.services import EVENT_FIELDS, Registration, event_create, player_register

TYPED = {
    "name": "Harbour Cup",
    "organization": "Boardwalk Club",
    "venue": "Pier Hall",
    "date": "2030-06-01",
    "start_time": "10:00",
}


def _user(username: str, group: str) -> User:
    user = User.objects.create_user(username, password="pw")
    user.groups.add(Group.objects.get(name=group))
    return user


@pytest.fixture
def organizer(db) -> User:
    return _user("olive", ORGANIZER)


@pytest.fixture
def org_client(client, organizer):
    client.force_login(organizer)
    return client


@pytest.fixture
def judge_client(client, db):
    client.force_login(_user("jules", JUDGE))
    return client


def register(
    event: Event,
    first: str,
    last: str,
    *,
    alias: str = "",
    born: datetime.date = datetime.date(1990, 5, 1),
    **extra,
) -> Player:
    return player_register(
        event=event,
        registration=Registration(
            first_name=first,
            last_name=last,
            date_of_birth=born,
            signature=f"{first} {last}",
            eligibility_declared=True,
            citizenship_declared=True,
            alias=alias,
            **extra,
        ),
        source=Player.Source.ON_THE_DAY,
    )


@pytest.fixture
def small_event(db) -> Event:
    """Two seats, so the third registrant onward waits as an alternate."""
    return event_create(
        name="Small Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
        expected_players=2,
    )


@pytest.fixture
def full_house(small_event):
    """Two seated players and three alternates, in registration order."""
    names = [
        ("Ada", "Lovelace", "Lucky Thimble"),
        ("Alan", "Turing", "Golden Top Hat"),
        ("Grace", "Hopper", "Swift Boot"),
        ("Edsger", "Dijkstra", "Brave Cat"),
        ("Barbara", "Liskov", "Quiet Iron"),
    ]
    return [register(small_event, first, last, alias=alias) for first, last, alias in names]


def browser_data(response) -> dict[str, str]:
    """What a browser would submit for the form as rendered: every shown value as a string."""
    data = {}
    for bound in response.context["form"]:
        if bound.field.disabled:
            continue  # browsers do not submit disabled inputs
        value = bound.value()
        if isinstance(bound.field.widget, CheckboxInput):
            if value:
                data[bound.html_name] = "on"
            continue
        if isinstance(bound.field.widget, Select):
            data[bound.html_name] = "" if value is None else str(value)
            continue
        formatted = bound.field.widget.format_value(value)
        data[bound.html_name] = "" if formatted is None else str(formatted)
    return data


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def alternate_positions(event: Event) -> list[tuple[str, int]]:
    return list(
        Player.objects.filter(event=event, status=Player.Status.ALTERNATE)
        .order_by("alternate_position")
        .values_list("alias", "alternate_position")
    )


# --- Creating and editing events -----------------------------------------------------


def create_through_form(client, query: str, **overrides) -> tuple:
    url = reverse("tournament:event_create") + query
    page = client.get(url)
    assert page.status_code == 200
    data = {**browser_data(page), **TYPED, **overrides}
    return client.post(url, data), data


@pytest.mark.parametrize(
    ("format_key", "expected"),
    [
        (
            "championship",
            {
                "preliminary_rounds": 3,
                "advancing": 4,
                "minimum_age": 16,
                "table_size_min": 4,
                "table_size_max": 5,
                "citizenship_declaration": True,
                "round_minutes": 90,
            },
        ),
        (
            "club",
            {
                "preliminary_rounds": 2,
                "advancing": 6,
                "minimum_age": 8,
                # 000: "a minimum of three ... players", and "36 tables of six" in its example.
                "table_size_min": 3,
                "table_size_max": 6,
                "citizenship_declaration": False,
            },
        ),
        ("junior", {"preliminary_rounds": 1, "maximum_age": 15, "minimum_age": 8}),
    ],
)
def test_each_format_created_through_the_form_gets_its_defaults(org_client, format_key, expected):
    response, _ = create_through_form(org_client, f"?format={format_key}")
    event = Event.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("tournament:player_list", kwargs={"pk": event.pk})
    assert event.format == format_key
    assert {field: getattr(event, field) for field in expected} == expected
    assert event.name == "Harbour Cup"
    # Left blank, pre-registration closes three days before the start.
    assert event.registration_closes.date() == datetime.date(2030, 5, 29)


def test_the_form_shows_the_formats_defaults(org_client):
    response = org_client.get(reverse("tournament:event_create") + "?format=club")
    form = response.context["form"]
    assert form["preliminary_rounds"].value() == 2
    assert form["advancing"].value() == 6
    assert form["format"].value() == "club"
    body = response.content.decode()
    assert 'type="date"' in body and 'type="time"' in body and 'type="datetime-local"' in body
    for legend in ("The event", "Contact &amp; charity", "Format &amp; play", "Registration"):
        assert legend in body


def test_an_override_typed_by_the_organizer_sticks(org_client):
    create_through_form(org_client, "?format=club", preliminary_rounds="3")
    event = Event.objects.get()
    assert (event.format, event.preliminary_rounds, event.advancing) == ("club", 3, 6)


def test_international_play_on_create_gives_longer_rounds(org_client):
    create_through_form(org_client, "?format=club", international="on")
    event = Event.objects.get()
    assert (event.international, event.round_minutes) == (True, 120)


def test_international_link_prefills_the_longer_rounds(org_client):
    response = org_client.get(reverse("tournament:event_create") + "?format=junior&international=1")
    assert response.context["form"]["round_minutes"].value() == 120
    assert response.context["form"]["international"].value() is True


def test_a_typed_round_length_beats_the_international_default(org_client):
    create_through_form(org_client, "?format=club", international="on", round_minutes="100")
    assert Event.objects.get().round_minutes == 100


def test_unknown_format_falls_back_to_championship(org_client):
    response, _ = create_through_form(org_client, "?format=speed-chess")
    assert response.status_code == 302
    event = Event.objects.get()
    assert (event.format, event.preliminary_rounds) == ("championship", 3)


def test_posted_format_cannot_override_the_chosen_one(org_client):
    create_through_form(org_client, "?format=junior", format="championship")
    assert Event.objects.get().format == "junior"


def test_invalid_event_rerenders_with_messages_and_typed_values(org_client):
    response, _ = create_through_form(
        org_client,
        "?format=junior",
        name="Typed Name Kept",
        table_size_min="6",
        table_size_max="5",
        minimum_age="12",
        maximum_age="10",
        charity="Dog Shelter",
    )
    assert response.status_code == 200
    assert not Event.objects.exists()
    form = response.context["form"]
    assert form.errors["table_size_min"] == [
        "The smallest table cannot be larger than the largest."
    ]
    assert form.errors["maximum_age"] == ["The maximum age is below the minimum age."]
    body = response.content.decode()
    assert "The smallest table cannot be larger than the largest." in body
    assert "The maximum age is below the minimum age." in body
    for typed in ('value="Typed Name Kept"', 'value="Dog Shelter"', 'value="6"', 'value="10"'):
        assert typed in body


def test_missing_required_fields_are_reported_by_the_form(org_client):
    response, _ = create_through_form(org_client, "?format=club", name="", date="")
    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"name", "date"}


def test_edit_changes_the_event_and_keeps_the_organizers_round_length(org_client, event):
    url = reverse("tournament:event_edit", kwargs={"pk": event.pk})
    page = org_client.get(url)
    assert page.status_code == 200
    data = {**browser_data(page), "preliminary_rounds": "4", "international": "on"}
    response = org_client.post(url, data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.preliminary_rounds, event.international, event.round_minutes) == (4, True, 90)
    assert event.name == "Spring Championship"


def test_the_forms_return_address_is_set_on_the_event_form(org_client, event):
    """000's forms end "Please return to:"; the organizer names who, under its own heading,
    and city and state are fields of their own (the kit's Event Registration Form)."""
    url = reverse("tournament:event_edit", kwargs={"pk": event.pk})
    page = org_client.get(url)
    body = page.content.decode()
    legend = body.index("<legend>Where the signed forms go</legend>")
    fieldset_end = body.index("</fieldset>", legend)
    for name in ("forms_return_name", "forms_return_address", "forms_return_fax"):
        assert legend < body.index(f'name="{name}"') < fieldset_end, name
    assert "<textarea" in body[legend:fieldset_end]  # an address has several lines
    assert "left empty, they print without it" in body
    data = {
        **browser_data(page),
        "city": "Atlantic City",
        "state": "NJ",
        "postal_code": "08401",
        "forms_return_name": "Regional Games Federation",
        "forms_return_address": "12 Marvin Gardens\r\nAtlantic City, NJ 08401",
        "forms_return_fax": "609-555-0142",
    }
    assert org_client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert (event.city, event.state, event.postal_code) == ("Atlantic City", "NJ", "08401")
    assert event.forms_return_address.splitlines() == [
        "12 Marvin Gardens",
        "Atlantic City, NJ 08401",
    ]
    assert (event.forms_return_name, event.forms_return_fax) == (
        "Regional Games Federation",
        "609-555-0142",
    )


def test_edit_with_invalid_values_keeps_the_saved_event(org_client, event):
    url = reverse("tournament:event_edit", kwargs={"pk": event.pk})
    data = {**browser_data(org_client.get(url)), "name": "Renamed", "table_size_min": "9"}
    response = org_client.post(url, data)
    assert response.status_code == 200
    assert "table_size_min" in response.context["form"].errors
    assert 'value="Renamed"' in response.content.decode()
    event.refresh_from_db()
    assert (event.name, event.table_size_min) == ("Spring Championship", 4)


def test_event_form_groups_every_event_field_once():
    grouped = [name for _legend, names in EVENT_FIELDSETS for name in names]
    assert sorted(grouped) == sorted(EVENT_FIELDS)


# --- Dashboard -----------------------------------------------------------------------


def test_dashboard_counts_and_offers_each_format(org_client, full_house):
    full_house[0].checked_in_at = datetime.datetime(2030, 4, 20, 9, tzinfo=datetime.UTC)
    full_house[0].save()
    response = org_client.get(reverse("tournament:organizer_dashboard"))
    assert response.status_code == 200
    (row,) = response.context["events"]
    assert (row.player_count, row.alternate_count, row.checked_in_count) == (2, 3, 1)
    body = response.content.decode()
    for key in ("championship", "club", "junior"):
        assert f"{reverse('tournament:event_create')}?format={key}" in body
    assert "Ages 8 to 15 (16 and over play the senior championship), one game" in body


# --- Player list ---------------------------------------------------------------------


def test_player_list_shows_aliases_and_alternates_in_order(org_client, small_event, full_house):
    alternate_move_url = reverse(
        "tournament:alternate_move", kwargs={"pk": small_event.pk, "player_pk": full_house[4].pk}
    )
    org_client.post(alternate_move_url, {"direction": "up"})
    response = org_client.get(reverse("tournament:player_list", kwargs={"pk": small_event.pk}))
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
        assert reverse(f"tournament:{name}", kwargs={"pk": small_event.pk}) in body


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
    body = org_client.get(reverse("tournament:player_list", kwargs={"pk": club.pk})).content
    body = body.decode()
    assert "guardian: Pat Young" in body
    assert body.count("travel rules") == 2
    assert "The Youngs" in body
    assert ">12<" in body and ">17<" in body


def test_alternate_moves_up_and_down(org_client, small_event, full_house):
    grace = full_house[2]
    url = reverse("tournament:alternate_move", kwargs={"pk": small_event.pk, "player_pk": grace.pk})
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
    url = reverse("tournament:player_alias", kwargs={"pk": small_event.pk, "player_pk": ada.pk})
    response = org_client.post(url, {"alias": "  Racing Car  "})
    assert response.status_code == 302
    ada.refresh_from_db()
    assert ada.alias == "Racing Car"


def test_alias_clash_shows_the_error_and_keeps_the_typed_alias(org_client, small_event, full_house):
    ada = full_house[0]
    url = reverse("tournament:player_alias", kwargs={"pk": small_event.pk, "player_pk": ada.pk})
    response = org_client.post(url, {"alias": "golden top hat"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Another player at this event already has this alias." in body
    assert 'value="golden top hat"' in body
    ada.refresh_from_db()
    assert ada.alias == "Lucky Thimble"


def test_no_show_seats_alternate_one_and_moves_the_others_up(org_client, small_event, full_house):
    ada = full_house[0]
    # Issue 15: no-shows only from the start; this event started yesterday.
    Event.objects.filter(pk=small_event.pk).update(
        date=datetime.date.today() - datetime.timedelta(1)
    )
    url = reverse("tournament:player_no_show", kwargs={"pk": small_event.pk, "player_pk": ada.pk})
    response = org_client.post(url)
    assert response.status_code == 302
    assert response.url == reverse("tournament:player_list", kwargs={"pk": small_event.pk})
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
        "tournament:player_no_show", kwargs={"pk": small_event.pk, "player_pk": alternate.pk}
    )
    response = org_client.post(url, follow=True)
    assert response.status_code == 200
    assert "Only a seated player can be marked as a no-show." in response.content.decode()


def test_eject_needs_a_reason(org_client, small_event, full_house):
    alan = full_house[1]
    url = reverse("tournament:player_eject", kwargs={"pk": small_event.pk, "player_pk": alan.pk})
    response = org_client.post(url, {"reason": "   "})
    assert response.status_code == 200
    assert "Give the reason for the ejection." in response.content.decode()
    alan.refresh_from_db()
    assert alan.status == Player.Status.PLAYER

    response = org_client.post(url, {"reason": "Hid money under the board."})
    assert response.status_code == 302
    alan.refresh_from_db()
    assert (alan.status, alan.status_reason) == ("ejected", "Hid money under the board.")
    page = org_client.get(reverse("tournament:player_list", kwargs={"pk": small_event.pk}))
    assert "Hid money under the board." in page.content.decode()


def test_withdraw_an_alternate_closes_the_gap(org_client, small_event, full_house):
    grace = full_house[2]
    url = reverse(
        "tournament:player_withdraw", kwargs={"pk": small_event.pk, "player_pk": grace.pk}
    )
    org_client.post(url, {"reason": "Feeling unwell"})
    grace.refresh_from_db()
    assert (grace.status, grace.status_reason) == ("withdrawn", "Feeling unwell")
    assert alternate_positions(small_event) == [("Brave Cat", 1), ("Quiet Iron", 2)]


def test_fill_an_empty_seat_from_the_alternates(org_client, small_event, full_house):
    alan = full_house[1]
    org_client.post(
        reverse("tournament:player_eject", kwargs={"pk": small_event.pk, "player_pk": alan.pk}),
        {"reason": "Cheating"},
    )
    page = org_client.get(reverse("tournament:player_list", kwargs={"pk": small_event.pk}))
    assert page.context["roster"].empty_seats == 1
    assert "Fill a seat from the alternates" in page.content.decode()
    response = org_client.post(
        reverse("tournament:alternate_fill_seat", kwargs={"pk": small_event.pk})
    )
    assert response.status_code == 302
    assert Player.objects.get(alias="Swift Boot").status == Player.Status.PLAYER
    assert alternate_positions(small_event) == [("Brave Cat", 1), ("Quiet Iron", 2)]


def test_actions_refuse_get(org_client, small_event, full_house):
    url = reverse(
        "tournament:player_no_show", kwargs={"pk": small_event.pk, "player_pk": full_house[0].pk}
    )
    assert org_client.get(url).status_code == 405


def test_another_events_player_is_not_found(org_client, event, small_event, full_house):
    url = reverse(
        "tournament:player_no_show", kwargs={"pk": event.pk, "player_pk": full_house[0].pk}
    )
    assert org_client.post(url).status_code == 404


def test_next_must_stay_on_the_site(org_client, small_event, full_house):
    url = reverse(
        "tournament:player_no_show", kwargs={"pk": small_event.pk, "player_pk": full_house[0].pk}
    )
    response = org_client.post(url, {"next": "https://evil.example/"})
    assert response.url == reverse("tournament:player_list", kwargs={"pk": small_event.pk})


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
    url = reverse("tournament:check_in", kwargs={"pk": small_event.pk})
    response = judge_client.get(url, {"q": "turing"})
    assert response.status_code == 200
    assert [p.alias for p in response.context["players"]] == ["Golden Top Hat"]
    body = response.content.decode()
    assert "<html" in body
    assert 'hx-trigger="input changed delay:200ms' in body


def test_check_in_search_partial_for_htmx(judge_client, small_event, full_house):
    url = reverse("tournament:check_in", kwargs={"pk": small_event.pk})
    response = judge_client.get(url, {"q": "hopper"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert "Swift Boot" in body and "Lucky Thimble" not in body


def test_check_in_and_undo_without_javascript(judge_client, small_event, full_house):
    ada = full_house[0]
    kwargs = {"pk": small_event.pk, "player_pk": ada.pk}
    desk = reverse("tournament:check_in", kwargs={"pk": small_event.pk}) + "?q=ada"
    response = judge_client.post(
        reverse("tournament:player_check_in", kwargs=kwargs), {"next": desk}
    )
    assert response.status_code == 302 and response.url == desk
    ada.refresh_from_db()
    assert ada.checked_in_at is not None
    page = judge_client.get(desk)
    assert page.context["counts"].players_checked_in == 1
    assert "Lucky Thimble checked in." in page.content.decode()

    judge_client.post(reverse("tournament:player_undo_check_in", kwargs=kwargs), {"next": desk})
    ada.refresh_from_db()
    assert ada.checked_in_at is None


def test_check_in_with_htmx_returns_the_row_and_counters(judge_client, small_event, full_house):
    ada = full_house[0]
    url = reverse("tournament:player_check_in", kwargs={"pk": small_event.pk, "player_pk": ada.pk})
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
    url = reverse("tournament:player_check_in", kwargs={"pk": small_event.pk, "player_pk": ada.pk})
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
    assert response.url == reverse("tournament:organizer_dashboard")
    page = client.get(response.url).content.decode()
    assert f'action="{reverse("logout")}"' in page and 'method="post"' in page
    assert client.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_the_event_form_shows_every_field_the_services_accept():
    """A field missing from the fieldsets would be required yet never rendered."""
    from tournament.organizer_forms import EVENT_FIELDSETS
    from tournament.services import EVENT_FIELDS

    shown = [name for _legend, names in EVENT_FIELDSETS for name in names]
    assert sorted(shown) == sorted(EVENT_FIELDS)
