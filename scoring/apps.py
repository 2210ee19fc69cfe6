"""App configuration for the scoring app."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """The scoring app, and the knockout stand-in it lends to the seating of a round."""

    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from scoring.knockout_stand_ins import stand_in_for
        from seating.services import knockout_stand_in_register

        # A knockout winner who leaves after the next round is seated: their table's next
        # player by assets takes the seat at its start (seating/services.py).
        knockout_stand_in_register(stand_in_for)
