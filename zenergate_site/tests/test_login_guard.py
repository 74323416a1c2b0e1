"""Log-in lockouts on the page, the admin and the token endpoint, counted in the real Redis."""

import logging
import socket
import time

import pytest
from django.core.cache import cache
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from conftest import PASSWORD
from zenergate_site import login_guard

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
TOKEN = "/api/v1/auth/token/"
ACCOUNT_LOCKED = "Too many failed log-ins for this account. Try again in 15 minutes."
ADDRESS_LOCKED = "Too many failed log-ins from your network address. Try again in 15 minutes."


def end_the_wait(*, username: str = "", address: str = "") -> None:
    """Move the stored end of a lockout into the past and drop its count (which ends with it),
    as if the wait were over."""
    for key in login_guard.subject_keys(username=username, address=address):
        if cache.get(login_guard.lock_key(key)) is not None:
            cache.set(login_guard.lock_key(key), time.time() - 1, timeout=60)
            cache.delete(login_guard.failures_key(key))


def shorten_the_wait(seconds: float, *, username: str) -> None:
    for key in login_guard.subject_keys(username=username):
        cache.set(login_guard.lock_key(key), time.time() + seconds, timeout=60)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def page_login(client, username, password, **extra):
    return client.post(LOGIN, {"username": username, "password": password}, **extra)


# --- The log-in page -----------------------------------------------------------------------
def test_thirty_wrong_passwords_on_the_page_lock_the_account_until_the_wait_is_over(personas, client):
    for attempt in range(1, 31):
        response = page_login(client, "player", f"wrong-{attempt}")
        if attempt < 5:
            assert response.status_code == 200 and b"do not match" in response.content
        else:  # the fifth failure starts the lockout; the attempts after it change nothing
            assert response.status_code == 429, attempt
            assert ACCOUNT_LOCKED in response.content.decode()
            assert 890 <= int(response["Retry-After"]) <= 900
    # In the site's layout, with the username kept for the next try.
    assert b'class="topbar"' in response.content and b'value="player"' in response.content

    right = page_login(client, "player", PASSWORD)
    assert right.status_code == 429 and ACCOUNT_LOCKED in right.content.decode()
    assert not logged_in(client)

    shorten_the_wait(14 * 60 - 5, username="player")
    assert "Try again in 14 minutes." in page_login(client, "player", PASSWORD).content.decode()
    shorten_the_wait(30, username="player")
    assert "Try again in 1 minute." in page_login(client, "player", PASSWORD).content.decode()

    end_the_wait(username="player")
    response = page_login(client, "player", PASSWORD)
    assert response.status_code == 302 and response.url == reverse("home")
    assert logged_in(client)


def test_the_lock_is_per_username_whatever_its_case_and_leaves_other_accounts_alone(personas, client):
    for attempt in range(5):
        page_login(client, "Player" if attempt % 2 else "PLAYER", "wrong")
    assert page_login(client, "player", PASSWORD).status_code == 429
    assert page_login(Client(), "gm", PASSWORD).status_code == 302


