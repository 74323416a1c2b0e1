"""A Content-Security-Policy header on every response, from ``settings.SECURE_CSP``.

Django has its own middleware from 6.0 on, reading the same setting in the same shape
(directive → list of sources); settings.py picks that one where it exists.
"""

from django.conf import settings


def policy_header(policy: dict[str, list[str]]) -> str:
    """Return the header value for ``policy``: ``default-src 'self'; img-src 'self' data:``."""
    return "; ".join(" ".join([directive, *sources]) for directive, sources in policy.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.header = policy_header(settings.SECURE_CSP)

    def __call__(self, request):
        response = self.get_response(request)
        if self.header:
            response.headers.setdefault("Content-Security-Policy", self.header)
        return response
