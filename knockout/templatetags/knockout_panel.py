"""The knockout's panel on the seating page: its steps, the bracket planner, the override.

The seating page is the seating app's, which stands below the knockout; it asks for this
panel by name (``{% knockout_panel event %}``) instead of importing the knockout's views.
"""

from django import template

from knockout.views import OverrideForm, planner_context

register = template.Library()

# What the panel's forms need of the page around it (the CSRF token, the request for the
# idempotency key, the official's permissions).
PAGE_KEYS = ("csrf_token", "request", "perms", "user", "messages")


@register.inclusion_tag("knockout/_knockout.html", takes_context=True)
def knockout_panel(context: template.Context, event) -> dict:
    page = {key: context[key] for key in PAGE_KEYS if key in context}
    return {**page, **planner_context(event), "override_form": OverrideForm()}
