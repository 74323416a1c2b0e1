"""Every page names its icon, and /favicon.ico leads to it (no 404 on a first visit)."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_icon_is_linked_and_served(client):
    page = client.get("/accounts/login/")
    assert b'rel="icon" href="/static/favicon.svg"' in page.content
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"
    icon = Client().get(response["Location"])
    assert icon.status_code == 200 and b"<svg" in b"".join(icon.streaming_content if icon.streaming else [icon.content])
