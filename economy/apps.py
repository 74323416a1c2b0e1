from django.apps import AppConfig


class EconomyConfig(AppConfig):
    name = "economy"
    verbose_name = "Economy"

    def ready(self):
        from . import data_keys  # noqa: F401  (registers the data keys of this app's rows)

        from characters.signals import character_approved

        from .ledger import open_on_approval

        # Approval lives with the sheet (layer 3); the ledger it opens lives here, a layer up.
        character_approved.connect(open_on_approval, dispatch_uid="economy.open_on_approval")

        from campaign.signals import campaign_clearing

        from .ledger import forget_campaign

        campaign_clearing.connect(forget_campaign, dispatch_uid="economy.forget_campaign")

        from campaign.parts import register

        from .parts import POOLS

        register(POOLS)
