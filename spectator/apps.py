from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SpectatorConfig(AppConfig):
    """The public site: what anyone may see of an event, by alias only, served from cache."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "spectator"
    verbose_name = _("Spectator pages")

    def ready(self) -> None:
        # Connect the receivers that bump an event's public version on every public change.
        from scoring.signals import round_posted
        from tournament.clock_selectors import (
            hall_release_register,
            hall_results_register,
            hall_winner_register,
        )
        from tournament.public_site import public_site_register
        from tournament.signals import round_published

        from . import signals  # noqa: F401
        from .selectors import hall_release, public_site
        from .services import on_round_posted, on_round_published
        from .views import hall_results_rows, hall_winner_aliases

        # The hall display (tournament app) shows only what these switches release, and the
        # winner once this app releases it.
        hall_release_register(hall_release)
        hall_winner_register(hall_winner_aliases)
        hall_results_register(hall_results_rows)
        # Unless the organizer holds the public site, the pages follow publishing and
        # posting; the officials' messages read the switches to say what is public.
        round_published.connect(on_round_published, dispatch_uid="spectator-follow-publish")
        round_posted.connect(on_round_posted, dispatch_uid="spectator-follow-post")
        public_site_register(public_site)
