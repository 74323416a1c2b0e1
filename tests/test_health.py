"""GET /healthz: 200 when PostgreSQL and Redis answer, 503 "degraded" naming what failed.

docs/operations.md: the web service's health check "checks the database and Redis, 503 when
either fails". An unreachable service is a real one: an address where nothing listens.
"""

from __future__ import annotations

import socket

import pytest
from django.db import connections

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_port():
    """A local TCP port that refuses connections: bound (so no one else takes it), never listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@pytest.fixture
def database_down(closed_port):
    """Point this thread's default connection at the closed port for the test, then put it back."""
    working = connections["default"]
    settings_dict = {**working.settings_dict, "HOST": "127.0.0.1", "PORT": str(closed_port),
                     "OPTIONS": {**working.settings_dict.get("OPTIONS", {}), "connect_timeout": 2}}
    unreachable = type(working)(settings_dict, "default")
    connections["default"] = unreachable
    yield
    unreachable.close()
    connections["default"] = working


def test_healthy_when_both_answer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "ok"}


def test_the_database_down_is_503(client, database_down):
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "degraded", "database": "error: OperationalError", "redis": "ok"}


def test_redis_down_is_503(client, settings, closed_port):
    settings.REDIS_URL = f"redis://127.0.0.1:{closed_port}/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "degraded", "database": "ok", "redis": "error: ConnectionError"}


def test_both_down_is_503_naming_both(client, settings, closed_port, database_down):
    settings.REDIS_URL = f"redis://127.0.0.1:{closed_port}/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "degraded", "database": "error: OperationalError",
                               "redis": "error: ConnectionError"}


def test_the_health_check_needs_no_login_and_answers_head_too(client):
    """Load balancers and compose probe anonymously."""
    assert client.get("/healthz").status_code == 200
    assert client.head("/healthz").status_code == 200
