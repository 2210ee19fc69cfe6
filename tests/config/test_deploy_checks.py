"""Boardwalk's own deployment checks (config/checks.py), run in this process.

The settings-level cases (mail server, trusted proxies) need a fresh process each and are
in test_settings.py; the demo-password check reads the database, so it is tested here.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.checks import run_checks

from demo.event import demo_officials


def deploy_check_ids() -> set[str]:
    return {message.id for message in run_checks(include_deployment_checks=True)}


@pytest.mark.django_db
def test_a_demo_account_with_its_demo_password_fails_the_deploy_check():
    """A database loaded with DEBUG on kept organizer/organizer in production."""
    demo_officials(logins=True)  # as `make run` (DEBUG on) makes the demo's officials
    assert User.objects.get(username="organizer").check_password("organizer")
    assert "boardwalk.E001" in deploy_check_ids()
    for username in ("organizer", "headjudge", "judge", "banker"):
        user = User.objects.get(username=username)
        user.set_password("a long real passphrase")
        user.save()
    assert "boardwalk.E001" not in deploy_check_ids()


@pytest.mark.django_db
def test_demo_accounts_made_in_production_have_no_password_to_find():
    demo_officials(logins=False)  # as the demo makes them with DEBUG off
    assert not User.objects.get(username="organizer").has_usable_password()
    assert "boardwalk.E001" not in deploy_check_ids()


def test_the_check_names_the_accounts_and_says_what_to_do(db):
    User.objects.create_user("judge", password="judge")
    User.objects.create_user("banker", password="not the demo one")
    [error] = [m for m in run_checks(include_deployment_checks=True) if m.id == "boardwalk.E001"]
    assert "judge" in error.msg and "banker" not in error.msg
    assert "changepassword" in error.hint
