"""Views as the type checker should see them: the requests they are handed, the marks the
decorators put on them.

Django's ``HttpRequest`` says neither that django-htmx's middleware (in every request's
path, config/settings.py) has set ``request.htmx``, nor that a view behind one of
``tournament.access``'s decorators has a signed-in user: a view that reads either says so
by taking one of these. They are annotations only; no request is ever built from them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request behind ``login_required``: its user is a ``User``, never anonymous."""

    user: User


def mark_view(view: Callable[..., Any], **marks: Any) -> None:
    """Set ``marks`` as attributes of a wrapped view (``required_permission``, ``idempotent``,
    ...), which ``tournament.access.may_open`` and the security tests read back: a function's
    type has no such attributes, so they are set through its ``__dict__``."""
    vars(view).update(marks)
