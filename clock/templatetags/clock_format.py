"""Times on the officials' clock pages in minutes and seconds, never as a count of seconds."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def signed_duration(seconds: int | float | None) -> str:
    """+5:00 for 300, -1:30 for -90: how much time a clock action added or removed."""
    if not seconds:
        return "0:00"
    minutes, secs = divmod(round(abs(seconds)), 60)
    return f"{'+' if seconds > 0 else '-'}{minutes}:{secs:02d}"
