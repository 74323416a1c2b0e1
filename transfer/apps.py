from django.apps import AppConfig


class TransferConfig(AppConfig):
    """Moving a whole campaign between servers: export it as one JSON document, import it back."""

    name = "transfer"
    label = "transfer"
    default_auto_field = "django.db.models.BigAutoField"
