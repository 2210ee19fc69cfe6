"""Boardwalk's project-wide app: it holds no models, only the system checks."""

from django.apps import AppConfig


class BoardwalkConfig(AppConfig):
    name = "config"
    label = "boardwalk"
    verbose_name = "Boardwalk"

    def ready(self) -> None:
        from config import checks  # noqa: F401  (registers them)
