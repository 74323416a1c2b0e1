from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = gettext_lazy("Campaigns")

    def ready(self):
        from . import data_keys  # noqa: F401  (registers the data keys of this app's rows)

        from . import changes

        changes.connect_guard()

        from django.contrib.auth.signals import user_logged_in

        from .account import remember_language

        user_logged_in.connect(remember_language, dispatch_uid="campaign.account.remember_language")
