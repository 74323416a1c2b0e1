"""Over-long addresses and headers get a clear refusal: 414 and 431, as JSON under /api/.

The limits are enforced here, in the app, so that every answer has the API's error shape. The
servers in front are set to let a little more through (gunicorn's ``limit_request_line`` and
``limit_request_field_size`` in gunicorn.conf.py, nginx's ``large_client_header_buffers`` in
deploy/nginx.conf), so the app is the one that refuses; what even they refuse is answered by
nginx's own JSON error pages under /api/.
"""

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

API_PREFIX = "/api/"


def _refusal(request, status: int, message: str):
    if request.path_info.startswith(API_PREFIX) or request.META.get("PATH_INFO", "").startswith(API_PREFIX):
        return JsonResponse({"errors": {"detail": [message]}}, status=status)
    response = HttpResponse(f"<!doctype html><title>{status}</title><h1>{message}</h1>", status=status)
    return response


class RequestLimitsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        target = len(request.META.get("PATH_INFO", "")) + len(request.META.get("QUERY_STRING", ""))
        if target > settings.MAX_URL_LENGTH:
            return _refusal(request, 414, _("The address is too long: at most %(limit)s characters.")
                            % {"limit": settings.MAX_URL_LENGTH})
        headers = sum(len(name) + len(str(value)) for name, value in request.META.items() if name.startswith("HTTP_"))
        if headers > settings.MAX_HEADER_BYTES:
            return _refusal(request, 431, _("The request headers are too large: at most %(limit)s bytes in all.")
                            % {"limit": settings.MAX_HEADER_BYTES})
        return self.get_response(request)
