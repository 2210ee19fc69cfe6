"""What the officials' pages of every app share: a refusal as a message, a safe "next".

A view never reaches into another view module for these; each app's own shared page
helpers stand in its ``pages.py`` (``players.pages``, ``seating.pages``, ``clock.pages``).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def error_message(request: HttpRequest, error: ValidationError) -> None:
    """A service's refusal, shown as the page's message."""
    messages.error(request, " ".join(error.messages))


def safe_next(request: HttpRequest, next_url: str) -> str:
    """``next_url`` if it is an address of this site (so it may be followed), else ""."""
    if next_url and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return ""


def same_site_path(request: HttpRequest, url: str) -> str:
    """``url`` when it is a path on this site ("/...": never a view name or another host),
    else "": what a Cancel or a way back may follow."""
    return safe_next(request, url) if url.startswith("/") else ""
