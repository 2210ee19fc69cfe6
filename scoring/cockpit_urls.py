"""The event cockpit's route (``/organizer/events/<id>/``), walked by the permission tests."""

from django.urls import path

from . import cockpit_views as views

page_patterns = [
    path("organizer/events/<int:pk>/", views.cockpit, name="cockpit"),
]

urlpatterns = [*page_patterns]
