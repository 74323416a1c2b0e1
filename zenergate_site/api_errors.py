"""One exception handler for the whole API: every error is ``{"errors": {field: [messages]}}``."""

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from rulebook import RulesError

from .errors import DomainError


def _as_field_errors(detail) -> dict:
    if isinstance(detail, dict):
        return {key: _as_list(value) for key, value in detail.items()}
    return {"detail": _as_list(detail)}


def _as_list(value) -> list:
    if isinstance(value, dict):
        return [_as_field_errors(value)]
    if isinstance(value, list | tuple):
        out = []
        for item in value:
            out.extend(_as_list(item) if isinstance(item, list | tuple) else [item if isinstance(item, dict) else str(item)])
        return out
    return [str(value)]


def exception_handler(exc, context):
    """Map domain, rules and framework errors to 400/401/403/404/409 with field messages."""
    if isinstance(exc, DomainError):
        return Response({"errors": exc.as_errors()}, status=exc.status_code)
    if isinstance(exc, RulesError):
        return Response({"errors": {"detail": [str(exc)]}}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        return Response({"errors": _as_field_errors(detail)}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        # The access helpers' messages say who may do it; they reveal nothing a member doesn't know.
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.APIException):
        response.data = {"errors": _as_field_errors(exc.detail)}
    return response
