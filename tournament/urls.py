"""Tournament URLs: the site root, registration, the officials' pages under organizer/.

The public event pages (event home, tables, standings...) belong to the spectator app.

Each area keeps its routes beside its views; this module only puts them together.
"""

from django.urls import path

from . import language_views, views
from .bankruptcy_urls import urlpatterns as bankruptcy_urlpatterns
from .clock_urls import urlpatterns as clock_urlpatterns
from .organizer_urls import urlpatterns as organizer_urlpatterns
from .registration_urls import urlpatterns as registration_urlpatterns
from .seating_urls import urlpatterns as seating_urlpatterns
from .tablet_urls import urlpatterns as tablet_urlpatterns

app_name = "tournament"

urlpatterns = [
    path("", views.home, name="home"),
    path("signed-in/", views.signed_in, name="signed_in"),
    path("language/", language_views.language_choose, name="language"),
    *registration_urlpatterns,
    *organizer_urlpatterns,
    *seating_urlpatterns,
    *clock_urlpatterns,
    *bankruptcy_urlpatterns,
    *tablet_urlpatterns,
]
