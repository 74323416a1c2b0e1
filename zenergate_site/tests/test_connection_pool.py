"""Pooled connections (settings DB_POOL_SIZE): a request takes a connection from the process's
pool and gives it back when it ends; a request that waits too long for one answers 503 with
Retry-After, never 500 (docs/operations.md, "Database connections")."""

import pytest
from django.db import connection
from django.test import Client

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def pool_of_one(personas):
    """This thread's connection comes from a pool of one, as under gunicorn with DB_POOL_SIZE=1."""
    settings_dict = connection.settings_dict
    kept = settings_dict["OPTIONS"], settings_dict["CONN_MAX_AGE"]
    connection.close()
    settings_dict["OPTIONS"] = {**kept[0], "pool": {"min_size": 1, "max_size": 1, "timeout": 0.5}}
    settings_dict["CONN_MAX_AGE"] = 0
    try:
        connection.pool.open(wait=True)
        yield connection.pool
    finally:
        connection.close()
        connection.close_pool()
        settings_dict["OPTIONS"], settings_dict["CONN_MAX_AGE"] = kept


def test_a_page_borrows_a_connection_and_gives_it_back(pool_of_one, personas):
    client = Client()
    client.force_login(personas["player"])
    assert client.get(f"/campaigns/{personas['campaign'].pk}/").status_code == 200
    assert client.get(f"/campaigns/{personas['campaign'].pk}/").status_code == 200
    assert pool_of_one.get_stats()["pool_size"] == 1  # both requests ran on the one connection
    connection.close()  # what the end of a request does outside the test client
    assert pool_of_one.get_stats()["pool_available"] == 1  # back in the pool, open for the next


def test_a_request_that_gets_no_connection_in_time_answers_503(pool_of_one, personas):
    held = pool_of_one.getconn()  # another thread's request holds the only connection
    try:
        page = Client(raise_request_exception=False).post("/accounts/login/", {"username": "gm", "password": "x"})
        api = Client(raise_request_exception=False).post(
            "/api/v1/auth/token/", {"username": "gm", "password": "x"}, content_type="application/json")
    finally:
        pool_of_one.putconn(held)
    assert (page.status_code, page["Retry-After"]) == (503, "2")
    assert "Try again in a moment" in page.content.decode()
    assert (api.status_code, api["Retry-After"]) == (503, "2")
    assert api.json()["errors"]["detail"][0].startswith("The server is busy")


def test_the_server_processes_size_their_pools(monkeypatch):
    """gunicorn: one connection a thread; the stream: one a reader thread and two spare."""
    import importlib
    import runpy
    from pathlib import Path

    import zenergate_site

    monkeypatch.delenv("DB_POOL_SIZE", raising=False)
    monkeypatch.setenv("WEB_THREADS", "6")
    runpy.run_path(str(Path(zenergate_site.__file__).parent / "gunicorn.conf.py"))
    assert __import__("os").environ["DB_POOL_SIZE"] == "6"
    monkeypatch.delenv("DB_POOL_SIZE")
    monkeypatch.setenv("LIVE_STREAM_READERS", "5")
    importlib.reload(importlib.import_module("zenergate_site.asgi"))
    assert __import__("os").environ["DB_POOL_SIZE"] == "7"
