"""A page whose write waited too long for a lock answers 409 "busy, try again", not 500.

The API turns the same error into its JSON 409 (``api_errors.exception_handler``).
"""

from django.shortcuts import render

from .errors import Busy, is_lock_timeout


class BusyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not is_lock_timeout(exception) or request.path.startswith("/api/"):
            return None
        return render(request, "409.html", {"message": Busy().message}, status=409)
