"""Writes of the public site: the organizer's release switches, and the pages that follow
publishing and posting."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from spectator.models import PAGES, PublicRelease
from tournament.models import Event, Round
from tournament.public_site import pages_on_post, pages_on_publish


@transaction.atomic
def release_set(
    *, event: Event, pages: dict[str, bool], by: User | None, held: bool | None = None
) -> PublicRelease:
    """Switch the named pages on or off; pages not named keep their setting, and so does
    the hold unless ``held`` is given.

    Saving the row bumps the event's public version (``signals``), so every cached page
    and every phone's copy is refreshed at the next poll.
    """
    release, _created = PublicRelease.objects.select_for_update().get_or_create(event=event)
    for page, released in pages.items():
        if page not in PAGES:
            raise ValueError(f"unknown public page {page!r}")
        setattr(release, page, bool(released))
    if held is not None:
        release.held = held
    release.updated_by = by
    release.save()
    return release


@transaction.atomic
def release_following(
    *, event_pk: int, pages: tuple[str, ...], by: User | None = None
) -> tuple[str, ...]:
    """Switch on ``pages`` because something now shows on them, unless the organizer holds
    the public site; returns the pages switched on. A page the organizer switched off
    comes back here: to keep one off, they hold the site (the release page says so)."""
    release, _created = PublicRelease.objects.select_for_update().get_or_create(event_id=event_pk)
    if release.held:
        return ()
    opened = tuple(page for page in pages if not getattr(release, page))
    if opened:
        for page in opened:
            setattr(release, page, True)
        release.updated_by = by or release.updated_by
        # The save bumps the public version (signals): phones see the pages at their next poll.
        release.save()
    return opened


def on_round_published(sender: Any, *, round_: Round, **kwargs: Any) -> None:
    """tournament.signals.round_published (connected in apps.py)."""
    release_following(event_pk=round_.event_id, pages=pages_on_publish(round_=round_))


def on_round_posted(sender: Any, *, round_: Round, by: User | None = None, **kwargs: Any) -> None:
    """scoring.signals.round_posted (connected in apps.py), inside the posting's
    transaction: the pages open with the posting, or not at all."""
    release_following(event_pk=round_.event_id, pages=pages_on_post(round_=round_), by=by)
