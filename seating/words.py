"""The seating engine's report in tournament words, for the organizer's seating page.

The numbers stay in the page's folded details; these sentences say what they mean:
repeat meetings, family conflicts, and how far from the best possible the seating is.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def report_summary(report: dict) -> list[str]:
    """The engine's report in tournament words: repeat meetings, family conflicts and how
    far from the best possible, a sentence each (the numbers stay in the folded details)."""
    if not report:
        return []
    repeats = report.get("repeat_meetings", 0)
    bound = report.get("repeat_lower_bound", 0)
    conflicts = report.get("family_conflicts", 0)
    lines = []
    if repeats == 0:
        lines.append(_("Nobody meets an opponent they have already played."))
    else:
        lines.append(
            ngettext(
                "%(count)s time a player meets someone already met at an earlier table.",
                "%(count)s times a player meets someone already met at an earlier table.",
                repeats,
            )
            % {"count": repeats}
        )
    if repeats <= bound:
        lines.append(_("This is the best possible for this number of players and rounds."))
    else:
        lines.append(
            ngettext(
                "The best possible is %(count)s repeat meeting.",
                "The best possible is %(count)s repeat meetings.",
                bound,
            )
            % {"count": bound}
            if bound
            else _("A seating with no repeat meeting may exist; pre-seat again to look for it.")
        )
    if conflicts == 0:
        lines.append(_("No two members of a family sit at the same table."))
    else:
        lines.append(
            ngettext(
                "%(count)s time members of one family share a table.",
                "%(count)s times members of one family share a table.",
                conflicts,
            )
            % {"count": conflicts}
        )
    return lines
