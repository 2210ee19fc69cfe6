"""One table's own settings: its banker and the language its game is played in."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .models import Table
from .roles import BANK


def table_assign_banker(*, table: Table, banker: AbstractBaseUser | None) -> Table:
    """The official who keeps the bank and the score sheets at this table (002, BANKER)."""
    if banker is not None and not banker.has_perm(BANK):
        raise ValidationError(_("%(name)s is not a banker.") % {"name": banker.get_username()})
    table.banker = banker
    table.save(update_fields=["banker"])
    return table


def table_set_language(*, table: Table, language: str) -> Table:
    """Mark the language this table's game is played in (002: "same-language games");
    empty: the event's own."""
    if language and language not in dict(settings.LANGUAGES):
        raise ValidationError(_("Choose one of the languages."))
    table.language = language
    table.save(update_fields=["language"])
    return table
