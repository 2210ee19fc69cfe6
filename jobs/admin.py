from django.contrib import admin

from jobs.models import Job, Worker


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    """Read-only: jobs are made and finished by the pages and the workers."""

    list_display = ("pk", "kind", "scope", "key", "status", "done", "total", "created_at")
    list_filter = ("status", "kind")
    search_fields = ("scope", "key", "error")
    exclude = ("params",)  # an import's pasted text holds personal data
    readonly_fields = [f.name for f in Job._meta.fields if f.name != "params"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Worker)
class WorkerAdmin(admin.ModelAdmin):
    """Read-only: each running ``jobs_worker`` writes its own row."""

    list_display = ("name", "host", "pid", "started_at", "seen_at")
    readonly_fields = [f.name for f in Worker._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
