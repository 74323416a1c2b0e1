"""The database not answering (PostgreSQL out of connections, restarting, unreachable) is a 503
with Retry-After on the pages and the API, never a 500: a client may try again in a moment."""

import pytest
from django.db import connection
from django.test import Client

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def database_gone(personas):
    """Every new connection fails to connect from here on (a socket directory with no server)."""
    settings_dict = connection.settings_dict
    kept = (settings_dict["HOST"], settings_dict["PORT"])
    connection.close()
    settings_dict["HOST"], settings_dict["PORT"] = "/nonexistent-socket-dir", "5"
    try:
        yield
    finally:
        connection.close()
        settings_dict["HOST"], settings_dict["PORT"] = kept


def test_a_page_that_needs_the_database_answers_503_with_retry_after(database_gone):
    response = Client(raise_request_exception=False).post("/accounts/login/", {"username": "gm", "password": "x"})
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "Try again in a moment" in response.content.decode()


def test_the_api_answers_a_json_503_with_retry_after(database_gone):
    response = Client(raise_request_exception=False).post(
        "/api/v1/auth/token/", {"username": "gm", "password": "x"}, content_type="application/json")
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert response.json()["errors"]["detail"][0].startswith("The server is busy")


def test_a_query_the_database_refuses_is_still_a_500_not_a_503():
    """Only "not now" is a 503: a programming error stays a server error (and is logged)."""
    from django.db.utils import OperationalError, ProgrammingError

    from zenergate_site.errors import is_database_unavailable

    with pytest.raises(ProgrammingError) as refused:
        with connection.cursor() as cursor:
            cursor.execute("SELECT no_such_column FROM auth_user")
    assert not is_database_unavailable(refused.value)
    assert not is_database_unavailable(OperationalError("no cause"))
