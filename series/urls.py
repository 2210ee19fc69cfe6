"""The series' routes: the organizer's pages and actions, and the public pages (aliases
only, each shown once the organizer releases it)."""

from django.urls import path

from series import invitation_views, public_views, views

app_name = "series"

SERIES = "organizer/series/<int:series_pk>/"

page_patterns = [
    path("organizer/series/", views.series_list, name="list"),
    path(SERIES, views.series_detail, name="detail"),
    path(SERIES + "<str:division>/invite/", views.invite, name="invite"),
    path(SERIES + "<str:division>/alternates/", views.alternates, name="alternates"),
    path(SERIES + "<str:division>/confirm/", views.confirm, name="confirm"),
    path(SERIES + "<str:division>/finals/", views.finals, name="finals"),
    path(SERIES + "entrants/<int:entrant_pk>/decline/", views.decline, name="decline"),
    path(SERIES + "people/", views.people, name="people"),
    path(SERIES + "public/", views.release, name="release"),
]
action_patterns = [
    path(SERIES + "events/", views.add_event, name="add_event"),
    path(SERIES + "events/<int:member_pk>/places/", views.places, name="places"),
    path(SERIES + "<str:division>/qualify/", views.qualify, name="qualify"),
    path(SERIES + "entrants/<int:entrant_pk>/accept/", views.accept, name="accept"),
    path(SERIES + "people/merge/", views.merge, name="merge"),
    path(SERIES + "people/split/", views.split, name="split"),
    path(SERIES + "invitations/deadline/", invitation_views.deadline, name="deadline"),
    path(SERIES + "entrants/<int:entrant_pk>/resend/", invitation_views.resend, name="resend"),
]
public_patterns = [
    path("series/<int:series_pk>/", public_views.home, name="public_home"),
    path("series/<int:series_pk>/qualifiers/", public_views.qualifiers, name="public_qualifiers"),
    path("series/<int:series_pk>/entrants/", public_views.entrants, name="public_entrants"),
    path("series/<int:series_pk>/champion/", public_views.champion, name="public_champion"),
    # A qualifier's personal link (series/invitation_mail.py): no login, the token is the key.
    path("series/<int:series_pk>/answer/<str:token>/", invitation_views.answer, name="answer"),
]

urlpatterns = [*public_patterns, *page_patterns, *action_patterns]
