"""Writes for scoring, one module per subject; import from the module that does the work.

- ``sheets``: the banker's draft, submission and live check; a judge's approval and correction
- ``signatures``: players' and the banker's initials (the banker's locks the sheet)
- ``results``: result lines from the engine's report, tie decisions applied
- ``ties``: the head judge's tie decisions; the organizer's tie-breaker order
- ``posting``: posting a round's scores and withdrawing a posting
- ``advancement``: from the posted standings to a semifinal and the final

The table card's private link is the banker app's (``banker.links``).

Permissions are checked by the views (banker, judge, head judge); these functions record
who acted (``by``).
"""
