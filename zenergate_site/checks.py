"""Deploy checks of our own (``manage.py check --deploy``): a secret key copied from
``.env.example`` is no secret."""

from django.conf import settings
from django.core.checks import Error, Tags, register

#: The placeholder in .env.example; anything starting like it was not replaced.
PLACEHOLDER_PREFIX = "change-me"


@register(Tags.security, deploy=True)
def secret_key_replaced(app_configs, **kwargs):
    if str(settings.SECRET_KEY).startswith(PLACEHOLDER_PREFIX):
        return [Error("SECRET_KEY is the placeholder from .env.example.",
                      hint="Set SECRET_KEY to a long random string, e.g. the output of "
                           "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`.",
                      id="zenergate.E001")]
    return []
