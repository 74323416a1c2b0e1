"""The account page: the name, an e-mail changed through a link sent to it, the API token shown
once, revoked or made anew, and the campaigns one is in; each only for oneself."""

import re

import pytest
from django.core import mail, signing
from rest_framework.authtoken.models import Token

from zenergate_site.email_links import email_link_token
from zenergate_site.tasks import send_email_confirmation

pytestmark = pytest.mark.django_db


def test_the_account_page_shows_one_self_and_ones_campaigns(personas, client):
    assert client.get("/accounts/").status_code == 302  # log in first
    client.force_login(personas["player"])
    page = client.get("/accounts/").content.decode()
    assert "<h1>player</h1>" in page and personas["campaign"].name in page and "No token" in page
    saved = client.post("/accounts/", {"action": "name", "first_name": "Alice Moreau"})
    assert saved.status_code == 302
    personas["player"].refresh_from_db()
    assert personas["player"].first_name == "Alice Moreau"
    assert client.post("/accounts/", {"action": "nothing"}).status_code == 400


def test_an_email_changes_only_through_the_link_sent_to_it(personas, client, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user = personas["player"]
    client.force_login(user)
    refused = client.post("/accounts/", {"action": "email", "email": "not an address"})
    assert refused.status_code == 400
    # The mail is the worker's job once the answer is sent; here it is run by hand below.
    response = client.post("/accounts/", {"action": "email", "email": "alice@example.org"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email != "alice@example.org"  # not yet
    send_email_confirmation(user_id=user.pk, email="alice@example.org", domain="testserver", use_https=False)
    (message,) = mail.outbox
    assert message.to == ["alice@example.org"]
    link = re.search(r"http://testserver(/accounts/email/[^\s]+/)", message.body).group(1)
    assert "Confirm your e-mail" in client.get(link).content.decode()
    user.refresh_from_db()
    assert user.email != "alice@example.org"  # opening the page changes nothing; confirming does
    assert client.post(link).status_code == 302
    user.refresh_from_db()
    assert user.email == "alice@example.org"
    # Someone else's link, a forged one and an old one change nothing.
    other = email_link_token(personas["gm"].pk, "mine@example.org")
    client.post(f"/accounts/email/{other}/")
    client.post("/accounts/email/forged/")
    tampered = signing.dumps({"user": user.pk, "email": "evil@example.org"}, salt="another.salt")
    client.post(f"/accounts/email/{tampered}/")
    user.refresh_from_db()
    assert user.email == "alice@example.org"


def test_the_api_token_is_shown_once_and_can_be_revoked(personas, client):
    client.force_login(personas["player"])
    made = client.post("/accounts/", {"action": "token_new"}).content.decode()
    key = Token.objects.get(user=personas["player"]).key
    assert f"<code data-token>{key}</code>" in made
    again = client.get("/accounts/").content.decode()
    assert key not in again and "It is never shown again" in again
    renewed = client.post("/accounts/", {"action": "token_new"}).content.decode()
    new_key = Token.objects.get(user=personas["player"]).key
    assert new_key != key and new_key in renewed
    client.post("/accounts/", {"action": "token_revoke"})
    assert not Token.objects.filter(user=personas["player"]).exists()
