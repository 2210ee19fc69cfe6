"""The officials' start pages, the event cockpit and the judges' calls; the permission tests
walk ``page_patterns`` and ``action_patterns``."""

from django.urls import path

from cockpit import judge_call_views, views

app_name = "cockpit"

EVENT = "organizer/events/<int:pk>/"

page_patterns = [
    path("organizer/", views.events_home, name="events_home"),
    path("organizer/judging/", views.judges_desk, name="judges_desk"),
    path("organizer/events/<int:pk>/", views.cockpit, name="cockpit"),
    path("organizer/judging/calls/", judge_call_views.judge_calls_panel, name="judge_calls_panel"),
]

action_patterns = [
    path(
        EVENT + "judge-calls/<int:call_pk>/take/",
        judge_call_views.judge_call_take,
        name="judge_call_take",
    ),
    path(
        EVENT + "judge-calls/<int:call_pk>/close/",
        judge_call_views.judge_call_close,
        name="judge_call_close",
    ),
]

urlpatterns = [*page_patterns, *action_patterns]
