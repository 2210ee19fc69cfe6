"""Admin screens: organizers manage events here until dedicated pages exist."""

from django.contrib import admin

from .models import Event


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Lists events newest first, searchable by the names organizers remember."""

    list_display = ["name", "date", "start_time", "venue", "organization", "format", "edition"]
    list_filter = ["format", "date"]
    search_fields = ["name", "organization", "venue"]
    date_hierarchy = "date"
