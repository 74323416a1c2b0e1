"""ASGI entry point: the event stream's processes (uvicorn) under `make run` and compose."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zenergate_site.settings")
# The stream reads on LIVE_STREAM_READERS threads, each holding one connection; two more serve the
# rare request that is not a stream. The pool bounds the process's share of PostgreSQL's
# max_connections however many pages open at once (docs/operations.md).
os.environ.setdefault("DB_POOL_SIZE", str(int(os.environ.get("LIVE_STREAM_READERS", "4")) + 2))
application = get_asgi_application()
