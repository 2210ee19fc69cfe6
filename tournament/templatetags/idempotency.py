"""``{% idempotency_key %}``: the hidden key that makes an official's form post apply once.

Each rendering draws a fresh UUID, so the same rendered form sent twice (a double tap, a
resent page) carries one key and ``tournament.idempotency.official_idempotent`` applies it
once, while the form drawn again after the answer gets a new key for the next action.
"""

from __future__ import annotations

import uuid

from django import template
from django.utils.html import format_html

from tournament.idempotency import FIELD

register = template.Library()


@register.simple_tag
def idempotency_key() -> str:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, uuid.uuid4())
