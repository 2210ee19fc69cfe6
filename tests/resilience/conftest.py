"""Fixtures for the resilience tests (the tournament they fuzz lives in fuzz_world.py)."""

from __future__ import annotations

import pytest
from django.db import transaction

from seating import views as seating_views
from tests.resilience.fuzz_world import build_world


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """One tournament for the whole module, rolled back at the end."""
    with django_db_blocker.unblock():
        with transaction.atomic():
            built = build_world()
            yield built
            transaction.set_rollback(True)


@pytest.fixture
def quiet(settings, monkeypatch):
    """A private cache (the throttles count in it) and a short seating time limit."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    monkeypatch.setattr(seating_views, "PRESEAT_SECONDS", 0.2)
