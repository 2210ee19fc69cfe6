"""An official's own settings: the language their pages are in (accounts/languages.py)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class OfficialProfile(models.Model):
    """An official's own settings: the language their pages are in, wherever they sign in."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="official_profile"
    )
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, blank=True
    )

    class Meta:
        verbose_name = _("official's profile")
        verbose_name_plural = _("officials' profiles")

    def __str__(self) -> str:
        return str(self.user)
