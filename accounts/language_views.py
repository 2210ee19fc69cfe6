"""The language switch: a page and its form, for the public and for officials.

The public pages are cached and shared by every visitor, so they carry no CSRF token; they
link here, and this page (never cached) holds the form. Officials' headers post the same
form directly. Posting sets Django's language cookie (``set_language``) and, for a signed-in
official, saves the choice on their profile.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods
from django.views.i18n import set_language

from accounts.languages import language_supported, official_language_save
from tournament.pages import safe_next


def _safe_next(request: HttpRequest, candidate: str | None) -> str:
    return safe_next(request, candidate or "") or "/"


@require_http_methods(["GET", "POST"])
def language_choose(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        language = request.POST.get("language", "")
        response = set_language(request)
        if language_supported(language):
            official_language_save(user=request.user, language=language, session=request.session)
        return response
    next_url = _safe_next(request, request.GET.get("next") or request.headers.get("referer"))
    return render(
        request,
        "accounts/choose.html",
        {"next_url": next_url, "languages": settings.LANGUAGES},
    )
