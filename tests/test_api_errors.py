"""Under /api/ every refusal is JSON, even the ones Django makes before the API sees the request:
a body over the size limit (413), a Host we do not serve, a body that is not JSON or not text,
too many fields. Elsewhere the pages keep their HTML error pages."""

import json

import pytest
from django.conf import settings
from django.core.exceptions import (
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
)
from rest_framework.test import APIClient

from campaign.models import Campaign, LogEntry
from zenergate_site.api_errors import api_bad_request

pytestmark = pytest.mark.django_db


def assert_json_error(response, status: int) -> list[str]:
    """Assert the API's error shape; return the messages under "detail"."""
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    errors = json.loads(response.content)["errors"]
    assert isinstance(errors, dict) and errors
    return errors.get("detail", [])


def oversized(**fields) -> str:
    """A JSON object one padding field past Django's limit on request bodies."""
    return json.dumps({**fields, "description": "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE})


@pytest.mark.parametrize("method, path", [
    ("post", "/api/v1/campaigns/"),
    ("patch", "/api/v1/campaigns/{campaign}/"),
    ("post", "/api/v1/campaigns/{campaign}/adventures/"),
    ("post", "/api/v1/characters/"),
])
def test_a_json_body_over_the_limit_is_a_413_in_json_that_changes_nothing(personas, api_as, method, path):
    before = (Campaign.objects.count(), LogEntry.objects.count())
    response = api_as("gm").generic(method.upper(), path.format(campaign=personas["campaign"].pk),
                                    oversized(name="Big"), content_type="application/json")
    detail = assert_json_error(response, 413)
    assert f"at most {settings.DATA_UPLOAD_MAX_MEMORY_SIZE}" in detail[0]
    assert (Campaign.objects.count(), LogEntry.objects.count()) == before


def test_a_body_just_under_the_limit_is_read(personas, api_as):
    body = json.dumps({"name": "Big", "description": ""})
    body = body.replace('""', '"' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE - len(body)) + '"')
    assert len(body.encode()) == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = api_as("gm").post("/api/v1/campaigns/", body, content_type="application/json")
    assert response.status_code == 400  # read and checked: over the description's own cap
    assert list(response.json()["errors"]) == ["description"]


def test_a_form_body_of_any_size_is_refused_in_json_unread(personas):
    """A browser session posting a form, CSRF checks on: the API reads JSON only, so it answers 415."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(personas["gm"])
    client.cookies[settings.CSRF_COOKIE_NAME] = "a" * 32  # so the check goes on to look for the form's token
    body = "name=Big&description=" + "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = client.post("/api/v1/campaigns/", body, content_type="application/x-www-form-urlencoded")
    assert_json_error(response, 415)


@pytest.mark.parametrize("exception, status", [(RequestDataTooBig(), 413), (TooManyFieldsSent(), 400),
                                               (SuspiciousOperation(), 400)])
def test_the_400_django_raises_itself_is_json_under_api_and_html_elsewhere(rf, exception, status):
    assert_json_error(api_bad_request(rf.post("/api/v1/campaigns/"), exception), status)
    page = api_bad_request(rf.post("/campaigns/1/settings/"), exception)
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


def test_too_many_fields_in_a_query_is_a_400_in_json(personas, api_as):
    # One short name repeated: too many fields, in an address short enough to be read (MAX_URL_LENGTH).
    query = "&".join("f=1" for _ in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    assert len(query) < settings.MAX_URL_LENGTH
    response = api_as("gm").get(f"/api/v1/characters/?{query}")
    assert assert_json_error(response, 400) == ["The request has too many fields."]


@pytest.mark.parametrize("body, content_type", [
    (b'{"name": ', "application/json"),
    (b'{"name": "\xff\xfe"}', "application/json"),
    (b'{"name": "Mara"}', "application/json; charset=utf-16"),
    (b"\xef\xbb\xbf\xef\xbb\xbf{}", "application/json"),
    (b'{"name": "a\\ud800"}', "application/json"),
])
def test_a_body_that_is_not_json_or_not_text_is_a_400_in_json(personas, api_as, body, content_type):
    response = api_as("gm").generic("POST", "/api/v1/campaigns/", body, content_type=content_type)
    assert_json_error(response, 400)


def test_a_host_we_do_not_serve_is_refused_in_json_under_api_and_in_html_elsewhere(client):
    api = client.get("/api/v1/campaigns/", HTTP_HOST="attacker.example")
    assert_json_error(api, 400)
    page = client.get("/", HTTP_HOST="attacker.example")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")
