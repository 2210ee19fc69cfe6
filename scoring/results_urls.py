"""Results routes: judges' table status, approvals and corrections, ties, posting, standings.

As in ``players.urls``, ``page_patterns`` answer GET (the correction page
also takes its own POST) and ``action_patterns`` only accept POST; the permission tests
in tests/scoring/test_results_pages.py walk both. The public standings and results are the
spectator app's.
"""

from django.urls import path

from scoring import results_views as views
from scoring import standings_views

EVENT = "organizer/events/<int:pk>/"
ROUND = EVENT + "results/<int:round_number>/"
TABLE = ROUND + "tables/<int:table_number>/"

page_patterns = [
    path(ROUND, views.results_round, name="results_round"),
    path(TABLE, views.results_table, name="results_table"),
    path(TABLE + "correct/", views.results_correct, name="results_correct"),
    path(ROUND + "results.csv", views.results_csv, name="results_csv"),
    path(EVENT + "standings/", standings_views.standings, name="standings"),
    path(EVENT + "standings.csv", standings_views.standings_csv, name="standings_csv"),
]

action_patterns = [
    path(TABLE + "approve/", views.results_approve, name="results_approve"),
    path(TABLE + "tie/", views.results_tie, name="results_tie"),
    path(ROUND + "post/", views.results_post, name="results_post"),
    path(ROUND + "unpost/", views.results_unpost, name="results_unpost"),
    path(EVENT + "standings/tie/", standings_views.standings_tie, name="standings_tie"),
    path(
        EVENT + "standings/tie-breakers/",
        standings_views.standings_tie_breakers,
        name="standings_tie_breakers",
    ),
    path(EVENT + "final/", standings_views.final_seat, name="final_seat"),
]

urlpatterns = [*page_patterns, *action_patterns]
