"""Who may open which page.

Anonymous visitors are sent to the login page; a logged-in person without the permission
gets 403, not a login loop. Every organizer and judge view is wrapped in one of these.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied

from .roles import BANK, HEAD_JUDGE_PERMISSION, JUDGE_PERMISSION, MANAGE


def _requires(permission: str):
    def decorator(view):
        def wrapped(request, *args, **kwargs):
            if not request.user.has_perm(permission):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        wrapped.__name__ = view.__name__
        wrapped.__doc__ = view.__doc__
        wrapped.required_permission = permission
        return login_required(wrapped)

    return decorator


organizer_required = _requires(MANAGE)
head_judge_required = _requires(HEAD_JUDGE_PERMISSION)
judge_required = _requires(JUDGE_PERMISSION)
# Bankers reach only their table's page (the clock and the end-of-game buttons).
banker_required = _requires(BANK)
