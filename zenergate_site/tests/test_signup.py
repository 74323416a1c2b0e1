"""Sign-up as the site decides (``SIGNUP``): closed, through invitation links only (the default),
or open, where a new account confirms its e-mail by a link before it may make campaigns."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from campaign import services
from campaign.models import Account, Campaign, Membership

pytestmark = pytest.mark.django_db

NEW = {"username": "mira", "email": "mira@example.org", "password": "a long walk home"}


@pytest.fixture
def open_signup(settings):
    settings.SIGNUP = "open"
    cache.clear()  # the per-address counts
    yield settings
    cache.clear()


def _link(tmp_path) -> str:
    (mail,) = list(tmp_path.iterdir())
    return re.search(r"http://testserver(/accounts/email/[^\s]+/)", mail.read_text()).group(1)


def test_by_default_the_site_takes_no_sign_ups_but_invitation_links_make_accounts(client, personas, settings):
    assert settings.SIGNUP == "invite"
    page = client.get("/accounts/signup/")
    assert page.status_code == 404 and "No sign-up on this site" in page.content.decode()
    assert client.post("/accounts/signup/", NEW).status_code == 404
    assert "Make an account" not in client.get("/accounts/login/").content.decode()
    assert not get_user_model().objects.filter(username="mira").exists()
    link = services.invitation_create(campaign=personas["campaign"], role="player", by=personas["gm"])
    joined = client.post(f"/join/{link.token}/", {"username": "mira", "password": NEW["password"]})
    assert joined.status_code == 302
    assert Membership.objects.filter(campaign=personas["campaign"], user__username="mira").exists()


def test_a_closed_site_lets_no_one_make_their_own_account(client, personas, settings):
    settings.SIGNUP = "closed"
    link = services.invitation_create(campaign=personas["campaign"], role="player", by=personas["gm"])
    page = client.get(f"/join/{link.token}/").content.decode()
    assert "Make my account" not in page and "accounts come from its staff or a GM" in page
    refused = client.post(f"/join/{link.token}/", {"username": "mira", "password": NEW["password"]})
    assert refused.status_code == 403
    assert not get_user_model().objects.filter(username="mira").exists()
    # Someone with an account still joins by the link.
    client.force_login(personas["outsider"])
    assert client.post(f"/join/{link.token}/").status_code == 302
    assert Membership.objects.filter(campaign=personas["campaign"], user=personas["outsider"]).exists()


def test_an_open_sign_up_confirms_the_email_before_the_account_makes_campaigns(client, open_signup,
                                                                              worker_sends_at_once, tmp_path):
    assert "Make an account" in client.get("/accounts/login/").content.decode()
    with worker_sends_at_once():
        made = client.post("/accounts/signup/", NEW)
    assert made.status_code == 302 and made.url == "/"
    user = get_user_model().objects.get(username="mira")
    assert user.email == "mira@example.org" and user.check_password(NEW["password"])
    assert Account.objects.get(user=user).awaits_confirmation
    home = client.get("/").content.decode()  # logged in, told what to do next
    assert "mira@example.org" in home and "not confirmed yet" in home
    assert "Create campaign" not in home and "Import campaign" not in home  # no form filled in for nothing
    refused = client.post("/", {"name": "Mira's table", "stat_entry": "enter"})
    assert refused.status_code == 409 and "Confirm your e-mail first" in refused.content.decode()
    api = client.post("/api/v1/campaigns/", {"name": "Mira's table"}, content_type="application/json")
    assert api.status_code == 409 and "Confirm your e-mail first" in api.json()["errors"]["detail"][0]
    assert not Campaign.objects.exists() or not Membership.objects.filter(user=user).exists()
    # The link from the mail: opening it shows the change, confirming it lets campaigns be made.
    link = _link(tmp_path)
    assert client.get(link).status_code == 200
    assert client.post(link).status_code == 302
    assert not Account.objects.get(user=user).awaits_confirmation
    assert client.post("/", {"name": "Mira's table", "stat_entry": "enter"}).status_code == 302
    assert Membership.objects.filter(user=user, role="gm", campaign__name="Mira's table").exists()


def test_a_lost_link_is_sent_again_from_the_account_page(client, open_signup, worker_sends_at_once, tmp_path):
    client.post("/accounts/signup/", NEW)  # its mail's job never ran: the link is lost
    page = client.get("/accounts/").content.decode()
    assert "Not confirmed yet" in page and "Send the link again" in page
    with worker_sends_at_once():
        assert client.post("/accounts/", {"action": "email_again"}).status_code == 302
    assert client.post(_link(tmp_path)).status_code == 302
    assert "Not confirmed yet" not in client.get("/accounts/").content.decode()


def test_an_unconfirmed_account_may_not_import_a_campaign_either(client, open_signup):
    client.post("/accounts/signup/", NEW)
    document = {"format": "zenergate-campaign", "version": 1, "campaign": {"name": "Smuggled"}}
    api = client.post("/api/v1/campaigns/import/", document, content_type="application/json")
    assert api.status_code == 409 and "Confirm your e-mail first" in api.json()["errors"]["detail"][0]
    assert not Campaign.objects.filter(name__startswith="Smuggled").exists()


def test_a_sign_up_is_refused_with_a_reason_and_keeps_what_was_typed(client, open_signup, personas):
    for bad, field, reason in (({"email": ""}, "email", "This field is required"),
                               ({"email": "nowhere"}, "email", "Enter a valid email address"),
                               ({"username": "player"}, "username", "There is already a user called player"),
                               ({"username": "no spaces please"}, "username", ""),
                               ({"password": "12345678"}, "password", "entirely numeric")):
        answer = client.post("/accounts/signup/", {**NEW, **bad})
        assert answer.status_code in (400, 409), bad
        page = answer.content.decode()
        assert reason in page, bad
        assert not get_user_model().objects.filter(username=(bad.get("username") or "mira"), account__isnull=False
                                                   ).exists()
        if field != "email" and "@" in NEW["email"]:
            assert 'value="mira@example.org"' in page  # what was typed stays in the form


def test_sign_ups_are_throttled_per_address_and_counted_per_day(client, open_signup):
    open_signup.SIGNUP_ADDRESS_LIMIT = 2
    for n in range(2):
        assert client.post("/accounts/signup/", {**NEW, "username": f"guest{n}"}).status_code == 302
        client.logout()
    throttled = client.post("/accounts/signup/", {**NEW, "username": "guest2"})
    assert throttled.status_code == 429 and "try again in an hour" in throttled.content.decode()
    assert not get_user_model().objects.filter(username="guest2").exists()
    cache.clear()
    open_signup.SIGNUP_DAILY_LIMIT = 2  # two made in the last 24 hours already
    full = client.post("/accounts/signup/", {**NEW, "username": "guest3"})
    assert full.status_code == 409 and "as many sign-ups as it allows today" in full.content.decode()
    assert Account.objects.filter(signed_up_at__isnull=False).count() == 2


def test_accounts_made_by_a_gm_or_a_link_make_campaigns_without_a_confirmation(client, personas):
    link = services.invitation_create(campaign=personas["campaign"], role="player", by=personas["gm"])
    client.post(f"/join/{link.token}/", {"username": "theo", "password": NEW["password"]})
    assert client.post("/", {"name": "Theo's table", "stat_entry": "enter"}).status_code == 302


def test_every_path_that_makes_an_account_takes_the_same_names(client, open_signup, personas):
    """A name one path refuses, no path takes: the GM's account form, a link's form, the sign-up page."""
    from campaign.errors import CampaignError

    for bad in ("\u200b\u200b", "evil\u202eman", "no spaces"):
        with pytest.raises(CampaignError):
            services.account_create(campaign=personas["campaign"], username=bad, role="player", by=personas["gm"])
        link = services.invitation_create(campaign=personas["campaign"], role="player", by=personas["gm"])
        assert client.post(f"/join/{link.token}/", {"username": bad, "password": NEW["password"]}).status_code == 400
        assert client.post("/accounts/signup/", {**NEW, "username": bad}).status_code == 400
    assert not get_user_model().objects.filter(username__in=["evil\u202eman", "no spaces"]).exists()
