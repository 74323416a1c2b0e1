from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "combat"
    verbose_name = "Combat"

    def ready(self):
        from campaign.parts import register

        from .parts import TABLE, TABLE_ROLLS, TRACKER

        for part in (TRACKER, TABLE, TABLE_ROLLS):
            register(part)
