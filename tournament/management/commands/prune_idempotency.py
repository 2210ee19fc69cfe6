"""Forget the stored answers of idempotent writes older than a day.

Every new write already prunes its own kind (``tournament.idempotency.prune``); this is for
a quiet site, e.g. from cron once a night: ``manage.py prune_idempotency``.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tournament.idempotency import prune
from tournament.models import OfficialWrite, TabletWrite


class Command(BaseCommand):
    help = "Forget the stored answers of banker and officials' writes older than a day."

    def handle(self, *args, **options) -> None:
        tablet = prune(model=TabletWrite)
        official = prune(model=OfficialWrite)
        self.stdout.write(f"Pruned {tablet} tablet writes and {official} officials' writes.")
