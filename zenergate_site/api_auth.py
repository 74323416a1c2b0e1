"""Token log-in for scripts: POST username and password, get {"token": …}."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView


class ObtainTokenApi(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(request=AuthTokenSerializer,
                   responses=inline_serializer("TokenOut", {"token": serializers.CharField()}))
    def post(self, request):
        data = AuthTokenSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        token, _ = Token.objects.get_or_create(user=data.validated_data["user"])
        return Response({"token": token.key})
