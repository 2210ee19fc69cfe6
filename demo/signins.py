"""The demo's accounts a newcomer can sign in with, for the login page and `make run`.

Only while DEBUG is on (the demo makes passwords only then, ``demo.event.demo_officials``),
and only the accounts that still open with their username as password: an account
someone gave a real password, or one that existed before the demo, is never offered.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password

from demo.event import DEMO_OFFICIALS

# (username, stored hash) -> opens with the username. A check costs about 0.3 s (PBKDF2 at
# Django's iterations), so each stored hash is checked once per process; a changed password
# is a new hash, checked afresh.
_OPENS: dict[tuple[str, str], bool] = {}


def demo_usernames() -> list[str]:
    """The demo accounts that sign in with their username as password, in role order
    (organizer first); none with DEBUG off or before the demo is loaded."""
    if not settings.DEBUG:
        return []
    names = [username for username, _role in DEMO_OFFICIALS]
    users = {user.username: user for user in get_user_model().objects.filter(username__in=names)}
    return [name for name in names if name in users and _opens_with_username(users[name])]


def _opens_with_username(user) -> bool:
    key = (user.username, user.password)
    if key not in _OPENS:
        # hashers.check_password, not user.check_password: asking must never save the user.
        _OPENS[key] = (
            user.is_active
            and user.has_usable_password()
            and check_password(user.username, user.password)
        )
    return _OPENS[key]
