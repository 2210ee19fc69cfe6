"""The official clock's routes.

``public_patterns`` need no login (the hall display and the state it polls show aliases
only). ``page_patterns`` answer GET and ``action_patterns`` only accept POST; both are
protected, and the permission tests walk them like the organizer routes.
"""

from django.urls import path

from . import clock_views as views
from . import judge_call_views, tablet_views

EVENT = "organizer/events/<int:pk>/"
WAVE_CLOCK = EVENT + "waves/<int:wave_pk>/clock/"
TABLE = "bank/tables/<int:table_pk>/"

public_patterns = [
    path("events/<int:pk>/hall/", views.hall_display, name="hall_display"),
    path("events/<int:pk>/hall/state/", views.hall_state, name="hall_state"),
    path(
        "events/<int:pk>/waves/<int:wave_pk>/clock/state/",
        views.wave_state,
        name="wave_clock_state",
    ),
]

page_patterns = [
    path(EVENT + "clock/", views.clock_control, name="clock_control"),
    path(WAVE_CLOCK + "card/", views.clock_card, name="clock_card"),
    path(TABLE, views.banker_table, name="banker_table"),
    # 002, BANKERS: "They will also have a copy of the rules".
    path(TABLE + "rules/", tablet_views.table_rules, name="table_rules"),
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
    path(TABLE + "last-turn/", views.table_last_turn, name="table_last_turn"),
    path(TABLE + "game-over/", views.table_finished, name="table_finished"),
    path(TABLE + "reopen/", views.table_reopen, name="table_reopen"),
    # "Judge, please" (002: the banker "will raise their arm"); judges answer it on their
    # desk (organizer_urls).
    path(TABLE + "judge/", judge_call_views.table_judge_please, name="table_judge_please"),
]

urlpatterns = [*public_patterns, *page_patterns, *action_patterns]
