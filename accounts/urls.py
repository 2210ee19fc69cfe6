"""An official's language (the sign-in pages are Django's, routed in ``config/urls.py``)."""

from django.urls import path

from accounts import language_views

app_name = "accounts"

urlpatterns = [
    path("language/", language_views.language_choose, name="language"),
]
