"""The banker tablet's offline routes (``offline_views``): its service worker and manifest
(public, they hold no one's data) and its heartbeat (the table's tablet only)."""

from django.urls import path

from banker import offline_views as views

public_patterns = [
    path("bank/sw.js", views.service_worker, name="tablet_service_worker"),
    path("bank/manifest.webmanifest", views.manifest, name="tablet_manifest"),
]

action_patterns = [
    path("bank/tables/<int:table_pk>/heartbeat/", views.tablet_heartbeat, name="tablet_heartbeat"),
]

urlpatterns = [*public_patterns, *action_patterns]
