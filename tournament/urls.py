"""Public tournament pages, mounted at the site root."""

from django.urls import path

from . import views

app_name = "tournament"

urlpatterns = [
    path("", views.home, name="home"),
    path("events/<int:pk>/", views.event_detail, name="event_detail"),
]
