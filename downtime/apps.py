from django.apps import AppConfig


class DowntimeConfig(AppConfig):
    """Time between adventures: healing, radiation recovery, Zener Transitions, treatments."""

    name = "downtime"
    label = "downtime"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import data_keys  # noqa: F401  (registers the data keys of this app's rows)

        from campaign.signals import campaign_unlinking

        from .treatments import let_go_of_campaign

        campaign_unlinking.connect(let_go_of_campaign, dispatch_uid="downtime.let_go_of_campaign")
