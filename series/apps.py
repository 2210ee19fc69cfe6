from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeriesConfig(AppConfig):
    name = "series"
    verbose_name = _("Championship series")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Handed down, not imported from below (docs/architecture.md): scoring announces a
        # posted round and asks for extra export files; the series answers both.
        from scoring.exports import export_register
        from scoring.signals import round_posted
        from series.exports import entrants_export
        from series.services import on_round_posted

        round_posted.connect(on_round_posted, dispatch_uid="series-qualify")
        export_register(entrants_export)
