from django.urls import path

from printouts import views

app_name = "printouts"

EVENT = "organizer/events/<int:pk>/"

urlpatterns = [
    path(EVENT + "printouts/", views.printouts_index, name="index"),
    path(EVENT + "printouts/jobs/", views.jobs_panel, name="jobs"),
    path(EVENT + "printouts/jobs/<int:job_pk>/", views.job_page, name="job"),
    path(EVENT + "printouts/jobs/<int:job_pk>/download/", views.job_download, name="job_download"),
    path(EVENT + "printouts/jobs/<int:job_pk>/retry/", views.job_try_again, name="job_retry"),
    path(EVENT + "score-sheet.pdf", views.blank_score_sheet, name="blank_score_sheet"),
    path(
        EVENT + "rounds/<int:number>/score-sheets.pdf",
        views.round_score_sheets,
        name="round_score_sheets",
    ),
    path(
        EVENT + "tables/<int:table_pk>/score-sheets.pdf",
        views.table_score_sheets,
        name="table_score_sheets",
    ),
    path(
        EVENT + "rounds/<int:number>/assignments.pdf",
        views.assignments_organizer,
        name="assignments_organizer",
    ),
    path(
        EVENT + "rounds/<int:number>/assignments-public.pdf",
        views.assignments_public,
        name="assignments_public",
    ),
    path(
        EVENT + "event-registration.pdf",
        views.event_registration_form,
        name="event_registration",
    ),
    path(
        EVENT + "participant-registration.pdf",
        views.participant_registration_form,
        name="participant_registration",
    ),
    path(
        EVENT + "players/<int:player_pk>/winner-notification.pdf",
        views.winner_notification_form,
        name="winner_notification",
    ),
    path(
        EVENT + "rounds/<int:number>/table-cards.pdf",
        views.table_cards,
        name="table_cards",
    ),
    path(EVENT + "poster.pdf", views.poster, name="poster"),
]
