"""Bump an event's public version whenever a row a spectator may see is saved or deleted.

Why signals and not explicit calls in the services: the public pages show data written by
many services in three apps (seating, judges' moves, alias edits, the clock, sheets and
corrections, posting, the final, the admin), and new services keep arriving. A receiver
per model catches every ``save()`` and ``delete()`` whoever makes it, so no service has to
remember the cache. The price: ``QuerySet.update()`` and ``bulk_create()`` send no
signal. Where the code uses them today (seats of a freshly seated round, result lines
of a scored table) a signalled save in the same transaction (the tables and waves, the
sheet's deletion of old lines, the posting) bumps the version anyway.

Each change bumps twice: at once, so the very next request in this process misses the
cache, and again after the transaction commits, so a page another server rendered from
the not-yet-committed state in between is never served under the new version.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from scoring.models import ResultLine, RoundPosting, StandingsTieDecision
from spectator.models import PublicRelease
from spectator.versioning import bump
from tournament.models import Clock, Event, Player, Round, Seat, Table, Wave


def _event_pk(instance) -> int | None:
    """The event a public row belongs to, or None if it cannot be found (mid-cascade)."""
    try:
        if isinstance(instance, Event):
            return instance.pk
        if isinstance(instance, Player | Round | StandingsTieDecision | PublicRelease):
            return instance.event_id
        if isinstance(instance, Seat | Table | Wave | RoundPosting):
            return Round.objects.filter(pk=instance.round_id).values_list("event_id", flat=True)[0]
        if isinstance(instance, ResultLine):
            return Table.objects.filter(pk=instance.table_id).values_list(
                "round__event_id", flat=True
            )[0]
        if isinstance(instance, Clock):
            return Wave.objects.filter(pk=instance.wave_id).values_list(
                "round__event_id", flat=True
            )[0]
    except IndexError:
        return None
    return None


def _changed(sender, instance, **kwargs) -> None:
    event_pk = _event_pk(instance)
    if event_pk is None:
        return
    bump(event_pk=event_pk)
    transaction.on_commit(partial(bump, event_pk=event_pk))


PUBLIC_MODELS = (
    Event,
    Player,
    Round,
    Wave,
    Table,
    Seat,
    Clock,
    ResultLine,
    RoundPosting,
    StandingsTieDecision,
    PublicRelease,
)

for model in PUBLIC_MODELS:
    post_save.connect(_changed, sender=model, dispatch_uid=f"spectator-{model.__name__}-save")
    post_delete.connect(_changed, sender=model, dispatch_uid=f"spectator-{model.__name__}-delete")
