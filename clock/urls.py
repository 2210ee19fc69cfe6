"""The official clock's routes.

``public_patterns`` need no login (the hall display and the state it polls show aliases
only). ``page_patterns`` answer GET and ``action_patterns`` only accept POST; both are
protected, and the permission tests walk them like the organizer routes.
"""

from django.urls import path

from clock import views

app_name = "clock"

EVENT = "organizer/events/<int:pk>/"
WAVE_CLOCK = EVENT + "waves/<int:wave_pk>/clock/"

public_patterns = [
    path(
        "events/<int:pk>/waves/<int:wave_pk>/clock/state/",
        views.wave_state,
        name="wave_clock_state",
    ),
]

page_patterns = [
    path(EVENT + "clock/", views.clock_control, name="clock_control"),
    path(WAVE_CLOCK + "card/", views.clock_card, name="clock_card"),
    # Championship Rules, BANKERS: "They will also have a copy of the rules".
]

action_patterns = [
    path(WAVE_CLOCK + "start/", views.clock_start, name="clock_start"),
    path(WAVE_CLOCK + "pause/", views.clock_pause, name="clock_pause"),
    path(WAVE_CLOCK + "resume/", views.clock_resume, name="clock_resume"),
    path(WAVE_CLOCK + "adjust/", views.clock_adjust, name="clock_adjust"),
    path(WAVE_CLOCK + "end/", views.clock_end, name="clock_end"),
    path(
        EVENT + "rounds/<int:round_pk>/announcements/add/",
        views.announcement_add,
        name="announcement_add",
    ),
    path(
        EVENT + "announcements/<int:announcement_pk>/delete/",
        views.announcement_delete,
        name="announcement_delete",
    ),
    # "Judge, please" (Championship Rules: the banker "will raise their arm"); judges answer it on
    # their desk (organizer_urls).
]

urlpatterns = [*public_patterns, *page_patterns, *action_patterns]
