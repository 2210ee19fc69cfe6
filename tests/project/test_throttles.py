"""Security: the throttles on logging in, password resets and guessing banker links.

The free failures are the README's numbers, written out here rather than read from the
code, so a change of limit has to change the promise too.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from accounts import throttle
from banker.links import banker_link_issue
from scoring.selectors import banker_link_table
from tests.builders import an_event
from tournament.models import Round, Table, Wave

# The free failures the README promises, written out rather than read from the code.
FREE_FAILURES_PER_USERNAME = 5
FREE_FAILURES_PER_ADDRESS = 20


@pytest.fixture
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def _login(client, username, password, ip="10.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def _admin_login(client, username, password, ip="10.0.0.1"):
    return client.post(
        reverse("admin:login"),
        {"username": username, "password": password, "next": "/admin/"},
        REMOTE_ADDR=ip,
    )


@pytest.mark.django_db
def test_login_is_slowed_down_after_the_free_failures_for_a_username(
    client, fresh_cache, frozen_time
):
    User.objects.create_user("ada", password="the right passphrase")
    for attempt in range(FREE_FAILURES_PER_USERNAME):
        response = _login(client, "ada", f"guess {attempt}", ip=f"10.0.0.{attempt}")
        assert response.status_code == 200  # the form again, with Django's own error
    # From any address, even with the right password: refused unchecked, and said why.
    response = _login(client, "ADA ", "the right passphrase", ip="10.9.9.9")
    assert response.status_code == 429
    assert response["Retry-After"] == "1"
    body = response.content.decode()
    assert "Too many failed attempts to log in. Try again in 1 second" in body
    assert '<form class="stacked-form narrow" method="post"' in body
    assert "_auth_user_id" not in client.session
    # Another user from the same address is not slowed down by ada's failures.
    User.objects.create_user("ben", password="another passphrase")
    assert _login(client, "ben", "another passphrase", ip="10.9.9.9").status_code == 302


@pytest.mark.django_db
def test_login_is_slowed_down_after_the_free_failures_from_one_address(
    client, fresh_cache, frozen_time
):
    User.objects.create_user("ada", password="the right passphrase")
    for attempt in range(FREE_FAILURES_PER_ADDRESS):
        assert _login(client, f"nobody{attempt}", "x", ip="10.0.0.7").status_code == 200
    assert _login(client, "ada", "the right passphrase", ip="10.0.0.7").status_code == 429
    assert _login(client, "ada", "the right passphrase", ip="10.0.0.8").status_code == 302


@pytest.mark.django_db
def test_a_successful_login_clears_its_usernames_failures(client, fresh_cache, frozen_time):
    User.objects.create_user("ada", password="the right passphrase")
    for _ in range(FREE_FAILURES_PER_USERNAME - 1):
        _login(client, "ada", "wrong")
    assert _login(client, "ada", "the right passphrase").status_code == 302
    client.logout()
    client.cookies.clear()  # a new device: the known-device cookie would count apart
    for _ in range(FREE_FAILURES_PER_USERNAME - 1):
        _login(client, "ada", "wrong")
    assert _login(client, "ada", "the right passphrase").status_code == 302


@pytest.mark.django_db
def test_the_admin_login_counts_in_the_same_limit(client, fresh_cache, frozen_time):
    """A found weakness: 40 wrong passwords on /admin/login/ went uncounted, then the right one
    got in while /accounts/login/ had the account locked."""
    User.objects.create_user("chief", password="the right passphrase", is_staff=True)
    for attempt in range(FREE_FAILURES_PER_USERNAME):
        assert _admin_login(client, "chief", f"guess {attempt}").status_code == 200
    # The admin's failures slow down the login page...
    assert _login(client, "chief", "the right passphrase", ip="10.3.3.3").status_code == 429
    # ...and the admin's own page: refused with the reason, not let in.
    response = _admin_login(Client(), "chief", "the right passphrase", ip="10.4.4.4")
    assert "Too many failed attempts to log in" in response.content.decode()
    assert "_auth_user_id" not in client.session
    frozen_time.advance(1)
    response = _admin_login(client, "chief", "the right passphrase", ip="10.4.4.4")
    assert response.status_code == 302 and client.session["_auth_user_id"]


@pytest.mark.django_db
def test_login_page_failures_slow_down_the_admin_login_too(client, fresh_cache, frozen_time):
    User.objects.create_user("chief", password="the right passphrase", is_staff=True)
    for attempt in range(40):
        _login(client, "chief", f"guess {attempt}", ip=f"10.0.1.{attempt}")
    response = _admin_login(client, "chief", "the right passphrase", ip="10.0.2.1")
    assert response.status_code == 200
    assert "Too many failed attempts to log in" in response.content.decode()
    assert "_auth_user_id" not in client.session


def _reset(client, email, ip="10.0.0.1"):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=ip)


@pytest.mark.django_db
def test_password_reset_is_limited_per_email(client, fresh_cache, frozen_time, mailoutbox):
    User.objects.create_user("ada", email="ada@example.org", password="the right passphrase")
    for attempt in range(3):
        assert _reset(client, "ada@example.org", ip=f"10.0.5.{attempt}").status_code == 302
    response = _reset(client, "ADA@example.org", ip="10.0.5.9")
    assert response.status_code == 429
    assert "Too many password reset requests" in response.content.decode()
    assert len(mailoutbox) == 3
    frozen_time.advance(60 * 60)  # an hour later, one more
    assert _reset(client, "ada@example.org", ip="10.0.5.9").status_code == 302
    assert len(mailoutbox) == 4


@pytest.mark.django_db
def test_password_reset_is_limited_per_address(client, fresh_cache, frozen_time, mailoutbox):
    for attempt in range(5):
        assert _reset(client, f"someone{attempt}@example.org").status_code == 302
    assert _reset(client, "another@example.org").status_code == 429
    assert _reset(client, "another@example.org", ip="10.0.0.2").status_code == 302


def _table_key() -> str:
    event = an_event(name="Security Cup", expected_players=4)
    round_1 = Round.objects.create(event=event, number=1)
    table = Table.objects.create(
        round=round_1, wave=Wave.objects.create(round=round_1, number=1), number=1
    )
    return banker_link_issue(table=table, by=None).key


@pytest.mark.django_db
def test_banker_link_guessing_is_throttled_but_never_blocks_a_right_key(
    client, fresh_cache, frozen_time
):
    """A found weakness: 20 wrong keys from the venue's one address locked every tablet there."""
    key = _table_key()
    good = reverse("banker:banker_link_open", kwargs={"key": key})
    for attempt in range(throttle.BANKER_LINK_MISSES_PER_IP.count):
        wrong = reverse("banker:banker_link_open", kwargs={"key": f"guess{attempt}"})
        assert client.get(wrong, REMOTE_ADDR="10.0.0.1").status_code == 403
    wrong = reverse("banker:banker_link_open", kwargs={"key": "one-more-guess"})
    response = client.get(wrong, REMOTE_ADDR="10.0.0.1")
    assert response.status_code == 429
    assert "Too many table links tried" in response.content.decode()
    # A tablet at the same address, with its table's card, still opens its table.
    assert client.get(good, REMOTE_ADDR="10.0.0.1").status_code == 302
    assert banker_link_table(key=key) is not None


@override_settings(
    BOARDWALK_CLIENT_IP_HEADER="HTTP_X_REAL_IP", BOARDWALK_TRUSTED_PROXIES=["10.0.0.1"]
)
def test_the_client_address_comes_from_the_proxys_header_when_told(rf):
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_REAL_IP="203.0.113.9")
    assert throttle.client_ip(request) == "203.0.113.9"
    assert throttle.client_ip(rf.get("/", REMOTE_ADDR="10.0.0.1")) == "10.0.0.1"


def test_without_the_setting_the_proxys_header_is_ignored(rf):
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_REAL_IP="203.0.113.9")
    assert throttle.client_ip(request) == "10.0.0.1"
