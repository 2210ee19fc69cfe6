"""The organizer's pages through real URLs, forms and templates: events and the dashboard."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from tests.players.organizer_pages import (
    TYPED,
    browser_data,
)
from tournament.models import Event
from tournament.organizer_forms import EVENT_FIELDSETS
from tournament.services import EVENT_FIELDS

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
                # Tournament Kit: "a minimum of three and a maximum of five players" (its example's
                # "36 tables of six" is the bracket planner's, where six save a round).
                "table_size_min": 3,
                "table_size_max": 5,
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
    assert response.url == reverse("players:player_list", kwargs={"pk": event.pk})
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
    """The Tournament Kit's forms end "Please return to:"; the organizer names who, under its own
    heading, and city and state are fields of their own (the kit's Event Registration Form)."""
    url = reverse("tournament:event_edit", kwargs={"pk": event.pk})
    page = org_client.get(url)
    body = page.content.decode()
    legend = body.index("<legend>Where the signed forms go</legend>")
    fieldset_end = body.index("</fieldset>", legend)
    for name in ("forms_return_name", "forms_return_address"):
        assert legend < body.index(f'name="{name}"') < fieldset_end, name
    # A fax is rarely given: under "More settings".
    assert body.index('class="more-settings"') < body.index('name="forms_return_fax"')
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


def test_dashboard_offers_each_format_and_opens_each_event_on_its_cockpit(org_client, full_house):
    response = org_client.get(reverse("cockpit:events_home"))
    assert response.status_code == 200
    (row,) = response.context["days"].upcoming
    body = response.content.decode()
    assert reverse("cockpit:cockpit", kwargs={"pk": row.event.pk}) in body
    for key in ("championship", "club", "junior"):
        assert f"{reverse('tournament:event_create')}?format={key}" in body
    assert "Ages 8 to 15 (16 and over play the senior championship), one game" in body


def _visible_labels(body: str) -> str:
    """The page without its "More settings" fold and hidden inputs."""
    start = body.find('<details class="more-settings"')
    return body[:start] if start >= 0 else body


@pytest.mark.parametrize(
    ("format_key", "asked", "not_asked"),
    [
        # A knockout's rounds come from its bracket, its final seats six (Tournament Kit).
        ("club", ["Minutes per round", "Charity"], ["Preliminary rounds", "Players advancing"]),
        # One game, one winner (Championship Rules, junior).
        ("junior", ["Minutes per round"], ["Preliminary rounds", "Players advancing"]),
        ("championship", ["Preliminary rounds", "Minutes per round"], ["Charity"]),
    ],
)
def test_the_event_form_asks_what_its_format_needs(org_client, format_key, asked, not_asked):
    body = org_client.get(reverse("tournament:event_create") + f"?format={format_key}")
    body = body.content.decode()
    shown = _visible_labels(body)
    labels = re.findall(r"<label[^>]*>([^<]*)", shown)
    for label in asked:
        assert any(label.lower() in text.lower() for text in labels), label
    for label in not_asked:
        assert not any(label.lower() in text.lower() for text in labels), label
    # Rarely changed: under the fold, not gone.
    more = body[body.index('<details class="more-settings"') :]
    assert 'name="contact_fax"' in more and 'name="contact_fax"' not in shown


def test_a_setting_under_more_with_an_error_opens_the_fold(org_client):
    response, _data = create_through_form(org_client, "?format=club", minimum_age="-3")
    body = response.content.decode()
    assert '<details class="more-settings" open>' in body
