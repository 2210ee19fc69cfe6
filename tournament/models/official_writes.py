"""What the server keeps of an official's form post: the answer, under the form's key.

``OfficialWrite`` is one post of an officials' form (a clock control, an announcement, ...)
under the idempotency key its page rendered into the form (``{% idempotency_key %}``),
with the answer that was sent back. The same key posted again by the same official to
the same action gets that answer again, and the write is not applied twice
(``tournament.idempotency.official_idempotent``). The key is bound to the official and to
the action (URL name and arguments): reused elsewhere it claims a fresh record.

Imported at the end of ``tournament/models.py`` so that Django registers it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.tablets import KeptAnswer


class OfficialWrite(KeptAnswer):
    """An official's form post applied once, and the answer it got."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("official"),
    )
    action = models.CharField(_("action"), max_length=200)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("official's write")
        verbose_name_plural = _("officials' writes")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key", "action"], name="official_write_once_per_action"
            )
        ]
