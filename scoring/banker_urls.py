"""Banker routes: a table's score sheets on the tablet, reached by private link or login."""

page_patterns: list = []
action_patterns: list = []
urlpatterns = [*page_patterns, *action_patterns]
