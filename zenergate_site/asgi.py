"""ASGI entry point: the event stream's processes (uvicorn) under `make run` and compose."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zenergate_site.settings")
# The stream reads on LIVE_STREAM_READERS threads, each holding one connection; two more serve the
# rare request that is not a stream. The pool bounds the process's share of PostgreSQL's
# max_connections however many pages open at once (docs/operations.md).
os.environ.setdefault("DB_POOL_SIZE", str(int(os.environ.get("LIVE_STREAM_READERS", "4")) + 2))

import logging  # noqa: E402
from importlib import import_module  # noqa: E402

import django  # noqa: E402  (after the environment above: settings read it)
from django.conf import settings  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402
from django.http import HttpResponse, HttpResponseServerError  # noqa: E402
from django.utils.translation import gettext as _  # noqa: E402

from zenergate_site.errors import is_database_unavailable  # noqa: E402

django.setup(set_prefix=False)
# The module that answers the stream (its ``PATH`` and ``door``), named in the settings as the
# URLs are: this package sits below the apps and imports none of them.
stream = import_module(settings.LIVE_STREAM_DOOR)
logger = logging.getLogger(__name__)


class Handler(ASGIHandler):
    """Django's ASGI handler, with the event stream's own door (``LIVE_STREAM_DOOR``): a stream is
    answered without a thread of its own and without the middleware. Everything else
    (``/healthz``, a page asked of this process) goes through Django as usual."""

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and stream.PATH.fullmatch(scope["path"]):
            await self.handle(scope, receive, send)  # Django's request, body and disconnect handling
        else:
            await super().__call__(scope, receive, send)

    async def run_get_response(self, request):
        if not stream.PATH.fullmatch(request.path_info):
            return await super().run_get_response(request)
        try:
            response = await stream.door(request)
        except Exception as exc:
            if is_database_unavailable(exc):  # the browser's EventSource tries again by itself
                response = HttpResponse(_("The server is busy. Try again in a moment."), status=503,
                                        content_type="text/plain", headers={"Retry-After": "2"})
            else:
                logger.exception("the stream failed to open")
                response = HttpResponseServerError(_("Internal Server Error"), content_type="text/plain")
        response._handler_class = self.__class__
        return response


application = Handler()
