from django.contrib import admin

from mail.models import Message


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    """Read-only: emails are queued by the pages and sent by the workers."""

    list_display = ("pk", "kind", "key", "status", "attempts", "created_at", "sent_at")
    list_filter = ("status", "kind")
    search_fields = ("key", "error")
    # The text of a queued invitation holds the player's personal link.
    exclude = ("text", "html")
    readonly_fields = [f.name for f in Message._meta.fields if f.name not in ("text", "html")]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
