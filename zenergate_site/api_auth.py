"""API log-in for scripts (one token per user, a new one each time) and logging out everywhere.

Tokens expire: see ``authentication.ExpiringTokenAuthentication``.
"""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from . import accounts, login_guard


class LoginLocked(exceptions.APIException):
    """429 with the wait in the message and in Retry-After."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "locked"

    def __init__(self, lockout: login_guard.Lockout):
        super().__init__(lockout.message)
        self.wait = lockout.seconds


class GuardedAuthTokenSerializer(AuthTokenSerializer):
    """Username and password, checked only while neither the account nor the client is locked out."""

    def validate(self, attrs):
        request = self.context["request"]
        username = attrs.get("username", "")
        lockout = login_guard.reserve(request, username)
        if lockout is None:
            try:
                attrs = super().validate(attrs)
            except serializers.ValidationError:
                lockout = login_guard.record_failure(request, username)
                if lockout is None:
                    raise
            else:
                login_guard.record_success(request, username)
                return attrs
        raise LoginLocked(lockout)


_ERRORS = inline_serializer("AuthErrors", {"errors": serializers.DictField(child=serializers.ListField(
    child=serializers.CharField()))})


class ObtainTokenApi(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        request=AuthTokenSerializer,
        responses={
            200: inline_serializer("TokenOut", {"token": serializers.CharField()}),
            400: OpenApiResponse(_ERRORS, description="Wrong username or password, or a field missing."),
            403: OpenApiResponse(_ERRORS, description="The password is a one-time password: change it on the web "
                                 "first."),
            429: OpenApiResponse(_ERRORS, description="Too many failed log-ins for this account or from this "
                                 "address: the message and the Retry-After header say how long to wait."),
        },
        summary="Log in: a new token (the user's previous token stops working)",
    )
    def post(self, request):
        data = GuardedAuthTokenSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        if accounts.has_one_time_password(data.validated_data["user"]):
            raise exceptions.PermissionDenied(_("Choose your own password first: log in on the web and change the "
                                                "one-time password."))
        token = accounts.token_issue(user=data.validated_data["user"])
        return Response({"token": token.key})


class LogoutEverywhereApi(APIView):
    @extend_schema(
        request=None,
        responses={200: inline_serializer("LogoutEverywhereOut", {"sessions_ended": serializers.IntegerField()})},
        summary="Log out on every device: end all the caller's sessions and revoke their token",
    )
    def post(self, request):
        return Response({"sessions_ended": accounts.user_logout_everywhere(user=request.user)})
