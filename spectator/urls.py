"""The public site's routes, and the organizer's page that releases them.

``public_patterns`` need no login and show aliases only; each page has a ``_live``
fragment its htmx polls. ``page_patterns`` and ``action_patterns`` (POST) are the
organizer's (the permission matrix in tests/project/test_permissions.py walks them).
"""

from django.urls import path

from spectator import hall_views, views

app_name = "spectator"

EVENT = "events/<int:pk>/"
ROUND = EVENT + "rounds/<int:number>/"
LIVE = EVENT + "live/"

public_patterns = [
    path("events/<int:pk>/hall/", hall_views.hall_display, name="hall_display"),
    path("events/<int:pk>/hall/state/", hall_views.hall_state, name="hall_state"),
    path(EVENT, views.event_home, name="event_home"),
    path(ROUND + "tables/", views.tables, name="tables"),
    path(ROUND + "results/", views.results, name="results"),
    path(EVENT + "standings/", views.standings, name="standings"),
    path(EVENT + "final/", views.final, name="final"),
    path(EVENT + "winner/", views.winner, name="winner"),
    path(EVENT + "follow/", views.follow, name="follow"),
    path(LIVE + "home/", views.event_home_live, name="home_live"),
    path(LIVE + "rounds/<int:number>/tables/", views.tables_live, name="tables_live"),
    path(LIVE + "rounds/<int:number>/results/", views.results_live, name="results_live"),
    path(LIVE + "standings/", views.standings_live, name="standings_live"),
    path(LIVE + "final/", views.final_live, name="final_live"),
    path(LIVE + "winner/", views.winner_live, name="winner_live"),
    path(LIVE + "follow/", views.follow_live, name="follow_live"),
]

page_patterns = [
    path("organizer/events/<int:pk>/public/", views.release, name="release"),
]

action_patterns = [
    path("organizer/events/<int:pk>/public/pages/", views.release_pages, name="release_pages"),
]

urlpatterns = [*public_patterns, *page_patterns, *action_patterns]
