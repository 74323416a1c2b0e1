from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class CombatConfig(AppConfig):
    name = "combat"
    verbose_name = gettext_lazy("Combat")

    def ready(self):
        from . import data_keys  # noqa: F401  (registers the data keys of this app's rows)

        from campaign.signals import campaign_unlinking

        from .log import let_go_of_campaign

        campaign_unlinking.connect(let_go_of_campaign, dispatch_uid="combat.let_go_of_campaign")

        from campaign.parts import register

        from .parts import TABLE, TABLE_ROLLS, TRACKER

        for part in (TRACKER, TABLE, TABLE_ROLLS):
            register(part)
