"""Boardwalk's own deployment checks, run by ``manage.py check --deploy``.

Each catches a production mistake that nothing else would show before the day it hurts:
password resets that can never arrive, a client-address header that is set but believed
from nobody, and a cache that each process keeps to itself. (Demo accounts that still open
with their demo passwords are the demo app's check: ``demo/checks.py``.)
"""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register

SMTP = "django.core.mail.backends.smtp.EmailBackend"


@register(Tags.security, deploy=True)
def email_configured(app_configs, **kwargs) -> list[Warning]:
    """Without a mail server every password reset fails, and only the log says so."""
    if settings.DEBUG or settings.EMAIL_BACKEND != SMTP or settings.EMAIL_HOST:
        return []
    return [
        Warning(
            "No mail server is configured, so password reset emails cannot be sent.",
            hint="Set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, "
            "DEFAULT_FROM_EMAIL) in the environment; see the README.",
            id="boardwalk.W001",
        )
    ]


@register(Tags.security, deploy=True)
def client_ip_header_trusted(app_configs, **kwargs) -> list[Warning]:
    """The header is believed only from DJANGO_TRUSTED_PROXIES; with none, it is ignored."""
    header = getattr(settings, "BOARDWALK_CLIENT_IP_HEADER", "")
    if not header or getattr(settings, "BOARDWALK_TRUSTED_PROXIES", []):
        return []
    return [
        Warning(
            f"DJANGO_CLIENT_IP_HEADER={header} is set but DJANGO_TRUSTED_PROXIES is empty, so "
            "the header is never believed and every visitor counts as the proxy.",
            hint="Set DJANGO_TRUSTED_PROXIES to the reverse proxy's address, e.g. 127.0.0.1.",
            id="boardwalk.W002",
        )
    ]


LOCAL_MEMORY = "django.core.cache.backends.locmem.LocMemCache"


@register(Tags.caches, deploy=True)
def cache_shared(app_configs, **kwargs) -> list[Warning]:
    """Production is always several processes: gunicorn's workers, a second instance, the
    background worker. Each keeps its own memory cache, so a change made through one (a new
    public version, a throttle's count) is never seen by the others, which go on serving
    the pages they cached before it."""
    if settings.DEBUG or settings.CACHES.get("default", {}).get("BACKEND") != LOCAL_MEMORY:
        return []
    return [
        Warning(
            "The cache is each process's own memory (REDIS_URL is not set): with more than one "
            "gunicorn worker, instance or background worker, the others keep serving public "
            "pages from before a change, and each counts the sign-in throttles alone.",
            hint="Set REDIS_URL, e.g. redis://127.0.0.1:6379/0, the same on every server "
            "(README, Production).",
            id="boardwalk.W003",
        )
    ]
