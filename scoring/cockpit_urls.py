"""The officials' start pages and the event cockpit's route, walked by the permission tests."""

from django.urls import path

from . import cockpit_views as views

page_patterns = [
    path("organizer/", views.events_home, name="events_home"),
    path("organizer/judging/", views.judges_desk, name="judges_desk"),
    path("organizer/events/<int:pk>/", views.cockpit, name="cockpit"),
]

urlpatterns = [*page_patterns]
