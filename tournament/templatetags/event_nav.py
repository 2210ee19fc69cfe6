"""The navigation inside an event, on every officials' page that has an ``event``.

``{% event_nav %}`` (in base.html) draws the event's sections, each shown to whoever may
open it (asked of the section's own view, ``tournament.access.may_open``), and marks the
one the page belongs to with ``aria-current="page"``. Pages are matched by their URL name,
so a new officials' page joins its section by one line here.
"""

from __future__ import annotations

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from tournament.access import may_open
from tournament.models import Event, Round

register = template.Library()

# (section key, label, URL name); "results" takes a round number.
SECTIONS = (
    ("overview", _("Overview"), "cockpit:cockpit"),
    ("players", _("Players"), "players:player_list"),
    ("check_in", _("Check-in"), "players:check_in"),
    ("seating", _("Seating"), "seating:seating"),
    ("clock", _("Clock"), "clock:clock_control"),
    ("results", _("Results"), "scoring:results_round"),
    ("standings", _("Standings"), "scoring:standings"),
    ("printouts", _("Printouts"), "printouts:index"),
    ("public", _("Public pages"), "spectator:release"),
)

# The officials' pages by URL name ("namespace:name") and the section each belongs to.
PAGE_SECTIONS = {
    "cockpit:cockpit": "overview",
    "tournament:event_edit": "overview",
    "players:player_list": "players",
    "players:player_alias": "players",
    "players:player_eject": "players",
    "players:player_no_show_confirm": "players",
    "players:waiting_promote": "players",
    "players:player_add": "players",
    "players:player_import": "players",
    "players:check_in": "check_in",
    "seating:seating": "seating",
    "seating:seating_change": "seating",
    "clock:clock_control": "clock",
    "scoring:results_round": "results",
    "scoring:results_table": "results",
    "scoring:results_correct": "results",
    "banker:banker_link": "results",
    "scoring:standings": "standings",
    "printouts:index": "printouts",
    "printouts:job": "printouts",
    "spectator:release": "public",
}


def _results_round(event: Event) -> int | None:
    """The round the results section opens: the first seated round not posted, else the
    last seated one."""
    rounds = list(
        Round.objects.filter(event=event, tables__isnull=False)
        .distinct()
        .order_by("number")
        .values_list("number", "posting")
    )
    for number, posting in rounds:
        if posting is None:
            return number
    return rounds[-1][0] if rounds else None


@register.inclusion_tag("tournament/_event_nav.html", takes_context=True)
def event_nav(context) -> dict:
    request = context.get("request")
    event = context.get("event")
    match = getattr(request, "resolver_match", None)
    if not isinstance(event, Event) or match is None or match.view_name not in PAGE_SECTIONS:
        return {"links": []}
    current = PAGE_SECTIONS[match.view_name]
    links = []
    for key, label, url_name in SECTIONS:
        kwargs: dict[str, int] = {"pk": event.pk}
        if key == "results":
            number = _results_round(event)
            if number is None:
                continue
            kwargs["round_number"] = number
        try:
            url = reverse(url_name, kwargs=kwargs)
        except NoReverseMatch:
            continue
        if not may_open(request, url):
            continue
        links.append({"key": key, "label": label, "url": url, "current": key == current})
    return {"links": links, "event": event}
