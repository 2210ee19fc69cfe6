"""Self-registration and on-the-day entry, exercised through the HTTP form."""

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import throttle
from tests.url_names import qualified
from tournament.models import Player
from tournament.services import event_create

EVENT_DATE = datetime.date(2030, 4, 20)


@pytest.fixture(autouse=True)
def clear_cache():
    """The throttle counts in the cache; every test starts from zero."""
    cache.clear()
    yield
    cache.clear()


def make_event(**fields):
    values = {
        "name": "Spring Championship",
        "organization": "Atlantic Avenue Club",
        "venue": "Library Annex",
        "date": EVENT_DATE,
        "start_time": datetime.time(9, 30),
    }
    values.update(fields)
    return event_create(**values)


def form_data(**overrides):
    data = {
        "first_name": "Ada",
        "last_name": "Lovelace",
        "address": "12 Marvin Gardens",
        "city": "Atlantic City",
        "region": "NJ",
        "postal_code": "08401",
        "telephone": "555-0100",
        "email": "ada@example.org",
        "date_of_birth": "1990-12-10",
        "family": "The Lovelaces",
        "eligibility_declared": "on",
        "citizenship_declared": "on",
        "publicity_consent": "on",
        "guardian_name": "",
        "signature": "Ada Lovelace",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def register_url(event):
    return reverse("players:register", kwargs={"pk": event.pk})


def done_url(event):
    return reverse("players:register_done", kwargs={"pk": event.pk})


def post(client, event, **overrides):
    return client.post(register_url(event), form_data(**overrides))


def user_in(group_name, username):
    user = User.objects.create_user(username, password="not-used")
    user.groups.add(Group.objects.get(name=group_name))
    return user


@pytest.fixture
def organizer(db):
    return user_in("Organizer", "olive")


# --- Public form --------------------------------------------------------------------


def test_form_shows_the_registration_fields(client, event):
    response = client.get(register_url(event))
    assert response.status_code == 200
    body = response.content.decode()
    for name in (
        "first_name",
        "last_name",
        "address",
        "city",
        "region",
        "postal_code",
        "telephone",
        "email",
        "date_of_birth",
        "family",
        "eligibility_declared",
        "citizenship_declared",
        "publicity_consent",
        "guardian_name",
        "guardian_consent",
        "signature",
    ):
        assert f'name="{name}"' in body, name
    assert "Who are you related to or living with at this event?" in body
    assert "immediate family of an employee" in body
    assert "Needed only for players under 16" in body
    assert "csrfmiddlewaretoken" in body
    assert 'name="alias"' not in body


@pytest.mark.django_db
def test_citizenship_declaration_only_when_the_event_asks(client):
    event = make_event(format="club")
    assert not event.citizenship_declaration
    response = client.get(register_url(event))
    assert 'name="citizenship_declared"' not in response.content.decode()
    response = post(client, event, citizenship_declared=None)
    assert response.status_code == 302
    assert not Player.objects.get().citizenship_declared


@pytest.mark.django_db
def test_unknown_event_is_404(client):
    assert client.get("/events/999999/register/").status_code == 404
    assert client.post("/events/999999/register/", form_data()).status_code == 404
    assert client.get("/events/999999/register/done/").status_code == 404


def test_successful_registration_redirects_to_confirmation(client, event):
    before = timezone.now()
    response = post(client, event)
    assert response.status_code == 302
    assert response["Location"] == done_url(event)
    player = Player.objects.get()
    assert player.source == Player.Source.SELF
    assert player.status == Player.Status.PLAYER
    assert player.household == "the lovelaces"
    assert player.signature == "Ada Lovelace"
    assert player.signed_at >= before
    assert player.publicity_consent and player.eligibility_declared
    # The Location is exactly the event's done page: nothing personal travels in the URL.

    page = client.get(done_url(event))
    assert page.status_code == 200
    body = page.content.decode()
    assert player.alias in body
    assert "alternate" not in body.lower()
    assert "travel rules" not in body  # 39 on the day


def test_confirmation_without_a_registration_goes_back_to_the_form(client, event):
    response = client.get(done_url(event))
    assert response.status_code == 302
    assert response["Location"] == register_url(event)


def test_confirmation_is_only_for_the_browser_that_registered(client, event):
    post(client, event)
    other = Client()
    assert other.get(done_url(event)).status_code == 302


def test_csrf_is_enforced(event):
    client = Client(enforce_csrf_checks=True)
    response = client.post(register_url(event), form_data())
    assert response.status_code == 403
    assert not Player.objects.exists()


# --- Age rules ----------------------------------------------------------------------


def test_exactly_minimum_age_on_the_event_date_is_allowed(client, event):
    # Championship: at least 16 on 2030-04-20.
    response = post(client, event, date_of_birth="2014-04-20")
    assert response.status_code == 302
    assert Player.objects.get().age_at_event == 16


def test_one_day_too_young_is_refused(client, event):
    response = post(client, event, date_of_birth="2014-04-21")
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "at least 16" in errors["date_of_birth"][0]
    assert "(15 then)" in errors["date_of_birth"][0]
    assert not Player.objects.exists()


def test_birth_after_the_event_is_refused(client, event):
    response = post(client, event, date_of_birth="2031-01-01")
    assert "after the event" in response.context["form"].errors["date_of_birth"][0]


@pytest.mark.django_db
def test_too_old_for_a_junior_event(client):
    # Championship Rules: juniors "between 8 and 16 years old (16+ qualify for the senior
    # tournament)": 16 on the event's date (2030-04-20) plays the senior event, 15 is a junior.
    event = make_event(format="junior")
    guardian = {"guardian_name": "Mary Lovelace", "guardian_consent": "on"}
    response = post(client, event, date_of_birth="2014-04-20", **guardian)  # 16 on the day
    assert response.status_code == 200
    assert "up to 15 (16 on the day)" in response.context["form"].errors["date_of_birth"][0]
    assert not Player.objects.exists()
    # 15 on the day (the day before the 16th birthday) is still a junior.
    response = post(client, event, date_of_birth="2014-04-21", **guardian)
    assert response.status_code == 302


@pytest.mark.django_db
def test_under_guardian_age_needs_guardian_name_and_consent(client):
    event = make_event(format="club")  # from 8; guardian needed under 16
    response = post(client, event, date_of_birth="2020-01-01")
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "guardian's name" in errors["guardian_name"][0]
    assert "consent" in errors["guardian_consent"][0]
    assert not Player.objects.exists()

    response = post(
        client,
        event,
        date_of_birth="2020-01-01",
        guardian_name="Mary Lovelace",
        guardian_consent="on",
    )
    assert response.status_code == 302
    player = Player.objects.get()
    assert player.guardian_name == "Mary Lovelace" and player.guardian_consent


@pytest.mark.django_db
def test_under_18_sees_the_travel_note(client):
    event = make_event(format="club")
    post(client, event, date_of_birth="2013-01-01")  # 17 on the day, no guardian needed
    body = client.get(done_url(event)).content.decode()
    assert "travel rules" in body
    assert "under 18" in body


# --- Declarations and duplicates ------------------------------------------------------


def test_eligibility_declaration_is_required(client, event):
    response = post(client, event, eligibility_declared=None)
    assert response.status_code == 200
    assert "publisher" in response.context["form"].errors["eligibility_declared"][0]
    assert not Player.objects.exists()


def test_citizenship_required_when_the_event_asks(client, event):
    assert event.citizenship_declaration
    response = post(client, event, citizenship_declared=None)
    assert response.status_code == 200
    assert "citizen" in response.context["form"].errors["citizenship_declared"][0]
    assert not Player.objects.exists()


def test_all_problems_show_at_once(client, event):
    response = post(
        client, event, eligibility_declared=None, citizenship_declared=None, first_name=""
    )
    errors = response.context["form"].errors
    assert set(errors) >= {"eligibility_declared", "citizenship_declared", "first_name"}
    assert errors["first_name"] == ["This field is required."]  # once, not twice


def test_duplicate_email_is_refused(client, event):
    assert post(client, event).status_code == 302
    response = post(
        client, event, first_name="Augusta", email="ADA@example.org", date_of_birth="1991-01-01"
    )
    assert response.status_code == 200
    assert "already registered" in response.context["form"].errors["email"][0]
    assert Player.objects.count() == 1


def test_duplicate_name_and_birth_date_is_refused(client, event):
    assert post(client, event).status_code == 302
    response = post(client, event, email="other@example.org", first_name="ada ")
    assert response.status_code == 200
    form = response.context["form"]
    assert "already registered" in form.non_field_errors()[0]
    assert "already registered" in response.content.decode()
    assert Player.objects.count() == 1


def test_typed_values_reappear_after_an_error(client, event):
    response = post(client, event, eligibility_declared=None)
    body = response.content.decode()
    for value in (
        "Ada",
        "Lovelace",
        "12 Marvin Gardens",
        "Atlantic City",
        "08401",
        "555-0100",
        "ada@example.org",
        "1990-12-10",
        "The Lovelaces",
    ):
        assert f'value="{value}"' in body, value
    assert 'name="publicity_consent" id="id_publicity_consent" checked' in body


# --- Capacity ----------------------------------------------------------------------


@pytest.mark.django_db
def test_full_event_makes_alternates_and_says_which(client):
    event = make_event(expected_players=1)
    assert post(client, event).status_code == 302
    body = client.get(done_url(event)).content.decode()
    assert "alternate number" not in body

    second = Client()
    response = post(
        second, event, first_name="Grace", last_name="Hopper", email="grace@example.org"
    )
    assert response.status_code == 302
    grace = Player.objects.get(first_name="Grace")
    assert grace.status == Player.Status.ALTERNATE and grace.alternate_position == 1
    body = second.get(done_url(event)).content.decode()
    assert "The event is full" in body
    assert "alternate number 1" in body
    assert grace.alias in body

    third = Client()
    post(third, event, first_name="Alan", last_name="Turing", email="alan@example.org")
    assert "alternate number 2" in third.get(done_url(event)).content.decode()


# --- Window ------------------------------------------------------------------------


@pytest.mark.django_db
def test_before_registration_opens_nothing_is_created(client):
    event = make_event(registration_opens=timezone.now() + datetime.timedelta(days=2))
    response = client.get(register_url(event))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Registration is closed" in body
    assert "has not opened yet" in body
    assert 'name="first_name"' not in body
    response = post(client, event)
    assert response.status_code == 200
    assert "Registration is closed" in response.content.decode()
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_after_registration_closes_nothing_is_created(client):
    event = make_event(registration_closes=timezone.now() - datetime.timedelta(minutes=1))
    response = client.get(register_url(event))
    assert "Registration is closed" in response.content.decode()
    assert 'name="first_name"' not in response.content.decode()
    response = post(client, event)
    assert "Registration is closed" in response.content.decode()
    assert not Player.objects.exists()


# --- Throttle ----------------------------------------------------------------------


def test_too_many_posts_from_one_address_get_429(client, event):
    for _ in range(throttle.REGISTRATION_POSTS_PER_WINDOW):
        response = post(client, event, eligibility_declared=None)
        assert response.status_code == 200
    response = post(client, event, first_name="Throttled")
    assert response.status_code == 429
    body = response.content.decode()
    assert "Please wait" in body
    assert 'value="Throttled"' in body  # what they typed is still there
    assert not Player.objects.exists()

    # Another address is counted separately.
    other = client.post(register_url(event), form_data(), REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302


def test_behind_a_proxy_each_visitor_is_counted_by_the_proxys_header(client, event, settings):
    # Every request reaches Django from the proxy's one address; the header tells visitors apart.
    settings.BOARDWALK_CLIENT_IP_HEADER = "HTTP_X_REAL_IP"
    settings.BOARDWALK_TRUSTED_PROXIES = ["127.0.0.1"]  # the test client's REMOTE_ADDR
    url, visitor = register_url(event), "203.0.113.5"
    for _ in range(throttle.REGISTRATION_POSTS_PER_WINDOW):
        response = client.post(url, form_data(eligibility_declared=None), HTTP_X_REAL_IP=visitor)
        assert response.status_code == 200
    assert client.post(url, form_data(), HTTP_X_REAL_IP=visitor).status_code == 429
    other = client.post(register_url(event), form_data(), HTTP_X_REAL_IP="203.0.113.77")
    assert other.status_code == 302


def test_the_registration_limit_counts_the_last_ten_minutes_whatever_the_clock_says(
    db, monkeypatch
):
    """10 posts in any 10 minutes: the 11th is refused until the first is 10 minutes old,
    wherever the posts fall against the clock's quarter hours."""
    window = throttle.REGISTRATION_WINDOW_SECONDS
    start = 1_000_000 * window - 5  # five seconds before a multiple of the window
    clock = [float(start)]
    monkeypatch.setattr(throttle, "now", lambda: clock[0])
    for _ in range(throttle.REGISTRATION_POSTS_PER_WINDOW):
        assert not throttle.registration_post_throttled(event_id=1, ip="1.2.3.4")
        clock[0] += 1  # the last posts land after the multiple
    assert throttle.registration_post_throttled(event_id=1, ip="1.2.3.4")
    assert not throttle.registration_post_throttled(event_id=2, ip="1.2.3.4")
    clock[0] = start + window - 1  # the first post is still inside the last 10 minutes
    assert throttle.registration_post_throttled(event_id=1, ip="1.2.3.4")
    # Later, the early posts have left the window: one more is let through.
    clock[0] = start + 2 * window
    assert not throttle.registration_post_throttled(event_id=1, ip="1.2.3.4")


# --- On-the-day entry ----------------------------------------------------------------


def add_url(event):
    return reverse("players:player_add", kwargs={"pk": event.pk})


def test_organizer_adds_a_player_on_the_day(client, event, organizer):
    client.force_login(organizer)
    assert client.get(add_url(event)).status_code == 200
    response = client.post(add_url(event), form_data())
    assert response.status_code == 302
    assert response["Location"] == f"/organizer/events/{event.pk}/players/"
    player = Player.objects.get()
    assert player.source == Player.Source.ON_THE_DAY
    assert player.alias  # chosen automatically


@pytest.mark.django_db
def test_on_the_day_entry_ignores_the_window_and_takes_a_chosen_alias(client, organizer):
    event = make_event(registration_closes=timezone.now() - datetime.timedelta(days=1))
    client.force_login(organizer)
    response = client.post(add_url(event), form_data(alias="Lucky Lady"))
    assert response.status_code == 302
    assert Player.objects.get().alias == "Lucky Lady"

    response = client.post(
        add_url(event),
        form_data(first_name="Grace", email="grace@example.org", alias="lucky lady"),
    )
    assert response.status_code == 200
    assert "already has this alias" in response.context["form"].errors["alias"][0]
    assert 'value="Grace"' in response.content.decode()
    assert Player.objects.count() == 1


def test_on_the_day_entry_applies_the_same_rules(client, event, organizer):
    client.force_login(organizer)
    response = client.post(add_url(event), form_data(date_of_birth="2014-04-21"))
    assert response.status_code == 200
    assert "at least 16" in response.context["form"].errors["date_of_birth"][0]
    assert not Player.objects.exists()


@pytest.mark.parametrize("name", ["player_add", "player_import", "player_export"])
def test_organizer_pages_need_login_and_permission(client, event, name):
    url = reverse(qualified(name), kwargs={"pk": event.pk})
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))

    client.force_login(user_in("Banker", "bob"))
    assert client.get(url).status_code == 403
    assert client.post(url, form_data()).status_code == 403
    assert not Player.objects.exists()


@pytest.mark.parametrize("name", ["player_add", "player_import", "player_export"])
def test_organizer_pages_404_for_unknown_events(client, organizer, name):
    client.force_login(organizer)
    url = reverse(qualified(name), kwargs={"pk": 999999})
    assert client.get(url).status_code == 404
