"""The official clock of each wave, its controls and the round's announcements."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClockConfig(AppConfig):
    name = "clock"
    verbose_name = _("Clock")
