"""Banker routes: a table's score sheets on the tablet, reached by private link or login.

``public_patterns`` is the private link itself (the key is the credential). The sheet's
pages and actions take a banker's login or that table's link (``banker.access.sheet_access``);
the link's own page and actions are the organizer's.
"""

from django.urls import path

from banker import bankruptcy_urls, offline_urls, offline_views, table_views, views

app_name = "banker"

TABLE = "bank/tables/<int:table_pk>/"
SHEET = TABLE + "sheet/"
LINK = "organizer/tables/<int:table_pk>/banker-link/"

public_patterns = [
    path("bank/k/<str:key>/", views.banker_link_open, name="banker_link_open"),
]

page_patterns: list = [
    # A banker's landing page after login: their tables, or why there are none.
    path("bank/", views.banker_tables, name="banker_tables"),
    path(TABLE, table_views.banker_table, name="banker_table"),
    path(TABLE + "rules/", offline_views.table_rules, name="table_rules"),
    path(SHEET, views.banker_sheet, name="banker_sheet"),
    path(LINK, views.banker_link_page, name="banker_link"),
]

action_patterns: list = [
    path(TABLE + "last-turn/", table_views.table_last_turn, name="table_last_turn"),
    path(TABLE + "game-over/", table_views.table_finished, name="table_finished"),
    path(TABLE + "reopen/", table_views.table_reopen, name="table_reopen"),
    path(TABLE + "judge/", table_views.table_judge_please, name="table_judge_please"),
    path(SHEET + "validate/", views.sheet_validate, name="sheet_validate"),
    path(SHEET + "draft/", views.sheet_draft, name="sheet_draft"),
    path(SHEET + "submit/", views.sheet_submit, name="sheet_submit"),
    path(SHEET + "sign/", views.sheet_sign, name="sheet_sign"),
    path(LINK + "issue/", views.banker_link_issue, name="banker_link_issue"),
    path(LINK + "revoke/", views.banker_link_revoke, name="banker_link_revoke"),
]

public_patterns += offline_urls.public_patterns
page_patterns += bankruptcy_urls.page_patterns
action_patterns += [*offline_urls.action_patterns, *bankruptcy_urls.action_patterns]

urlpatterns = [*public_patterns, *page_patterns, *action_patterns]