def test_a_success_resets_the_accounts_count(personas, client):
    for _ in range(4):
        assert page_login(client, "player", "wrong").status_code == 200
    assert page_login(client, "player", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):  # four more: the earlier four were forgotten
        assert page_login(client, "player", "wrong").status_code == 200
    assert page_login(client, "player", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        page_login(client, "player", "wrong")
    assert page_login(client, "player", "wrong").status_code == 429


def test_many_usernames_from_one_address_lock_the_address(personas, client, settings):
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 20
    for number in range(19):  # one try each: no account reaches its own limit
        assert page_login(client, f"guess-{number}", "wrong").status_code == 200
    response = page_login(client, "viewer", "wrong")
    assert response.status_code == 429 and ADDRESS_LOCKED in response.content.decode()

    # From this address even a right password of an untouched account is refused...
    assert page_login(Client(), "gm", PASSWORD).status_code == 429
    assert APIClient().post(TOKEN, {"username": "gm", "password": PASSWORD}, format="json").status_code == 429
    # ...while other addresses log in.
    assert page_login(Client(), "gm", PASSWORD, REMOTE_ADDR="198.51.100.7").status_code == 302

    end_the_wait(address="127.0.0.1")
    assert page_login(Client(), "gm", PASSWORD).status_code == 302


def test_a_forwarded_address_counts_only_behind_a_trusted_proxy(personas, settings):
    def attempt(forwarded_for, password="wrong"):
        return page_login(Client(), "player", password, REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded_for)

    settings.LOGIN_FAILURE_LIMIT = 0  # only the address counts here
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    # No trusted proxy: a client cannot dodge its count by making up X-Forwarded-For.
    for number in range(3):
        attempt(f"203.0.113.{number}")
    assert attempt("203.0.113.99", PASSWORD).status_code == 429
    login_guard.unlock_all()

    # One proxy: the address it appended is the client's; what the client sent before it is not.
    settings.LOGIN_TRUSTED_PROXIES = 1
    for _ in range(3):
        attempt("1.2.3.4, 203.0.113.5")
    assert attempt("9.9.9.9, 203.0.113.5", PASSWORD).status_code == 429
    assert attempt("203.0.113.6", PASSWORD).status_code == 302


def test_the_admin_log_in_honours_the_lock(personas, client, django_user_model):
    django_user_model.objects.filter(username="gm").update(is_staff=True)
    for _ in range(5):
        client.post("/admin/login/", {"username": "gm", "password": "wrong"})
    response = client.post("/admin/login/", {"username": "gm", "password": PASSWORD})
    assert response.status_code == 200 and ACCOUNT_LOCKED in response.content.decode()
    assert not logged_in(client)


def test_limits_and_wait_come_from_the_settings(personas, client, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    settings.LOGIN_LOCKOUT_SECONDS = 120
    page_login(client, "player", "wrong")
    response = page_login(client, "player", "wrong")
    assert response.status_code == 429 and "Try again in 2 minutes." in response.content.decode()


# --- The token endpoint ----------------------------------------------------------------------
def test_thirty_wrong_passwords_on_the_token_endpoint_lock_the_account(personas):
    api = APIClient()
    for attempt in range(1, 31):
        response = api.post(TOKEN, {"username": "player", "password": f"wrong-{attempt}"}, format="json")
        if attempt < 5:
            assert response.status_code == 400 and "errors" in response.json()
        else:
            assert response.status_code == 429, attempt
            assert response.json() == {"errors": {"detail": [ACCOUNT_LOCKED]}}
            assert 890 <= int(response["Retry-After"]) <= 900
    right = api.post(TOKEN, {"username": "player", "password": PASSWORD}, format="json")
    assert right.status_code == 429 and right.json() == {"errors": {"detail": [ACCOUNT_LOCKED]}}
    # One count for the page and the API: the page refuses too.
    assert page_login(Client(), "player", PASSWORD).status_code == 429

    end_the_wait(username="player")
    response = api.post(TOKEN, {"username": "player", "password": PASSWORD}, format="json")
    assert response.status_code == 200 and len(response.json()["token"]) == 40


def test_the_lock_ends_by_itself_when_its_time_is_up(personas, settings):
    settings.LOGIN_LOCKOUT_SECONDS = 1
    api = APIClient()
    for _ in range(5):
        api.post(TOKEN, {"username": "player", "password": "wrong"}, format="json")
    locked = api.post(TOKEN, {"username": "player", "password": PASSWORD}, format="json")
    assert locked.status_code == 429 and locked["Retry-After"] == "1"
    time.sleep(1.1)
    assert api.post(TOKEN, {"username": "player", "password": PASSWORD}, format="json").status_code == 200


def test_a_missing_field_is_no_failed_attempt(personas):
    api = APIClient()
    for _ in range(10):
        assert api.post(TOKEN, {"username": "player"}, format="json").status_code == 400
    assert api.post(TOKEN, {"username": "player", "password": PASSWORD}, format="json").status_code == 200


# --- Without the cache -------------------------------------------------------------------------
@pytest.fixture
def cache_down():
    """The cache pointed at a port where nothing listens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                               "LOCATION": f"redis://127.0.0.1:{port}/0"}}):
        yield


def test_with_the_cache_down_logins_still_work_and_say_so_in_the_log(personas, cache_down, caplog):
    with caplog.at_level(logging.WARNING, logger="zenergate_site.login_guard"):
        client = Client()
        for _ in range(7):
            assert page_login(client, "player", "wrong").status_code == 200
        response = page_login(client, "player", PASSWORD)
        assert response.status_code == 302 and logged_in(client)
        api = APIClient()
        assert api.post(TOKEN, {"username": "gm", "password": "wrong"}, format="json").status_code == 400
        assert api.post(TOKEN, {"username": "gm", "password": PASSWORD}, format="json").status_code == 200
    assert any("cache is unavailable" in record.getMessage() for record in caplog.records)


# --- Guesses in parallel -------------------------------------------------------------------------
def _guess_in_parallel(url: str, guesses: list[tuple[str, str]]) -> list[int]:
    """POST wrong passwords to the token endpoint all at once: (username, client address) each."""
    import threading

    import requests

    start = threading.Barrier(len(guesses))
    statuses: list[int] = [0] * len(guesses)

    def guess(index: int, username: str, address: str) -> None:
        start.wait()
        for _ in range(10):
            try:
                statuses[index] = requests_post(url, username, f"wrong-{index}", address)
                return
            except requests.ConnectionError:  # the test server's listen queue was full: not received
                time.sleep(0.05)

    threads = [threading.Thread(target=guess, args=(index, *pair)) for index, pair in enumerate(guesses)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


@pytest.fixture
def password_checks(monkeypatch):
    """How many times a password was really checked, counted at Django's own backend."""
    from django.contrib.auth.backends import ModelBackend

    checked = []
    authenticate = ModelBackend.authenticate

    def counted(self, request, username=None, password=None, **kwargs):
        checked.append(username)
        return authenticate(self, request, username=username, password=password, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counted)
    return checked


@pytest.mark.stack
@pytest.mark.django_db(transaction=True)
def test_thirty_parallel_guesses_from_thirty_addresses_check_at_most_five_passwords(
        personas, live_server, settings, password_checks):
    settings.LOGIN_TRUSTED_PROXIES = 1
    statuses = _guess_in_parallel(live_server.url, [("player", f"10.0.0.{n}") for n in range(30)])
    assert 1 <= len(password_checks) <= 5, len(password_checks)
    # A wrong password answers 400 until the failures reach the limit, then 429.
    assert statuses.count(400) <= 4 and statuses.count(429) >= 26 and set(statuses) <= {400, 429}
    # The account is locked now, the right password included.
    right = requests_post(live_server.url, "player", PASSWORD, "10.0.0.99")
    assert right == 429


@pytest.mark.stack
@pytest.mark.django_db(transaction=True)
def test_forty_parallel_guesses_from_one_address_check_at_most_twenty_passwords(
        personas, live_server, settings, password_checks):
    settings.LOGIN_TRUSTED_PROXIES = 1
    statuses = _guess_in_parallel(live_server.url, [(f"nobody-{n}", "10.0.1.1") for n in range(40)])
    assert 1 <= len(password_checks) <= 20, len(password_checks)
    assert statuses.count(400) <= 19 and statuses.count(429) >= 21 and set(statuses) <= {400, 429}
    assert requests_post(live_server.url, "player", PASSWORD, "10.0.1.1") == 429
    assert requests_post(live_server.url, "player", PASSWORD, "10.0.1.2") == 200


def requests_post(url: str, username: str, password: str, address: str) -> int:
    import requests

    return requests.post(url + TOKEN, json={"username": username, "password": password},
                         headers={"X-Forwarded-For": address}, timeout=60).status_code
