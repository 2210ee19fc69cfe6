"""App configuration for the jobs app."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JobsConfig(AppConfig):
    """Background work that an official waits for: its status, progress and file."""

    name = "jobs"
    verbose_name = _("Background jobs")
