"""Content-Security-Policy on every response (Django 5.2 has none built in).

Boardwalk's pages load their scripts and styles from its own static files only: no
inline ``<script>``, no ``style=`` attributes, no ``<style>`` blocks (htmx's own indicator
style is switched off by the ``htmx-config`` meta tag in base.html and lives in
boardwalk.css). ``json_script`` blocks are ``type="application/json"``, data that is never
executed, so the policy allows them without a nonce. The QR codes are inline SVG
elements, not images, so ``img-src`` only needs ``data:`` for the browser's own icons.

The policy goes on every response, PDFs and JSON included: a header the browser ignores
costs nothing, and an exemption list is one more thing to forget. A view that sets its
own ``Content-Security-Policy`` header keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

DEFAULT_POLICY: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def policy_header(policy: dict[str, str]) -> str:
    return "; ".join(f"{directive} {sources}" for directive, sources in policy.items())


class ContentSecurityPolicyMiddleware:
    """Add ``settings.CONTENT_SECURITY_POLICY`` (default: ``DEFAULT_POLICY``) to responses."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.header = policy_header(getattr(settings, "CONTENT_SECURITY_POLICY", DEFAULT_POLICY))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.header)
        return response
