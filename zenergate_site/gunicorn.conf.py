"""gunicorn's settings for `make run`, compose's web service and bench/load.

Threaded workers: requests are short (pages come from the cache or render in milliseconds),
but a phone keeps its connection open between polls. A synchronous worker would sit blocked on
such an idle connection; a thread pool serves the others meanwhile and keeps connections alive.
WEB_CONCURRENCY sets the number of workers (2 by default: one per core on a small server),
WEB_THREADS the threads in each.
"""

import os

threads = int(os.environ.get("WEB_THREADS", "4"))
# Each worker keeps a pool of as many database connections as it has threads (checked before
# reuse): a thread never waits for one, and WEB_CONCURRENCY x WEB_THREADS bounds the web's share
# of PostgreSQL's max_connections (docs/operations.md).
os.environ.setdefault("DB_POOL_SIZE", str(threads))

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# gthread, answering gunicorn's own 414 and 431 as JSON (zenergate_site/gunicorn_worker.py).
worker_class = "zenergate_site.gunicorn_worker.JsonLimitsWorker"
keepalive = 5
# Above the app's MAX_URL_LENGTH and MAX_HEADER_BYTES, so that the app answers an over-long
# address or header (414/431, JSON under /api/) rather than gunicorn's own plain 400.
limit_request_line = 8190  # gunicorn's maximum
limit_request_field_size = 32768
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 20
# The app is imported once, before the workers fork: they start warm and share its memory.
preload_app = True
accesslog = "-" if os.environ.get("ACCESS_LOG") == "1" else None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()


def post_fork(server, worker):
    # The app is loaded before the fork; a pool the master may have made belongs to the master
    # (its threads did not come along). Each worker opens its own on its first request.
    from django.db.backends.postgresql.base import DatabaseWrapper

    DatabaseWrapper._connection_pools.clear()
