"""Seating: pre-seating with the engine (seating/engine/), stages, judges' moves, re-seating."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeatingConfig(AppConfig):
    name = "seating"
    verbose_name = _("Seating")
