"""App configuration for the mail app."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MailConfig(AppConfig):
    """Emails to players: each one rendered once, then sent in the background with retries."""

    name = "mail"
    verbose_name = _("Emails")
    default_auto_field = "django.db.models.BigAutoField"
