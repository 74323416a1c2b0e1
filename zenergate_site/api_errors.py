"""One exception handler for the whole API: every error is ``{"errors": {field: [messages]}}``.

``api_bad_request`` answers the 400s Django raises before or outside DRF (a body over the size
limit, a Host that is not ours) in the same shape under /api/.
"""

from django.conf import settings
from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from rulebook import RulesError

from .errors import Busy, DomainError, is_lock_timeout


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


def _too_large_message() -> str:
    return _("The request body is too large; this server takes at most %(limit)s bytes.") % {
        "limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}


def _request_refusal(exc) -> tuple[int, str] | None:
    """Return the status and message for Django's refusals of a request body, or None."""
    if isinstance(exc, RequestDataTooBig):
        return status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, _too_large_message()
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return status.HTTP_400_BAD_REQUEST, _("The request has too many fields.")
    return None


def exception_handler(exc, context):
    """Map domain, rules and framework errors to 400/401/403/404/409/413 with field messages."""
    if (refusal := _request_refusal(exc)) is not None:
        return Response({"errors": {"detail": [refusal[1]]}}, status=refusal[0])
    if is_lock_timeout(exc):
        exc = Busy()
    if isinstance(exc, DomainError):
        return Response({"errors": exc.as_errors()}, status=exc.status_code,
                        headers={"Retry-After": str(exc.retry_after)} if exc.retry_after else None)
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


def _under_api(request) -> bool:
    return request.path.startswith("/api/")


def _json_error(message: str, code: int) -> JsonResponse:
    return JsonResponse({"errors": {"detail": [message]}}, status=code)


def api_bad_request(request, exception=None):
    """A 400 Django raises itself (a body over the limit, a Host that is not ours): JSON under /api/."""
    if not _under_api(request):
        return defaults.bad_request(request, exception)
    if (refusal := _request_refusal(exception)) is not None:
        return _json_error(refusal[1], refusal[0])
    return _json_error(_("Bad request."), status.HTTP_400_BAD_REQUEST)
