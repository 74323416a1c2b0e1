"""A refused request is one line at INFO in the site's log, without a traceback; a server error
still logs its traceback."""

import io
import json
import logging

import pytest
from django.test import Client

from zenergate_site.logs import RefusedRequestFilter

pytestmark = pytest.mark.django_db


@pytest.fixture
def site_log():
    """What the site's console handler writes during the test."""
    (handler,) = [h for h in logging.getLogger().handlers
                  if any(isinstance(f, RefusedRequestFilter) for f in h.filters)]
    stream = io.StringIO()
    old = handler.setStream(stream)
    yield stream
    handler.setStream(old)


def lines(stream) -> list[str]:
    return [line for line in stream.getvalue().splitlines() if line.strip()]


def test_a_refused_page_is_one_info_line(personas, site_log):
    client = Client()
    client.force_login(personas["outsider"])
    assert client.get(f"/campaigns/{personas['campaign'].pk}/").status_code in (403, 404)
    assert Client().get("/api/v1/no-such-thing/").status_code == 404
    logged = lines(site_log)
    assert logged, "the refusals are logged"
    for line in logged:
        record = json.loads(line) if line.startswith("{") else {"level": line.split()[0], "message": line}
        assert record["level"] == "INFO", line
        assert "Traceback" not in line and "exc_info" not in record


def test_a_server_error_keeps_its_traceback():
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error: /x", (), None)
    record.status_code = 500
    assert RefusedRequestFilter().filter(record) and record.levelno == logging.ERROR
    refused = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "Forbidden: /x", (),
                                (PermissionError, PermissionError("no"), None))
    refused.status_code = 403
    assert RefusedRequestFilter().filter(refused)
    assert refused.levelno == logging.INFO and refused.exc_info is None
