"""Registration routes: self-registration, on-the-day entry, CSV import and export."""

from django.urls import path

from players import registration_views as views

urlpatterns: list = [
    path("events/<int:pk>/register/", views.register, name="register"),
    path("events/<int:pk>/register/done/", views.register_done, name="register_done"),
    path("organizer/events/<int:pk>/players/add/", views.player_add, name="player_add"),
    path("organizer/events/<int:pk>/players/import/", views.player_import, name="player_import"),
    path(
        "organizer/events/<int:pk>/players/import/retry/",
        views.player_import_retry,
        name="player_import_retry",
    ),
    # The import's template, to fill in.
    path(
        "organizer/events/<int:pk>/players/import/template.csv",
        views.player_import_template,
        name="player_import_template",
    ),
    path(
        "organizer/events/<int:pk>/players/export.csv",
        views.player_export,
        name="player_export",
    ),
]
