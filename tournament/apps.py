"""App configuration for the tournament app."""

from django.apps import AppConfig
from django.db import DEFAULT_DB_ALIAS
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _roles_after_migrate(sender, *, apps=None, using=DEFAULT_DB_ALIAS, **kwargs) -> None:
    """The role groups exist after every ``migrate`` and every ``flush``, as Django's own
    permissions do: a flush (tests that commit, ``manage.py flush``) empties the groups the
    migration 0002_roles made, and every officials' page checks them."""
    from tournament.roles import ensure_roles

    if using != DEFAULT_DB_ALIAS:
        return
    if apps is not None:  # migrate passes its models' state; flush passes none
        try:
            apps.get_model("auth", "Group")
        except LookupError:  # a partial migrate that has not reached auth yet
            return
    ensure_roles(apps)


class TournamentConfig(AppConfig):
    """Registers the tournament app under a translatable name for the admin."""

    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self) -> None:

        post_migrate.connect(_roles_after_migrate, sender=self)
