"""Admin screens: a back door for organizers and developers, not the way events are run.

Every list is searchable by the names officials remember; real names appear here because
the admin is for staff only.
"""

from django.contrib import admin

from tournament.models import (
    Announcement,
    Bankruptcy,
    Clock,
    ClockAction,
    Event,
    OfficialProfile,
    Player,
    Round,
    Seat,
    Table,
    Wave,
)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "start_time", "venue", "organization", "format", "edition"]
    list_filter = ["format", "date"]
    search_fields = ["name", "organization", "venue"]
    date_hierarchy = "date"


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["alias", "first_name", "last_name", "event", "status", "alternate_position"]
    list_filter = ["event", "status", "source"]
    search_fields = ["alias", "first_name", "last_name", "email"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "wave", "banker", "status"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "kind", "started_at", "assignments_published"]
    list_filter = ["event", "kind"]
    inlines = [TableInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "position", "player"]
    list_filter = ["round__event", "round"]
    search_fields = ["player__alias", "player__first_name", "player__last_name"]


class ClockActionInline(admin.TabularInline):
    model = ClockAction
    extra = 0
    readonly_fields = ["kind", "at", "by", "seconds", "reason"]
    can_delete = False


@admin.register(Clock)
class ClockAdmin(admin.ModelAdmin):
    list_display = ["wave", "duration_seconds", "started_at", "ended_at"]
    inlines = [ClockActionInline]


admin.site.register([Wave, Announcement, Bankruptcy, OfficialProfile])
