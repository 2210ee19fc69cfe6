"""The banker's tablet: the table page, the score sheet, signatures and the private link."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BankerConfig(AppConfig):
    name = "banker"
    verbose_name = _("Banker")
