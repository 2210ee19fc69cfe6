"""Admin screens for scoring: a back door for staff, not the way sheets are entered.

Results are written by the services from signed sheets, so they are read-only here.
"""

from django.contrib import admin

from scoring.models import (
    ResultLine,
    RoundPosting,
    SheetRevision,
    SheetSignature,
    StandingsTieDecision,
    TableSheet,
    TieDecision,
)


class SignatureInline(admin.TabularInline):
    model = SheetSignature
    extra = 0
    readonly_fields = ["player", "role", "initials", "signed_at", "by"]


class RevisionInline(admin.TabularInline):
    model = SheetRevision
    extra = 0
    readonly_fields = ["version", "kind", "changes", "by", "at", "reason"]
    exclude = ["data"]


@admin.register(TableSheet)
class TableSheetAdmin(admin.ModelAdmin):
    list_display = ["table", "status", "version", "updated_at"]
    list_filter = ["status", "table__round__event"]
    readonly_fields = ["version", "report", "last_submission_key"]
    inlines = [SignatureInline, RevisionInline]


@admin.register(ResultLine)
class ResultLineAdmin(admin.ModelAdmin):
    list_display = ["table", "player", "bankrupt", "net_worth", "place", "points"]
    list_filter = ["table__round__event", "table__round"]
    search_fields = ["player__alias"]

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(TieDecision)
class TieDecisionAdmin(admin.ModelAdmin):
    list_display = ["table", "players", "share_points", "by", "at"]


@admin.register(StandingsTieDecision)
class StandingsTieDecisionAdmin(admin.ModelAdmin):
    list_display = ["event", "order", "by", "at"]


@admin.register(RoundPosting)
class RoundPostingAdmin(admin.ModelAdmin):
    list_display = ["round", "posted_at", "posted_by"]
