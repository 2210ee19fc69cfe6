"""Who reads which language: officials their saved choice, everyone else their browser's.

Django's ``LocaleMiddleware`` picks the language from the ``set_language`` cookie, else the
browser's ``Accept-Language``, else ``LANGUAGE_CODE``. An official's choice is also saved on
their profile (``OfficialProfile.language``), so it follows them to any tablet they sign in
on: ``OfficialLanguageMiddleware`` applies it after authentication. The event's own language
(``Event.language``) is for what the whole hall shares: its PDFs and the hall display.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import check_for_language

from tournament.models import OfficialProfile


def language_supported(code: str | None) -> bool:
    return bool(code) and code in dict(settings.LANGUAGES) and check_for_language(code)


# The saved language, read once per session (at sign-in) rather than on every request.
SESSION_KEY = "boardwalk_official_language"


def official_language(*, user, session=None) -> str:
    """The language an official saved, or "" when they have not chosen one."""
    if not getattr(user, "is_authenticated", False):
        return ""
    if session is not None and SESSION_KEY in session:
        code = session[SESSION_KEY]
    else:
        profile = OfficialProfile.objects.filter(user=user).values_list("language", flat=True)
        code = profile.first() or ""
        if session is not None:
            session[SESSION_KEY] = code
    return code if language_supported(code) else ""


def official_language_save(*, user, language: str, session=None) -> None:
    """Remember an official's language on their profile (the switch in their header)."""
    if not getattr(user, "is_authenticated", False) or not language_supported(language):
        return
    OfficialProfile.objects.update_or_create(user=user, defaults={"language": language})
    if session is not None:
        session[SESSION_KEY] = language


class OfficialLanguageMiddleware:
    """After authentication: a signed-in official's saved language wins over the browser."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = official_language(
            user=getattr(request, "user", None), session=getattr(request, "session", None)
        )
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
