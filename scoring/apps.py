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
        from tournament.knockout_services import knockout_stand_in_register

        from .access import link_grants
        from .knockout_stand_ins import stand_in_for

        table_grant_register(link_grants)
        # A knockout winner who leaves after the next round is seated: their table's next
        # player by assets takes the seat at its start (tournament/seating_services.py).
        knockout_stand_in_register(stand_in_for)
