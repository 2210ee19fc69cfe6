"""App configuration for the scoring app."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """The scoring app, and the private-link grant it lends to the banker pages."""

    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        # The table card's private link opens every banker page of its table, including
        # the tournament app's clock page (tournament/access.py banker_required).
        from tournament.access import table_grant_register

        from .access import link_grants

        table_grant_register(link_grants)
