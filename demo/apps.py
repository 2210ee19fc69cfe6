"""App configuration for the demo app (its management commands: load_demo, simulate_event)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    """Installed so Django finds ``load_demo`` and ``simulate_event``; it has no models."""

    name = "demo"
    verbose_name = _("Demo")

    def ready(self) -> None:
        from accounts.signin import login_accounts_register
        from demo import checks  # noqa: F401  (registers the demo-password deploy check)
        from demo.signins import demo_usernames

        # The login page names the demo's accounts while DEBUG is on (demo/signins.py).
        login_accounts_register(demo_usernames)
