"""The login throttle against the attacks a review found, through the real login pages.

Every test freezes time (``frozen_time``): the throttle's waits are measured in seconds,
and a test must not depend on when it runs.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from accounts import throttle

# The README's numbers, written out rather than read from the code.
FREE_FAILURES_PER_USERNAME = 5
MAX_WAIT_S = 15 * 60
QUARTER_HOUR_S = 15 * 60  # the fixed window of the old throttle


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def login(client, username, password, ip="10.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


# --- One count per account, however the name is spelled ---------------------------

# Fullwidth, mathematical bold and Unicode case variants that Django's login form folds
# (NFKC) into "judge2" before it looks the account up.
LOOK_ALIKES = [
    "judge2",
    "ｊudge2",
    "jｕdge2",
    "juｄge2",
    "judｇe2",
    "judgｅ2",
    "judge２",
    "ｊｕｄｇｅ２",
    "𝐣udge2",
    "j𝐮dge2",
    "𝐣𝐮𝐝𝐠𝐞𝟐",
    "JUDGE2",
    "Judge2",
    " judge2 ",
    "ʲudge2",
]


@pytest.mark.django_db
def test_look_alike_usernames_count_as_the_account_they_sign_in_as(client, frozen_time):
    """A found weakness: 21 spellings x 7 wrong passwords were 147 guesses against one account."""
    User.objects.create_user("judge2", password="the right passphrase")
    checked = 0
    for attempt, name in enumerate(LOOK_ALIKES * 7):
        response = login(client, name, f"guess {attempt}", ip=f"10.1.{attempt // 200}.{attempt}")
        if response.status_code == 200:
            checked += 1
        else:
            assert response.status_code == 429
    assert checked == FREE_FAILURES_PER_USERNAME
    # With judge2 slowed down, the fullwidth spelling and the right password are refused too.
    response = login(Client(), "ｊｕｄｇｅ２", "the right passphrase", ip="10.2.0.1")
    assert response.status_code == 429


def test_the_count_folds_names_as_the_login_form_does():
    assert throttle.login_subject("ｊｕｄｇｅ２") == "judge2"
    assert throttle.login_subject("𝐣udge2") == "judge2"
    assert throttle.login_subject(" JUDGE2 ") == "judge2"
    assert throttle.login_subject("judge3") != "judge2"


# --- The attacker slowed down, the victim let through ------------------------------


def test_the_waits_double_after_the_free_failures_up_to_a_quarter_hour():
    per_username = throttle.LOGIN_PER_USERNAME
    waits = [per_username.wait_after(failures) for failures in range(20)]
    # Worked by hand: five free failures, then 1, 2, 4 ... seconds, never over 15 minutes.
    assert waits[:5] == [0, 0, 0, 0, 0]
    assert waits[5:12] == [1, 2, 4, 8, 16, 32, 64]
    assert waits[14] == 512 and waits[15] == MAX_WAIT_S and waits[19] == MAX_WAIT_S


@pytest.mark.django_db
def test_failures_slow_the_name_down_progressively_and_never_lock_it(client, frozen_time):
    """Eight wrong passwords locked the head judge out for 15 minutes."""
    User.objects.create_user("headjudge", password="the right passphrase")
    guesser = Client()
    for attempt in range(FREE_FAILURES_PER_USERNAME):
        assert login(guesser, "headjudge", f"guess {attempt}").status_code == 200
    for wait in (1, 2, 4, 8):
        refused = login(guesser, "headjudge", "too early")
        assert refused.status_code == 429 and refused["Retry-After"] == str(wait)
        frozen_time.advance(wait - 0.5)
        assert login(guesser, "headjudge", "still too early").status_code == 429
        frozen_time.advance(0.5)
        assert login(guesser, "headjudge", "checked, and wrong").status_code == 200
    # The right password after the wait that is due: in, not locked out.
    frozen_time.advance(16)
    assert login(client, "headjudge", "the right passphrase").status_code == 302


@pytest.mark.django_db
def test_a_device_that_logged_in_before_is_let_through_with_the_right_password(frozen_time):
    User.objects.create_user("headjudge", password="the right passphrase")
    tablet = Client()
    assert login(tablet, "headjudge", "the right passphrase", ip="10.0.0.50").status_code == 302
    tablet.post(reverse("logout"))
    # A stranger at the venue (the same address) guesses for a quarter of an hour.
    stranger = Client()
    for attempt in range(40):
        login(stranger, "headjudge", f"guess {attempt}", ip="10.0.0.50")
        frozen_time.advance(20)
    assert login(stranger, "headjudge", "guess", ip="10.0.0.50").status_code == 429
    # A new device with the right password waits like the stranger...
    assert login(Client(), "headjudge", "the right passphrase", ip="10.0.0.50").status_code == 429
    # ...the head judge's own tablet does not.
    response = login(tablet, "headjudge", "the right passphrase", ip="10.0.0.50")
    assert response.status_code == 302 and signed_in(tablet)


@pytest.mark.django_db
def test_a_forged_or_foreign_device_cookie_is_a_new_device(frozen_time):
    User.objects.create_user("headjudge", password="the right passphrase")
    User.objects.create_user("banker", password="a banker passphrase")
    # The banker's own tablet is known, but only as the banker's.
    tablet = Client()
    assert login(tablet, "banker", "a banker passphrase").status_code == 302
    forged = Client()
    forged.cookies["boardwalk_device"] = "forged"
    for client in (tablet, forged):
        for attempt in range(FREE_FAILURES_PER_USERNAME):
            login(client, "headjudge", f"guess {attempt}", ip=f"10.0.9.{attempt}")
    assert login(tablet, "headjudge", "guess", ip="10.0.9.9").status_code == 429
    assert login(forged, "headjudge", "guess", ip="10.0.9.9").status_code == 429


def test_parallel_attempts_past_the_free_failures_go_one_at_a_time(frozen_time):
    """A burst of simultaneous guesses must not all pass a check that none has counted:
    attempts are taken before the password is checked."""
    for _ in range(FREE_FAILURES_PER_USERNAME):
        throttle.login_attempt(username="ada", address="10.0.0.1", device=None).resolve(
            succeeded=False
        )
    frozen_time.advance(60)  # long past the one-second wait that is due
    burst = [throttle.login_attempt(username="ada", address="10.0.0.1", device=None)]
    burst += [throttle.login_attempt(username="ada", address="10.0.0.1", device=None)]
    assert [attempt.refused for attempt in burst] == [False, True]


# --- No window boundary --------------------------------------------------------------


@pytest.mark.django_db
def test_failures_just_before_a_quarter_hour_still_count_just_after_it(client, frozen_time):
    """The old throttle counted in fixed 15-minute windows, so failures made just
    before a boundary were forgotten just after it (and its test failed there)."""
    User.objects.create_user("ada", password="the right passphrase")
    frozen_time.at = (int(frozen_time.at) // QUARTER_HOUR_S + 1) * QUARTER_HOUR_S - 0.4
    for attempt in range(FREE_FAILURES_PER_USERNAME):
        assert login(client, "ada", f"guess {attempt}").status_code == 200
    frozen_time.advance(0.8)  # across the quarter hour, before the one-second wait is over
    assert login(client, "ada", "the right passphrase").status_code == 429


@pytest.mark.django_db
def test_the_throttle_takes_its_time_from_one_function(client, monkeypatch):
    User.objects.create_user("ada", password="the right passphrase")
    clock = [1_000_000.0]
    monkeypatch.setattr(throttle, "now", lambda: clock[0])
    for attempt in range(FREE_FAILURES_PER_USERNAME):
        login(client, "ada", f"guess {attempt}")
    assert login(client, "ada", "the right passphrase").status_code == 429
    clock[0] += 1
    assert login(client, "ada", "the right passphrase").status_code == 302


def test_a_username_with_spaces_makes_a_valid_cache_key(recwarn):
    throttle.login_attempt(username="a b\nc" * 60, address="10.0.0.1", device=None)
    assert not [w for w in recwarn if "CacheKeyWarning" in type(w.message).__name__]


# --- The proxy's header, from the proxy only -----------------------------------------


@pytest.mark.django_db
@override_settings(BOARDWALK_CLIENT_IP_HEADER="HTTP_X_REAL_IP", BOARDWALK_TRUSTED_PROXIES=[])
def test_a_client_sending_its_own_address_header_is_still_throttled(client, frozen_time):
    """With DJANGO_CLIENT_IP_HEADER set, a client sending its own X-Real-IP was
    never throttled. The header counts only from a trusted proxy."""
    misses = throttle.BANKER_LINK_MISSES_PER_IP.count
    for attempt in range(misses + 1):
        url = reverse("banker:banker_link_open", kwargs={"key": f"guess{attempt}"})
        response = client.get(url, REMOTE_ADDR="198.51.100.7", HTTP_X_REAL_IP=f"1.2.3.{attempt}")
    assert response.status_code == 429


@override_settings(
    BOARDWALK_CLIENT_IP_HEADER="HTTP_X_FORWARDED_FOR",
    BOARDWALK_TRUSTED_PROXIES=["127.0.0.1", "10.0.0.0/8"],
)
def test_forwarded_hops_are_read_back_to_the_first_untrusted_one(rf):
    def ip(remote: str, forwarded: str) -> str:
        return throttle.client_ip(rf.get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded))

    # The proxies append; what the client wrote itself is further left and not believed.
    assert ip("127.0.0.1", "6.6.6.6, 203.0.113.9") == "203.0.113.9"
    assert ip("127.0.0.1", "203.0.113.9, 10.1.2.3") == "203.0.113.9"
    assert ip("198.51.100.7", "203.0.113.9") == "198.51.100.7"  # not from a proxy
    assert ip("127.0.0.1", "not-an-address") == "127.0.0.1"


# --- The password change checks the old password under the same count ----------------------


def change_password(client, old, ip="10.0.0.1"):
    form = {
        "old_password": old,
        "new_password1": "a new long passphrase",
        "new_password2": "a new long passphrase",
    }
    return client.post(reverse("password_change"), form, REMOTE_ADDR=ip)


@pytest.mark.django_db
def test_the_old_password_of_a_password_change_is_throttled_like_a_login(client, frozen_time):
    """An open session on a shared tablet must not be a way to guess its official's password."""
    user = User.objects.create_user("judge3", password="the right passphrase")
    client.force_login(user)
    statuses = [change_password(client, f"guess {n}").status_code for n in range(7)]
    assert statuses == [200] * FREE_FAILURES_PER_USERNAME + [429, 429]
    # The right one is refused too while the wait lasts, and the password stays.
    refused = change_password(client, "the right passphrase")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "Too many wrong passwords" in refused.content.decode()
    user.refresh_from_db()
    assert user.check_password("the right passphrase")
    # The login page counts the same failures: the account is slowed down there too.
    assert login(Client(), "judge3", "the right passphrase", ip="10.0.0.9").status_code == 429


@pytest.mark.django_db
def test_the_right_old_password_changes_it(client, frozen_time):
    user = User.objects.create_user("judge4", password="the right passphrase")
    client.force_login(user)
    response = change_password(client, "the right passphrase")
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a new long passphrase")
