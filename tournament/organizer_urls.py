"""Organizer and judge routes: events, the player list, check-in, no-shows, ejections."""

urlpatterns: list = []
