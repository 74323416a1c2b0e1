from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project itself, as an app for its system checks and its start-up wiring."""

    name = "zenergate_site"
    verbose_name = "Site"

    def ready(self):
        from django.utils import translation

        from rulebook import words

        from . import checks  # noqa: F401  (registers them)

        # The rulebook's words through Django's catalogues, in the language of each request.
        words.install(translation.gettext, translation.ngettext)
