from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project itself, as an app only for its system checks."""

    name = "zenergate_site"
    verbose_name = "Site"

    def ready(self):
        from . import checks  # noqa: F401  (registers them)
