"""Redis unreachable: pages are built without the cache, the throttles count per process,
/health/ says "degraded", and nothing answers 500.

The cache points at a closed port (127.0.0.1:1): connecting fails at once, the way a
stopped Redis fails. One test goes through the settings themselves, with REDIS_URL in a
separate process; the others swap the cache in this one.
"""

from __future__ import annotations

import textwrap

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from redis.exceptions import ConnectionError as RedisConnectionError

from accounts import throttle
from banker.links import banker_link_issue
from config.cache import ResilientRedisCache
from spectator.services import release_set
from tests.config.test_settings import run_django
from tournament.models import Round, Table, Wave

CLOSED_PORT = "redis://127.0.0.1:1/0"
REDIS_DOWN = {
    "default": {
        "BACKEND": "config.cache.ResilientRedisCache",
        "LOCATION": CLOSED_PORT,
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
    }
}


@pytest.fixture
def redis_down():
    with override_settings(CACHES=REDIS_DOWN):
        throttle.fallback_clear()
        yield
        throttle.fallback_clear()


@pytest.fixture
def table(event) -> Table:
    release_set(event=event, pages={"home": True, "tables": True, "standings": True}, by=None)
    round_1 = Round.objects.create(event=event, number=1, assignments_published=True)
    wave = Wave.objects.create(round=round_1, number=1)
    return Table.objects.create(round=round_1, wave=wave, number=1)


def test_every_door_answers_without_the_cache(redis_down, table, caplog):
    event = table.round.event
    User.objects.create_user("ada", password="the right passphrase")
    key = banker_link_issue(table=table, by=None).key
    client = Client()
    pages = [
        reverse("spectator:event_home", kwargs={"pk": event.pk}),
        reverse("spectator:standings", kwargs={"pk": event.pk}),
        reverse("spectator:tables", kwargs={"pk": event.pk, "number": 1}),
        reverse("players:register", kwargs={"pk": event.pk}),
        reverse("spectator:hall_state", kwargs={"pk": event.pk}),
        reverse("login"),
    ]
    for url in pages:
        assert client.get(url).status_code == 200, url
    assert client.post(reverse("login"), {"username": "ada", "password": "no"}).status_code == 200
    wrong = reverse("banker:banker_link_open", kwargs={"key": "guess"})
    assert client.get(wrong).status_code == 403
    assert client.get(reverse("banker:banker_link_open", kwargs={"key": key})).status_code == 302
    right = {"username": "ada", "password": "the right passphrase"}
    assert client.post(reverse("login"), right).status_code == 302
    health = client.get(reverse("health"))
    assert health.status_code == 200
    assert health.content.decode().startswith("degraded")
    # Logged once for the whole outage (the fixture's writes met it first), not per request.
    records = caplog.get_records("setup") + caplog.get_records("call")
    assert len([r for r in records if "unreachable" in r.getMessage()]) == 1


def test_a_public_page_without_the_cache_is_never_answered_304_from_an_old_version(
    redis_down, table
):
    """No cache, no version to compare: each answer is built afresh, so a phone's copy can
    never be confirmed as current after the results changed."""
    url = reverse("spectator:event_home", kwargs={"pk": table.round.event_id})
    first = Client().get(url)
    again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200


@pytest.mark.django_db
def test_the_login_throttle_still_counts_in_the_process(redis_down, frozen_time):
    User.objects.create_user("ada", password="the right passphrase")
    client = Client()
    for attempt in range(5):  # the README's free failures per username
        client.post(reverse("login"), {"username": "ada", "password": f"guess {attempt}"})
    right = {"username": "ada", "password": "the right passphrase"}
    assert client.post(reverse("login"), right).status_code == 429


