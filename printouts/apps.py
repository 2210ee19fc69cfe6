from django.apps import AppConfig


class PrintoutsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "printouts"
    verbose_name = "Printouts"
