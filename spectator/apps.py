from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SpectatorConfig(AppConfig):
    """The public site: what anyone may see of an event, by alias only, served from cache."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "spectator"
    verbose_name = _("Spectator pages")

    def ready(self) -> None:
        # Connect the receivers that bump an event's public version on every public change.
        from tournament.clock_selectors import (
            hall_release_register,
            hall_results_register,
            hall_winner_register,
        )

        from . import signals  # noqa: F401
        from .selectors import hall_release
        from .views import hall_results_rows, hall_winner_aliases

        # The hall display (tournament app) shows only what these switches release, and the
        # winner once this app releases it.
        hall_release_register(hall_release)
        hall_winner_register(hall_winner_aliases)
        hall_results_register(hall_results_rows)
