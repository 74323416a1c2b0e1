from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo campaign `make run` loads: it builds a whole table through every app's services,
    so it sits above them all (layer 5), where nothing of the table imports it."""

    name = "demo"
    verbose_name = "Demo data"
