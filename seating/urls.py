"""Seating routes: the organizer's seating page and judges' seat changes.

As in ``players.urls``, ``page_patterns`` answer GET and ``action_patterns`` only accept
POST; the permission tests walk both. The public tables are the spectator app's.
"""

from django.urls import path

from seating import change_views, draw_views, search_views, staffing_views, vacancy_views, views

app_name = "seating"

SEATING = "organizer/events/<int:pk>/seating/"
ROUND = SEATING + "<int:round_number>/"

page_patterns = [
    path(SEATING, views.seating, name="seating"),
    path(ROUND + "change/", change_views.seating_change, name="seating_change"),
    # The club knockout's bracket planner, refreshed by the seating page.
    # The long search: its own panel, loaded into the seating page.
    path(SEATING + "search/", search_views.seating_search, name="seating_search"),
    # A round's start: its empty seats, the alternates, the head judge's choice.
    path(ROUND + "vacancies/", vacancy_views.seating_vacancies, name="seating_vacancies"),
]

action_patterns = [
    path(SEATING + "preseat/", views.seating_preseat, name="seating_preseat"),
    path(SEATING + "preseat/undo/", views.seating_reseat_undo, name="seating_reseat_undo"),
    path(ROUND + "publish/", views.seating_publish, name="seating_publish"),
    path(ROUND + "redraw/", draw_views.seating_redraw, name="seating_redraw"),
    path(ROUND + "start/", views.seating_start, name="seating_start"),
    path(ROUND + "fill-vacancies/", views.seating_fill_vacancies, name="seating_fill_vacancies"),
    path(
        ROUND + "vacancies/decide/",
        vacancy_views.seating_vacancies_decide,
        name="seating_vacancies_decide",
    ),
    path(ROUND + "call-start/", vacancy_views.seating_call_start, name="seating_call_start"),
    path(ROUND + "tables/<int:table_number>/roll/", views.seating_roll, name="seating_roll"),
    path(
        ROUND + "tables/<int:table_number>/banker/",
        staffing_views.seating_banker,
        name="seating_banker",
    ),
    path(
        ROUND + "tables/<int:table_number>/player-banker/",
        staffing_views.seating_player_banker,
        name="seating_player_banker",
    ),
    path(
        ROUND + "tables/<int:table_number>/language/",
        views.seating_table_language,
        name="seating_table_language",
    ),
    path(
        ROUND + "tables/<int:table_number>/rolls/",
        views.seating_record_rolls,
        name="seating_record_rolls",
    ),
]

action_patterns += [
    path(SEATING + "search/start/", search_views.seating_search_start, name="seating_search_start"),
    path(SEATING + "search/stop/", search_views.seating_search_stop, name="seating_search_stop"),
]

urlpatterns = [*page_patterns, *action_patterns]
