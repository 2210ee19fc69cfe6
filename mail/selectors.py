"""What the organizer's pages read of the emails: the latest one of each key."""

from __future__ import annotations

from collections.abc import Iterable

from mail.models import Message


def latest_messages(*, kind: str, keys: Iterable[str]) -> dict[str, Message]:
    """The newest email of ``kind`` for each key that has one."""
    found: dict[str, Message] = {}
    for message in Message.objects.filter(kind=kind, key__in=list(keys)).order_by("pk"):
        found[message.key] = message
    return found
