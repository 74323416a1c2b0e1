"""Django's Redis cache, with one client object per connection pool instead of one per call.

Django builds a new ``redis.Redis`` for every cache operation; its constructor sets up some
two hundred response callbacks, which costs more than the GET it is made for when a cached
page is served. A ``redis.Redis`` is safe to share between threads (the pool hands out
connections), so each pool gets one, made the first time it is asked for.
"""

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class SharedClient(RedisCacheClient):
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
