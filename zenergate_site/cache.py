"""Django's Redis cache, with one client object per connection pool instead of one per call, and a
breaker that stops asking a Redis that does not answer.

Django builds a new ``redis.Redis`` for every cache operation; its constructor sets up some
two hundred response callbacks, which costs more than the GET it is made for when a cached
page is served. A ``redis.Redis`` is safe to share between threads (the pool hands out
connections), so each pool gets one, made the first time it is asked for.

Every cache use in the app fails open (a page renders uncached, a log-in goes unthrottled), but
each command to a hung Redis still waits for its socket timeout, and a page makes several. So
the first command that times out or cannot connect opens the breaker: for
``CACHE_RETRY_SECONDS`` every command fails at once, in this process, without touching the
network; then one command is let through to try again.
"""

import threading
import time

import redis
from django.conf import settings
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

#: Why a command was not sent: for the logs of the callers, which fail open and show it to no one.
RESTING = "The cache did not answer a moment ago; not asking again yet."


class Breaker:
    """When the cache stopped answering, and when to try it again."""

    def __init__(self):
        self._lock = threading.Lock()
        self.retry_at = 0.0

    def check(self) -> None:
        with self._lock:
            now = time.monotonic()
            if now < self.retry_at:
                raise redis.ConnectionError(RESTING)
            if self.retry_at:
                # One command tries again; the others keep failing fast until it answers.
                self.retry_at = now + settings.CACHE_RETRY_SECONDS

    def opened(self) -> None:
        self.retry_at = time.monotonic() + settings.CACHE_RETRY_SECONDS

    def closed(self) -> None:
        self.retry_at = 0.0


class BreakerRedis(redis.Redis):
    """A redis client whose every command passes through its cache's breaker."""

    breaker: Breaker

    def execute_command(self, *args, **options):
        self.breaker.check()
        try:
            result = super().execute_command(*args, **options)
        except (redis.ConnectionError, redis.TimeoutError):
            self.breaker.opened()
            raise
        if self.breaker.retry_at:
            self.breaker.closed()
        return result


#: One breaker per Redis, shared by every thread's cache object (Django makes one per thread).
_breakers: dict[tuple, Breaker] = {}
_breakers_lock = threading.Lock()


def breaker_for(servers) -> Breaker:
    with _breakers_lock:
        return _breakers.setdefault(tuple(servers), Breaker())


class SharedClient(RedisCacheClient):
    def __init__(self, servers, **options):
        super().__init__(servers, **options)
        self._client = type("CacheRedis", (BreakerRedis,), {"breaker": breaker_for(servers)})

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        clients = self.__dict__.setdefault("_shared", {})
        client = clients.get(id(pool))
        if client is None:
            client = clients[id(pool)] = self._client(connection_pool=pool)
        return client


class SharedClientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = SharedClient
