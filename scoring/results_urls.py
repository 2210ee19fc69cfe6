"""Results routes: judges' table status, approvals and corrections, ties, posting, standings."""

page_patterns: list = []
action_patterns: list = []
urlpatterns = [*page_patterns, *action_patterns]
