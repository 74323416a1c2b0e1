from django.apps import AppConfig


class RollsConfig(AppConfig):
    """The campaign's roll feed: checks of its rule set, free-form dice, and what combat and
    downtime roll, each with its dice and the odds it had."""

    name = "rolls"
    label = "rolls"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import data_keys  # noqa: F401  (registers the data keys of this app's rows)

        from campaign.parts import register

        from .parts import ROLL_FEED

        register(ROLL_FEED)
