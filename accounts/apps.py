"""Officials' accounts: signing in (throttled), and the language an official reads."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # Connect the receiver that marks a browser as a known device on every login.
        from accounts import signin  # noqa: F401
