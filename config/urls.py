"""Top-level URL routes.

The spectator app owns the public event pages and the tournament app the rest of the site
root; `i18n/` hosts Django's set_language view so the language switcher works without
extra code.
"""

from django.contrib import admin
from django.urls import include, path

from tournament.access import ThrottledLoginView

from . import views

urlpatterns = [
    path("health/", views.health, name="health"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # Before Django's own auth URLs: the same login page, with failed attempts throttled.
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    # The public pages first: a hall full of phones polls them, so they resolve quickest.
    path("", include("spectator.urls")),
    path("", include("scoring.urls")),
    path("", include("printouts.urls")),
    path("", include("tournament.urls")),
]
