"""Organizer and judge routes: events, the player list, check-in, no-shows, ejections.

``page_patterns`` answer GET; ``action_patterns`` only accept POST (they change something
and redirect back). The permission tests walk both lists, so a new route is checked
the moment it is added here.
"""

from django.urls import path

from . import judge_call_views, leave_views, no_show_views
from . import organizer_views as views

EVENT = "organizer/events/<int:pk>/"
PLAYER = EVENT + "players/<int:player_pk>/"

page_patterns = [
    # The tables waiting for a judge, refreshed on the desk and the head judge's clock page.
    path("organizer/judging/calls/", judge_call_views.judge_calls_panel, name="judge_calls_panel"),
    path("organizer/events/new/", views.event_create, name="event_create"),
    path(EVENT + "edit/", views.event_edit, name="event_edit"),
    path(EVENT + "players/", views.player_list, name="player_list"),
    path(EVENT + "check-in/", views.check_in, name="check_in"),
    path(PLAYER + "alias/", views.player_alias, name="player_alias"),
    path(PLAYER + "eject/", views.player_eject, name="player_eject"),
    # GET asks to confirm; the POST to the same address promotes.
    path(PLAYER + "promote/", views.waiting_promote, name="waiting_promote"),
    # Issue 15: a no-show asks to confirm first, and can be undone.
    path(
        PLAYER + "no-show/confirm/",
        no_show_views.player_no_show_confirm,
        name="player_no_show_confirm",
    ),
    # Issue 15: a withdrawal or an ejection says what happened and can be undone.
    path(PLAYER + "left/", leave_views.player_leave_result, name="player_leave_result"),
]

action_patterns = [
    path(EVENT + "fill-seat/", views.alternate_fill_seat, name="alternate_fill_seat"),
    path(PLAYER + "move/", views.alternate_move, name="alternate_move"),
    path(PLAYER + "no-show/", views.player_no_show, name="player_no_show"),
    path(PLAYER + "withdraw/", views.player_withdraw, name="player_withdraw"),
    path(PLAYER + "back-to-waiting-list/", views.waiting_return, name="waiting_return"),
    path(PLAYER + "check-in/", views.player_check_in, name="player_check_in"),
    path(PLAYER + "undo-check-in/", views.player_undo_check_in, name="player_undo_check_in"),
    path(PLAYER + "undo-no-show/", no_show_views.player_no_show_undo, name="player_no_show_undo"),
    # A table's "Judge, please": a judge takes it ("on my way"), then closes it.
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
    path(PLAYER + "undo-leave/", leave_views.player_leave_undo, name="player_leave_undo"),
]

urlpatterns = [*page_patterns, *action_patterns]
