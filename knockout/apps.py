"""The knockout: the bracket's plan, its confirmation and seating the next round."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KnockoutConfig(AppConfig):
    name = "knockout"
    verbose_name = _("Knockout")
