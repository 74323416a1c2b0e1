"""No shared cache keeps one person's page for another.

A signed-in user's pages and every API answer are ``Cache-Control: private, no-store``: a sheet
with a GM's notes, a campaign's secrets, an API token in a JSON body must not sit in a proxy or a
shared browser's disk cache. API answers also vary on the cookie and the Authorization header, for
any cache that ignores ``no-store``. Static files never reach this middleware (WhiteNoise answers
them first, with their long caching), and a response that set its own rules keeps them.
"""

from django.utils.cache import patch_cache_control, patch_vary_headers

API_PREFIX = "/api/"


class PrivateResponsesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        api = request.path.startswith(API_PREFIX)
        user = getattr(request, "user", None)
        if api or (user is not None and user.is_authenticated):
            if not response.has_header("Cache-Control"):
                patch_cache_control(response, private=True, no_store=True)
            if api:
                patch_vary_headers(response, ("Cookie", "Authorization"))
        return response
