"""The site root, where a login lands, and the organizer's event pages (new, settings).

Each app keeps its own routes (``players.urls``, ``seating.urls``, ...); ``config/urls.py``
puts them together, each under its app's namespace. ``page_patterns`` answer GET and the
permission tests walk them.
"""

from django.urls import path

from tournament import event_views, views

app_name = "tournament"

public_patterns = [
    path("", views.home, name="home"),
    path("signed-in/", views.signed_in, name="signed_in"),
]

page_patterns = [
    path("organizer/events/new/", event_views.event_create, name="event_create"),
    path("organizer/events/<int:pk>/edit/", event_views.event_edit, name="event_edit"),
]

urlpatterns = [*public_patterns, *page_patterns]
