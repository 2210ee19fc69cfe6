"""App configuration for the tournament app."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    """Registers the tournament app under a translatable name for the admin."""

    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Connect the receiver that marks a browser as a known device on every login.
        from . import signin  # noqa: F401
