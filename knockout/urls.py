"""The knockout's bracket page: the plan, its confirmation, seating the next round, overrides.

``page_patterns`` answer GET and ``action_patterns`` only accept POST; the permission tests
walk both. The paths stay under the seating page's, where the bracket was first found.
"""

from django.urls import path

from knockout import views as knockout_views

app_name = "knockout"

SEATING = "organizer/events/<int:pk>/seating/"

page_patterns = [
    path(SEATING + "bracket/", knockout_views.knockout_bracket, name="knockout_bracket"),
]

action_patterns = [
    path(SEATING + "bracket/confirm/", knockout_views.knockout_confirm, name="knockout_confirm"),
    path(SEATING + "bracket/seat/", knockout_views.knockout_seat_first, name="knockout_seat"),
    path(
        SEATING + "bracket/override/withdraw/",
        knockout_views.knockout_override_withdraw,
        name="knockout_override_withdraw",
    ),
    path(SEATING + "bracket/override/", knockout_views.knockout_override, name="knockout_override"),
]

urlpatterns = [*page_patterns, *action_patterns]