def test_redis_down_through_the_settings_answers_pages_not_500s(tmp_path):
    """REDIS_URL at a closed port, the way production reads it (500s while
    /health/ said ok)."""
    script = textwrap.dedent(
        """
        import django
        django.setup()
        from django.core.management import call_command
        from django.test import Client
        from django.test.utils import setup_test_environment
        setup_test_environment()
        call_command("migrate", verbosity=0)
        from django.contrib.auth.models import User
        User.objects.create_user("ada", password="the right passphrase")
        import datetime
        from spectator.services import release_set
        from tournament.services import event_create
        event = event_create(
            name="Cup", organization="Club", venue="Hall", date=datetime.date(2031, 1, 1),
            start_time=datetime.time(9),
        )
        release_set(event=event, pages={"home": True}, by=None)
        client = Client()
        event_page = f"/events/{event.pk}/"
        for url in ("/", event_page, "/accounts/login/", "/bank/k/guess/", "/health/"):
            response = client.get(url)
            name = url.replace(event_page, "event")
            print(name, response.status_code, response.content[:9].decode())
        response = client.post("/accounts/login/", {"username": "ada", "password": "no"})
        print("login-wrong", response.status_code)
        right = {"username": "ada", "password": "the right passphrase"}
        print("login-right", client.post("/accounts/login/", right).status_code)
        """
    )
    result = run_django(
        ["-c", script],
        REDIS_URL=CLOSED_PORT,
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    answers = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    assert answers["/"].startswith("200") and answers["event"].startswith("200")
    assert answers["/accounts/login/"].startswith("200")
    assert answers["/bank/k/guess/"].startswith("403")
    assert answers["/health/"] == "200 degraded:"
    assert (answers["login-wrong"], answers["login-right"]) == ("200", "302")


# --- Coming back -----------------------------------------------------------------------------


class FlakyRedis:
    """Django's Redis client stand-in: a dict that can be made unreachable."""

    def __init__(self) -> None:
        self.data: dict[str, object] = {}
        self.up = True

    def _check(self) -> None:
        if not self.up:
            raise RedisConnectionError("Connection refused")

    def get(self, key, default):
        self._check()
        return self.data.get(key, default)

    def set(self, key, value, timeout):
        self._check()
        self.data[key] = value

    def add(self, key, value, timeout):
        self._check()
        return self.data.setdefault(key, value) is value

    def delete_many(self, keys):
        self._check()
        for key in keys:
            self.data.pop(key, None)


def test_keys_written_while_redis_was_away_are_forgotten_when_it_answers_again():
    """A public version bumped during the outage never reached Redis; the old token must
    not be served as current once Redis is back."""
    backend = ResilientRedisCache(CLOSED_PORT, {})
    backend.RETRY_S = 0  # try again at once
    backend._cache = flaky = FlakyRedis()
    backend.set("spectator:version:1", "before")
    flaky.up = False
    backend.set("spectator:version:1", "bumped during the outage")  # lost
    assert backend.degraded and backend.get("spectator:version:1") is None
    flaky.up = True
    assert backend.get("unrelated") is None  # the first call that reaches Redis again
    assert not backend.degraded
    assert backend.get("spectator:version:1") is None  # forgotten, so made anew
    assert backend.get_or_set("spectator:version:1", "after") == "after"


def test_while_away_reads_find_nothing_and_increments_find_no_key():
    backend = ResilientRedisCache(CLOSED_PORT, {})
    backend._cache = flaky = FlakyRedis()
    flaky.up = False
    assert backend.get("x", "default") == "default"
    assert backend.get_or_set("x", lambda: "built") == "built"
    assert backend.add("x", 1) is False
    with pytest.raises(ValueError):
        backend.incr("x")
    assert cache.get("x") is None  # the test's own cache is untouched


def test_health_follows_the_cache_without_asking_it_on_every_poll():
    backend = ResilientRedisCache(CLOSED_PORT, {})
    backend.RETRY_S = 60  # nothing is retried during this test
    backend._cache = flaky = FlakyRedis()
    backend.get("x")
    assert backend.available()  # Redis just answered: no PING needed (FlakyRedis has none)
    flaky.up = False
    backend.get("x")
    assert not backend.available()
