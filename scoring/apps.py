"""App configuration for the scoring app."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """Registers the scoring app under a translatable name for the admin."""

    name = "scoring"
    verbose_name = _("Scoring")
