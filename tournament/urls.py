"""Tournament URLs: the public pages at the site root, the officials' pages under organizer/.

Each area keeps its routes beside its views; this module only puts them together.
"""

from django.urls import path

from . import views
from .clock_urls import urlpatterns as clock_urlpatterns
from .organizer_urls import urlpatterns as organizer_urlpatterns
from .registration_urls import urlpatterns as registration_urlpatterns
from .seating_urls import urlpatterns as seating_urlpatterns

app_name = "tournament"

urlpatterns = [
    path("", views.home, name="home"),
    path("events/<int:pk>/", views.event_detail, name="event_detail"),
    path("signed-in/", views.signed_in, name="signed_in"),
    *registration_urlpatterns,
    *organizer_urlpatterns,
    *seating_urlpatterns,
    *clock_urlpatterns,
]
