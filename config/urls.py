"""Top-level URL routes.

The tournament app owns the public pages at the site root; `i18n/` hosts Django's
set_language view so the language switcher works without extra code.
"""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("scoring.urls")),
    path("", include("printouts.urls")),
    path("", include("tournament.urls")),
]
