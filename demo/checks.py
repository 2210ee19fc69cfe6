"""The demo app's deployment check, run by ``manage.py check --deploy``.

A database loaded in development keeps organizer/organizer etc.; switching to
``DJANGO_DEBUG=0`` does not change those passwords, so going live must fail until they do.
"""

from __future__ import annotations

from django.core.checks import Error, Tags, register
from django.db import DatabaseError

from demo.event import DEMO_OFFICIALS


@register(Tags.security, deploy=True)
def demo_passwords(app_configs, **kwargs) -> list[Error]:
    """A database loaded in development keeps organizer/organizer etc. into production."""
    from django.contrib.auth import get_user_model

    names = [username for username, _role in DEMO_OFFICIALS]
    try:
        users = list(get_user_model().objects.filter(username__in=names))
    except DatabaseError:  # no database yet, or not migrated: nothing to check
        return []
    weak = sorted(
        user.username
        for user in users
        if user.has_usable_password() and user.check_password(user.username)
    )
    if not weak:
        return []
    return [
        Error(
            f"These accounts still have their demo password (the username): {', '.join(weak)}.",
            hint=(
                "Set real passwords (manage.py changepassword <name>) or remove the accounts "
                "before going live."
            ),
            id="boardwalk.E001",
        )
    ]
