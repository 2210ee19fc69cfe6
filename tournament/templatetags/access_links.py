"""Links drawn only for those they open for.

``{% allowed_url 'scoring:standings' pk=event.pk as standings_url %}`` gives the address,
or "" when the signed-in official (or the tablet) would be refused it, by the same check
the page's view makes (``tournament.access.may_open``). Templates test the result instead
of naming a permission of their own, so a link and its page never disagree:

    {% allowed_url 'scoring:standings' pk=event.pk as standings_url %}
    {% if standings_url %}<a href="{{ standings_url }}">…</a>{% endif %}

Where a step is another official's, ``{% who_does 'scoring:final_seat' %}`` says whose.
"""

from __future__ import annotations

from django import template

from tournament.access import allowed_url as _allowed_url
from tournament.access import who_does as _who_does

register = template.Library()


@register.simple_tag(takes_context=True)
def allowed_url(context, url_name: str, **kwargs) -> str:
    request = context.get("request")
    if request is None:
        return ""
    return _allowed_url(request, url_name, **kwargs)


@register.simple_tag
def who_does(url_name: str) -> str:
    """Who takes the step behind ``url_name``: "The organizer does this.", or ""."""
    return _who_does(url_name)
