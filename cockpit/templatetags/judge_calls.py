""" "Judge, please" on the pages that show it: the tablet, the judges' desk, the clock page.

``{% table_judge_call table as call %}`` gives the table's call still open (or None);
``{% judge_calls_waiting event as calls %}`` the calls waiting (``event`` may be None: every
event's), each with ``waited_minutes``; ``{% table_judge_calls table as calls %}`` every call
of the table, its record. The pages' own views need not change to show them.
"""

from __future__ import annotations

from django import template

from cockpit.judge_call_selectors import judge_calls_waiting as _waiting
from cockpit.judge_call_selectors import table_judge_call as _open_call
from cockpit.judge_call_selectors import table_judge_calls as _calls

register = template.Library()


@register.simple_tag
def table_judge_call(table):
    return _open_call(table=table)


@register.simple_tag
def judge_calls_waiting(event=None):
    return _waiting(event=event)


@register.simple_tag
def table_judge_calls(table):
    return list(_calls(table=table))
