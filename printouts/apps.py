from django.apps import AppConfig


class PrintoutsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "printouts"
    verbose_name = "Printouts"

    def ready(self) -> None:
        # A published round's packs are built at once (tournament may not import printouts,
        # so it sends a signal: docs/architecture.md).
        from printouts.services import on_round_published
        from tournament.signals import round_published

        round_published.connect(on_round_published, dispatch_uid="printouts-round-packs")
