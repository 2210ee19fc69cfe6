"""The hold arrives on existing events sensibly (spectator/migrations/0002).

Switches an organizer already set by hand stay under their hand: those events are held, so
nothing they switched off comes on at the next publishing or posting. New events follow
publishing and posting.
"""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from spectator.models import PublicRelease
from tournament.services import event_create

BEFORE = [("spectator", "0001_initial")]
AFTER = [("spectator", "0002_public_site_held")]


@pytest.mark.django_db(transaction=True)
def test_existing_switches_are_held_and_new_ones_follow_the_day(event):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    old.get_model("spectator", "PublicRelease").objects.create(event_id=event.pk, standings=True)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)

    existing = PublicRelease.objects.get(event=event)
    assert existing.held and existing.standings and not existing.tables
    later = event_create(
        name="Autumn Open",
        organization="Atlantic Avenue Club",
        venue="Library Annex",
        date=datetime.date(2030, 10, 5),
        start_time=datetime.time(9, 30),
    )
    fresh = PublicRelease.objects.create(event=later)
    assert not fresh.held
