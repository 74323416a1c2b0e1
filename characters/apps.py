from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = "Characters"

    def ready(self):
        from . import handback  # noqa: F401  (connects its receiver)
