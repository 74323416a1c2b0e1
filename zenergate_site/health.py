"""A health check for load balancers and compose: the database and the broker answer."""

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse


def healthz(request):
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as exc:  # a health check reports, it never raises
        checks["database"] = f"error: {exc.__class__.__name__}"
    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2).ping()
        checks["redis"] = "ok"
    except Exception as exc:
        checks["redis"] = f"error: {exc.__class__.__name__}"
    healthy = all(v == "ok" for v in checks.values())
    return JsonResponse({"status": "ok" if healthy else "degraded", **checks}, status=200 if healthy else 503)


class HealthCheckMiddleware:
    """Answer ``/healthz`` before anything looks at the Host header or the scheme: a probe
    asks by the container's own address, over plain HTTP, whatever ALLOWED_HOSTS and
    SECURE_SSL_REDIRECT say for the public name."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info == "/healthz" and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)
