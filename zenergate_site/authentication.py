"""API authentication: tokens that expire.

Kept apart from the views: DRF imports this module while ``rest_framework.views`` loads.
"""

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication


class ExpiringTokenAuthentication(TokenAuthentication):
    """A token works for ``TOKEN_TTL`` after it was issued; then its owner logs in again."""

    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        expired_at = token.created + settings.TOKEN_TTL
        if expired_at <= timezone.now():
            raise exceptions.AuthenticationFailed(
                _("This token expired on %(when)s UTC. Log in again for a new one: POST /api/v1/auth/token/.")
                % {"when": f"{expired_at:%Y-%m-%d %H:%M}"})
        return user, token
