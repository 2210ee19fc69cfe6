"""Top-level URL routes.

The spectator app owns the public event pages and the tournament app the rest of the site
root; `i18n/` hosts Django's set_language view so the language switcher works without
extra code.
"""

from django.contrib import admin
from django.urls import include, path

from accounts.signin import (
    ForgetfulLogoutView,
    ThrottledAdminAuthenticationForm,
    ThrottledLoginView,
    ThrottledPasswordChangeView,
    ThrottledPasswordResetView,
)
from config import views

# The admin's login page checks passwords through the same throttled backend; this form
# says "wait" instead of "wrong" when an attempt was refused (accounts/signin.py).
admin.site.login_form = ThrottledAdminAuthenticationForm

# A request too large to read gets a page that says so (413) instead of a bare 400.
handler400 = "config.views.bad_request"
# Branded error pages that lead back to the event (the 500 needs no database or context).
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"

urlpatterns = [
    path("health/", views.health, name="health"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # Before Django's own auth URLs: the same pages, with their throttles.
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", ForgetfulLogoutView.as_view(), name="logout"),
    path("accounts/password_reset/", ThrottledPasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password_change/",
        ThrottledPasswordChangeView.as_view(),
        name="password_change",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    # The public pages first: a hall full of phones polls them, so they resolve quickest.
    path("", include("spectator.urls")),
    path("", include("cockpit.urls")),
    path("", include("banker.urls")),
    path("", include("scoring.urls")),
    path("", include("series.urls")),
    path("", include("printouts.urls")),
    path("", include("clock.urls")),
    path("", include("knockout.urls")),
    path("", include("seating.urls")),
    path("", include("players.urls")),
    path("", include("accounts.urls")),
    path("", include("tournament.urls")),
]
