"""A Content-Security-Policy header on every response, from ``settings.SECURE_CSP``.

Django has its own middleware from 6.0 on, reading the same setting in the same shape
(directive → list of sources); settings.py picks that one where it exists.
"""

from django.conf import settings


def policy_header(policy: dict[str, list[str]]) -> str:
    """Return the header value for ``policy``: ``default-src 'self'; img-src 'self' data:``."""
    return "; ".join(" ".join([directive, *sources]) for directive, sources in policy.items())


def stream_sources() -> list[str]:
    """Where pages may open the live stream besides their own origin (settings.LIVE_STREAM_*)."""
    if settings.LIVE_STREAM_URL:
        return [settings.LIVE_STREAM_URL]
    if settings.LIVE_STREAM_PORT:
        return [f"http://*:{settings.LIVE_STREAM_PORT}", f"https://*:{settings.LIVE_STREAM_PORT}"]
    return []


def current_policy() -> dict[str, list[str]]:
    """``SECURE_CSP`` with the stream's origin in ``connect-src``, as the settings are now."""
    policy = dict(settings.SECURE_CSP)
    connect = list(policy.get("connect-src", ["'self'"]))
    extra = [source for source in stream_sources() if source not in connect]
    if extra:
        policy["connect-src"] = connect + extra
    return policy


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        # Made per response (a few joins): the header follows the settings as they are now.
        header = policy_header(current_policy())
        if header:
            response.headers.setdefault("Content-Security-Policy", header)
        return response
