"""How a newcomer learns to sign in: the login page and `make run`'s last words.

The login page names the demo's accounts while DEBUG is on and they still open with their
username as password; never in production, never an account someone gave a real password.
`manage.py welcome` (the end of `make run`) prints the address, the same sign-ins and the
pages to open first.
"""

from __future__ import annotations

import io
import socket
import threading

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse

from demo.event import DEMO_EVENT_NAME, demo_officials
from demo.management.commands.welcome import wait_for
from tests.builders import an_event

DEMO = ["organizer", "headjudge", "judge", "banker"]


def login_page_accounts(client) -> list[str]:
    response = client.get(reverse("login"))
    assert response.status_code == 200
    return response.context["demo_accounts"]


@pytest.mark.django_db
def test_the_login_page_names_the_demo_accounts_in_development(client, settings):
    settings.DEBUG = True
    demo_officials(logins=True)  # as `make run` makes them
    assert login_page_accounts(client) == DEMO
    page = client.get(reverse("login")).content.decode()
    assert "Demo accounts" in page and "<code>headjudge</code>" in page
    # ... and what it says works: the password is the username.
    response = client.post(reverse("login"), {"username": "judge", "password": "judge"})
    assert response.status_code == 302


@pytest.mark.django_db
def test_production_never_names_them(client, settings):
    demo_officials(logins=True)  # even a database loaded in development
    settings.DEBUG = False
    assert login_page_accounts(client) == []
    assert "Demo accounts" not in client.get(reverse("login")).content.decode()


@pytest.mark.django_db
def test_no_demo_no_accounts(client, settings):
    settings.DEBUG = True
    assert login_page_accounts(client) == []


@pytest.mark.django_db
def test_an_account_with_a_real_password_is_not_offered(client, settings):
    settings.DEBUG = True
    # Someone's own "judge" from before the demo: the demo uses it as it is.
    User.objects.create_user("judge", password="a real passphrase of theirs")
    demo_officials(logins=True)
    organizer = User.objects.get(username="organizer")
    organizer.set_password("changed since")
    organizer.save()
    User.objects.filter(username="banker").update(is_active=False)
    assert login_page_accounts(client) == ["headjudge"]


@pytest.mark.django_db
def test_welcome_names_the_address_the_sign_ins_and_the_demo_event(settings):
    settings.DEBUG = True
    demo_officials(logins=True)
    event = an_event(name=DEMO_EVENT_NAME)
    out = io.StringIO()
    call_command("welcome", "--address=127.0.0.1:8123", "--worker-log=var/w.log", stdout=out)
    text = out.getvalue()
    assert "Boardwalk is running at http://127.0.0.1:8123/" in text
    assert (
        "http://127.0.0.1:8123/accounts/login/" in text and "the password is the username" in text
    )
    for username in DEMO:
        assert f"\n  {username} " in text
    assert f"http://127.0.0.1:8123/organizer/events/{event.pk}/" in text
    assert f"http://127.0.0.1:8123/events/{event.pk}/" in text
    assert "var/w.log" in text
    # The last thing on the screen: how to stop, after everything a newcomer needs.
    assert text.rstrip().splitlines()[-1].startswith("Ctrl-C stops")


@pytest.mark.django_db
def test_welcome_without_demo_accounts_says_how_to_make_one(settings):
    settings.DEBUG = False
    demo_officials(logins=False)
    out = io.StringIO()
    call_command("welcome", stdout=out)
    assert "createsuperuser" in out.getvalue() and "organizer " not in out.getvalue()


def test_welcome_waits_for_the_server_to_listen():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        port = server.getsockname()[1]
        answer: list[bool] = []
        waiter = threading.Thread(target=lambda: answer.append(wait_for("127.0.0.1", port, 30)))
        waiter.start()
        server.listen()  # only now does anything accept connections
        waiter.join()
    assert answer == [True]
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        free_port = closed.getsockname()[1]
    assert wait_for("127.0.0.1", free_port, 0.6) is False
