"""The series in Django's admin: for looking things up and repairs; the organizer's pages
(series/views.py) are where qualifying, answers and confirmations are done."""

from django.contrib import admin

from series.models import Confirmation, Entrant, PersonLink, Series, SeriesEvent, SeriesPerson


class SeriesEventInline(admin.TabularInline):
    model = SeriesEvent
    extra = 0
    raw_id_fields = ("event",)


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ("name", "season", "finals", "junior_finals")
    search_fields = ("name", "season")
    raw_id_fields = ("finals", "junior_finals")
    inlines = [SeriesEventInline]


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ("alias", "series", "division", "status", "response", "source", "rank")
    list_filter = ("division", "status", "response")
    search_fields = ("alias",)
    raw_id_fields = ("person", "player", "source", "finals_player")


@admin.register(SeriesPerson)
class SeriesPersonAdmin(admin.ModelAdmin):
    list_display = ("pk", "series", "email")
    search_fields = ("email",)


admin.site.register(PersonLink, raw_id_fields=("person", "player"))
admin.site.register(Confirmation)
