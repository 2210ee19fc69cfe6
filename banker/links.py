"""The table card's private link for the banker's tablet: issued, replaced, revoked."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import BankerLink
from tournament.models import Table


@transaction.atomic
def banker_link_issue(*, table: Table, by: User | None) -> BankerLink:
    """A new private link for the table's banker; the one in force until now stops working.

    The key is 24 random bytes (``secrets.token_urlsafe``): it is the only thing that opens
    the sheet without a login, so it must not be guessable from the table or the time.
    """
    table = Table.objects.select_for_update().get(pk=table.pk)
    now = timezone.now()
    BankerLink.objects.filter(table=table, revoked_at__isnull=True).update(
        revoked_at=now, revoked_by=by
    )
    return BankerLink.objects.create(table=table, key=secrets.token_urlsafe(24), created_by=by)


@transaction.atomic
def banker_link_revoke(*, table: Table, by: User | None) -> BankerLink:
    """Stop the table's link at once: tablets that opened it lose the sheet on their next tap."""
    link = (
        BankerLink.objects.select_for_update().filter(table=table, revoked_at__isnull=True).first()
    )
    if link is None:
        raise ValidationError(_("This table has no banker link to revoke."), code="no-link")
    link.revoked_at = timezone.now()
    link.revoked_by = by
    link.save(update_fields=["revoked_at", "revoked_by"])
    return link
