from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = "Characters"

    def ready(self):
        from . import data_keys  # noqa: F401  (registers the data keys of this app's rows)

        from . import handback  # noqa: F401  (connects its receiver)

        from campaign.signals import campaign_clearing

        from .system_sheets import forget_campaign

        campaign_clearing.connect(forget_campaign, dispatch_uid="characters.forget_campaign")
