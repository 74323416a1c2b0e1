"""Caching rules: a signed-in page and every API answer are private and never stored; a static file
keeps its long caching."""

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from conftest import PASSWORD

pytestmark = pytest.mark.django_db


def directives(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


def vary(response) -> set[str]:
    return {part.strip().casefold() for part in response.get("Vary", "").split(",") if part.strip()}


def test_a_signed_in_page_is_private_and_not_stored(personas):
    client = Client()
    client.force_login(personas["player"])
    response = client.get(reverse("campaign-dashboard", args=[personas["campaign"].pk]))
    assert response.status_code == 200
    assert {"private", "no-store"} <= directives(response)


def test_an_api_answer_is_private_not_stored_and_varies_on_the_credentials(personas):
    token = Token.objects.create(user=personas["player"])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = api.get(f"/api/v1/campaigns/{personas['campaign'].pk}/")
    assert response.status_code == 200
    assert {"private", "no-store"} <= directives(response)
    assert {"cookie", "authorization"} <= vary(response)


def test_api_errors_and_the_token_answer_are_not_stored_either(personas):
    refused = APIClient().get(f"/api/v1/campaigns/{personas['campaign'].pk}/")
    assert refused.status_code in (401, 403) and "no-store" in directives(refused)
    token = APIClient().post("/api/v1/auth/token/", {"username": "player", "password": PASSWORD}, format="json")
    assert token.status_code == 200 and {"private", "no-store"} <= directives(token)
    assert {"cookie", "authorization"} <= vary(token)


def test_a_static_file_keeps_its_public_caching(personas):
    client = Client()
    client.force_login(personas["player"])
    response = client.get("/static/css/app.css")
    assert response.status_code == 200
    assert "no-store" not in directives(response) and "private" not in directives(response)
    assert any(part.startswith("max-age=") and int(part.split("=")[1]) > 0 for part in directives(response))
