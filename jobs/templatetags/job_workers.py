"""``{% worker_notice %}``: says so when no background worker has been seen for a minute.

Pages that queue jobs (the printouts, a job's own page, the cockpit) show it, so an
organizer who waits for score sheets learns that nothing is building them, and how to
start what would.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from jobs.selectors import worker_silence

register = template.Library()


@register.inclusion_tag("jobs/_no_worker.html")
def worker_notice() -> dict:
    return {
        "silence": worker_silence(),
        # Commands, not words: the same in every language.
        "make_run": format_html("<code>{}</code>", "make run"),
        "worker_command": format_html("<code>{}</code>", ".venv/bin/python manage.py jobs_worker"),
    }
