"""Players' routes: registration, the player list, check-in, alternates, no-shows, leaving.

``page_patterns`` answer GET; ``action_patterns`` only accept POST (they change something
and redirect back). The permission tests walk both lists, so a new route is checked
the moment it is added here.
"""

from django.urls import path

from players import leave_views, no_show_views, views
from players.registration_urls import urlpatterns as registration_urlpatterns

app_name = "players"

EVENT = "organizer/events/<int:pk>/"
PLAYER = EVENT + "players/<int:player_pk>/"

page_patterns = [
    # The tables waiting for a judge, refreshed on the desk and the head judge's clock page.
    path(EVENT + "players/", views.player_list, name="player_list"),
    path(EVENT + "check-in/", views.check_in, name="check_in"),
    path(PLAYER + "alias/", views.player_alias, name="player_alias"),
    path(PLAYER + "eject/", views.player_eject, name="player_eject"),
    # GET asks to confirm; the POST to the same address promotes.
    path(PLAYER + "promote/", views.waiting_promote, name="waiting_promote"),
    # A no-show asks to confirm first, and can be undone.
    path(
        PLAYER + "no-show/confirm/",
        no_show_views.player_no_show_confirm,
        name="player_no_show_confirm",
    ),
    # A withdrawal or an ejection says what happened and can be undone.
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
    path(PLAYER + "undo-leave/", leave_views.player_leave_undo, name="player_leave_undo"),
]

urlpatterns = [*registration_urlpatterns, *page_patterns, *action_patterns]
