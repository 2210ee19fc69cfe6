"""The officials' day: the event cockpit, the officials' home and the judges' desk."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CockpitConfig(AppConfig):
    name = "cockpit"
    verbose_name = _("Cockpit")
