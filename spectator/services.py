"""Writes of the public site: the organizer's release switches."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from tournament.models import Event

from .models import PAGES, PublicRelease


@transaction.atomic
def release_set(*, event: Event, pages: dict[str, bool], by: User | None) -> PublicRelease:
    """Switch the named pages on or off; pages not named keep their setting.

    Saving the row bumps the event's public version (``signals``), so every cached page
    and every phone's copy is refreshed at the next poll.
    """
    release, _created = PublicRelease.objects.select_for_update().get_or_create(event=event)
    for page, released in pages.items():
        if page not in PAGES:
            raise ValueError(f"unknown public page {page!r}")
        setattr(release, page, bool(released))
    release.updated_by = by
    release.save()
    return release
