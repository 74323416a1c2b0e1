"""An over-long address is 414 and over-large headers are 431: JSON in the API's error shape
under /api/, a short page elsewhere; nothing is read or changed."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_an_over_long_api_address_is_a_json_414(personas, settings):
    client = Client()
    client.force_login(personas["gm"])
    response = client.get("/api/v1/campaigns/", {"q": "a" * settings.MAX_URL_LENGTH})
    assert response.status_code == 414
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"errors": {"detail": [
        f"The address is too long: at most {settings.MAX_URL_LENGTH} characters."]}}
    # Just under the limit, the same request is served.
    assert client.get("/api/v1/campaigns/", {"q": "a" * (settings.MAX_URL_LENGTH - 40)}).status_code == 200


def test_an_over_long_page_address_is_a_414_page(personas, settings):
    client = Client()
    client.force_login(personas["gm"])
    response = client.get("/", {"q": "a" * settings.MAX_URL_LENGTH})
    assert response.status_code == 414 and response["Content-Type"].startswith("text/html")
    assert b"The address is too long" in response.content


def test_over_large_headers_are_a_json_431_and_change_nothing(personas, settings):
    from campaign.models import Campaign

    client = Client()
    client.force_login(personas["gm"])
    before = Campaign.objects.count()
    response = client.post("/api/v1/campaigns/", {"name": "Never made"}, content_type="application/json",
                           HTTP_X_PADDING="p" * settings.MAX_HEADER_BYTES)
    assert response.status_code == 431
    assert response.json()["errors"]["detail"][0].startswith("The request headers are too large")
    assert Campaign.objects.count() == before
