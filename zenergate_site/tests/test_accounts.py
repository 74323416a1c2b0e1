"""API tokens that expire and rotate, and logging out on every device."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from conftest import PASSWORD

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
EVERYWHERE = "/api/v1/auth/logout-everywhere/"


def token_for(username: str) -> str:
    response = APIClient().post(TOKEN, {"username": username, "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["token"]


def with_token(token: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api


def browser(username: str) -> Client:
    """A client logged in through the log-in page, as a person would."""
    client = Client()
    assert client.post(reverse("login"), {"username": username, "password": PASSWORD}).status_code == 302
    return client


def is_logged_in(client: Client) -> bool:
    return client.get(reverse("home")).status_code == 200


def test_an_expired_token_is_refused_with_a_reason(personas, settings):
    token = token_for("player")
    assert with_token(token).get("/api/v1/campaigns/").status_code == 200
    Token.objects.filter(key=token).update(created=timezone.now() - settings.TOKEN_TTL - timedelta(seconds=1))
    response = with_token(token).get("/api/v1/campaigns/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    (message,) = response.json()["errors"]["detail"]
    assert message.startswith("This token expired on ") and "POST /api/v1/auth/token/" in message
    assert with_token(token_for("player")).get("/api/v1/campaigns/").status_code == 200


def test_the_lifetime_of_a_token_is_a_setting(personas, settings):
    token = token_for("player")
    Token.objects.filter(key=token).update(created=timezone.now() - timedelta(days=2))
    settings.TOKEN_TTL = timedelta(days=3)
    assert with_token(token).get("/api/v1/campaigns/").status_code == 200
    settings.TOKEN_TTL = timedelta(days=1)
    assert with_token(token).get("/api/v1/campaigns/").status_code == 401


def test_each_log_in_issues_a_new_token_and_the_old_one_stops_working(personas):
    first = token_for("player")
    second = token_for("player")
    assert first != second
    assert Token.objects.filter(user=personas["player"]).count() == 1
    old = with_token(first).get("/api/v1/campaigns/")
    assert old.status_code == 401 and old.json() == {"errors": {"detail": ["Invalid token."]}}
    assert with_token(second).get("/api/v1/campaigns/").status_code == 200


def test_logout_everywhere_by_api_ends_every_session_and_the_token(personas):
    laptop, phone, gm = browser("player"), browser("player"), browser("gm")
    token = token_for("player")
    gm_token = token_for("gm")

    response = with_token(token).post(EVERYWHERE)
    assert response.status_code == 200 and response.json() == {"sessions_ended": 2}

    assert with_token(token).get("/api/v1/campaigns/").status_code == 401
    assert not Token.objects.filter(user=personas["player"]).exists()
    for client in (laptop, phone):
        response = client.get(reverse("home"))
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    # Nobody else is logged out.
    assert is_logged_in(gm) and with_token(gm_token).get("/api/v1/campaigns/").status_code == 200
    # And the player can log in again.
    assert is_logged_in(browser("player"))


def test_logout_everywhere_by_api_with_the_session(personas):
    laptop, phone = browser("player"), browser("player")
    api = APIClient(enforce_csrf_checks=True)
    api.cookies = laptop.cookies
    assert api.post(EVERYWHERE).status_code == 403  # a session needs its CSRF token, as for any write
    laptop.get(reverse("home"))  # the page sets the CSRF cookie
    api.cookies = laptop.cookies
    response = api.post(EVERYWHERE, HTTP_X_CSRFTOKEN=laptop.cookies["csrftoken"].value)
    assert response.status_code == 200 and response.json() == {"sessions_ended": 2}
    assert not is_logged_in(laptop) and not is_logged_in(phone)


def test_logout_everywhere_needs_a_user(db):
    response = APIClient().post(EVERYWHERE)
    assert response.status_code == 401 and "errors" in response.json()


def test_the_button_logs_out_every_browser_and_revokes_the_token(personas):
    laptop, phone, other = browser("player"), browser("player"), browser("other_player")
    token = token_for("player")
    home = laptop.get(reverse("home"))
    assert b"Log out everywhere" in home.content and reverse("logout-everywhere").encode() in home.content

    response = laptop.post(reverse("logout-everywhere"), follow=True)
    assert response.redirect_chain == [(reverse("login"), 302)]
    assert b"You are logged out on every device" in response.content
    assert not is_logged_in(laptop) and not is_logged_in(phone)
    assert with_token(token).get("/api/v1/campaigns/").status_code == 401
    assert is_logged_in(other)


def test_the_button_only_answers_a_logged_in_post(personas):
    anonymous = Client().post(reverse("logout-everywhere"))
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("login"))
    assert browser("player").get(reverse("logout-everywhere")).status_code == 405


def test_the_schema_describes_the_endpoints(personas, api_as):
    schema = api_as("gm").get("/api/schema/?format=json").json()
    assert "post" in schema["paths"]["/api/v1/auth/logout-everywhere/"]
    token_responses = schema["paths"]["/api/v1/auth/token/"]["post"]["responses"]
    assert {"200", "400", "429"} <= set(token_responses)


@pytest.mark.django_db(transaction=True)
def test_log_ins_of_one_user_at_once_leave_one_working_token(make_user):
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from django.db import connection

    make_user("player")
    barrier = Barrier(6)

    def log_in(_):
        try:
            barrier.wait()
            response = APIClient().post(TOKEN, {"username": "player", "password": PASSWORD}, format="json")
            return response.status_code, response.json().get("token")
        finally:
            connection.close()

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(log_in, range(6)))
    # No more passwords are checked at once than the lockout's limit (5): a sixth is asked to wait.
    statuses = sorted(status for status, _ in results)
    assert statuses in ([200] * 6, [200] * 5 + [429])
    results = [(status, token) for status, token in results if status == 200]
    (kept,) = Token.objects.values_list("key", flat=True)
    assert kept in {token for _, token in results}
    working = [token for _, token in results if with_token(token).get("/api/v1/campaigns/").status_code == 200]
    assert working == [kept]
