"""The bankruptcy routes of the banker's table page (``bankruptcy_views``).

``page_patterns`` answer GET (the record page also takes its own POST) and
``action_patterns`` only accept POST; the permission tests walk both.
"""

from django.urls import path

from banker import bankruptcy_views as views

TABLE = "bank/tables/<int:table_pk>/"

page_patterns = [
    path(TABLE + "bankruptcy/", views.bankruptcy_record, name="bankruptcy_record"),
]

action_patterns = [
    path(TABLE + "bankruptcy/undo/", views.bankruptcy_undo, name="bankruptcy_undo"),
]

urlpatterns = [*page_patterns, *action_patterns]
