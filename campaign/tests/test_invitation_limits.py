"""A link for anyone lets in at most the number of people the GM set (20 unless they say), its
sign-ups count toward the GM's daily account limit, and sign-ups are throttled per address."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign import services
from campaign.models import Invitation

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-enough-phrase-42"


@pytest.fixture(autouse=True)
def _fresh_counts():
    cache.clear()
    yield
    cache.clear()


def _link(personas, **options) -> Invitation:
    return services.invitation_create(campaign=personas["campaign"], role="player", by=personas["gm"],
                                      single_use=False, expires_at=timezone.now() + timedelta(days=3), **options)


def _sign_up(token: str, username: str, address: str = "10.0.0.1"):
    return Client(REMOTE_ADDR=address).post(reverse("join", args=[token]),
                                             {"username": username, "password": PASSWORD})


def test_a_link_for_anyone_lets_in_no_more_than_its_cap(personas):
    link = _link(personas, max_uses=3)
    answers = [_sign_up(link.token, f"visitor{n}", address=f"10.0.1.{n}").status_code for n in range(5)]
    assert answers[:3] == [302, 302, 302] and answers[3:] == [410, 410]  # the link is used up: gone
    assert get_user_model().objects.filter(username__startswith="visitor").count() == 3
    link.refresh_from_db()
    assert link.uses == 3 and not link.open_now(timezone.now())


def test_the_cap_is_twenty_unless_the_gm_says_and_bounded(personas):
    assert _link(personas).max_uses == 20
    with pytest.raises(services.CampaignError):
        _link(personas, max_uses=0)
    with pytest.raises(services.CampaignError):
        _link(personas, max_uses=201)


def test_the_api_takes_and_shows_the_cap(personas, api_as):
    gm = api_as("gm")
    made = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/invitations/",
                   {"role": "player", "single_use": False, "max_uses": 5,
                    "expires_at": (timezone.now() + timedelta(days=2)).isoformat()}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["max_uses"] == 5
    refused = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/invitations/",
                      {"role": "player", "single_use": False, "max_uses": 1000}, format="json")
    assert refused.status_code == 400 and "max_uses" in refused.json()["errors"]


def test_sign_ups_through_links_count_toward_the_gms_daily_account_limit(personas, settings):
    settings.ACCOUNT_CREATION_DAILY_LIMIT = 2
    link = _link(personas, max_uses=10)
    answers = [_sign_up(link.token, f"guest{n}", address=f"10.0.2.{n}").status_code for n in range(4)]
    assert answers == [302, 302, 409, 409]
    assert get_user_model().objects.filter(username__startswith="guest").count() == 2
    # And the GM's own account making shares the same count.
    with pytest.raises(services.CampaignConflict):
        services.account_create(campaign=personas["campaign"], username="minted", role="player", by=personas["gm"])


def test_sign_ups_are_throttled_per_address(personas, settings):
    settings.JOIN_ADDRESS_LIMIT = 2
    link = _link(personas, max_uses=10)
    answers = [_sign_up(link.token, f"crowd{n}").status_code for n in range(3)]
    assert answers == [302, 302, 429]
    assert _sign_up(link.token, "elsewhere", address="10.9.9.9").status_code == 302
    assert get_user_model().objects.filter(username__startswith="crowd").count() == 2
