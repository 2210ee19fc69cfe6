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
        from spectator import signals  # noqa: F401
        from spectator.selectors import public_site
        from spectator.services import on_round_posted, on_round_published
        from tournament.public_site import public_site_register
        from tournament.signals import round_published

        # Unless the organizer holds the public site, the pages follow publishing and
        # posting; the officials' messages read the switches to say what is public.
        round_published.connect(on_round_published, dispatch_uid="spectator-follow-publish")
        round_posted.connect(on_round_posted, dispatch_uid="spectator-follow-post")
        public_site_register(public_site)
