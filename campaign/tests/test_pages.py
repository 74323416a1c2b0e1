"""Campaign pages: who sees what, and what a bad form does."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_anonymous_is_sent_to_login(personas, client):
    campaign = personas["campaign"]
    for url in (reverse("home"), reverse("campaign-dashboard", args=[campaign.pk])):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))


@pytest.mark.parametrize("persona, status", [
    ("gm", 200), ("player", 200), ("other_player", 200), ("viewer", 200), ("outsider", 404),
])
def test_dashboard_access(personas, client, persona, status):
    client.force_login(personas[persona])
    response = client.get(reverse("campaign-dashboard", args=[personas["campaign"].pk]))
    assert response.status_code == status
    if status == 200:
        assert b"Test campaign" in response.content
        # Only the GM is offered to advance downtime; the others read the downtimes.
        assert (b"Advance downtime" in response.content) == (persona == "gm")


def test_home_creates_a_campaign(personas, client):
    client.force_login(personas["outsider"])
    response = client.post(reverse("home"), {"name": "Gatecrashers", "stat_entry": "roll"}, follow=True)
    assert response.status_code == 200
    assert b"Gatecrashers" in response.content and b"You are its GM" in response.content


def test_home_form_errors_keep_input(personas, client):
    client.force_login(personas["outsider"])
    response = client.post(reverse("home"), {"name": "", "description": "kept text", "stat_entry": "enter"})
    assert response.status_code == 400  # refused, with the form as typed
    assert b"kept text" in response.content and b"required" in response.content


def test_dashboard_query_count_does_not_grow_with_members(personas, client, make_user,
                                                         django_assert_max_num_queries):
    from campaign import services

    client.force_login(personas["gm"])
    url = reverse("campaign-dashboard", args=[personas["campaign"].pk])
    client.get(url)  # at most 14: the page, the roll feed and the live stream's last id included
    with django_assert_max_num_queries(14) as few:
        client.get(url)
    for i in range(15):
        make_user(f"extra{i}")
        services.membership_add(campaign=personas["campaign"], username=f"extra{i}", role="viewer", by=personas["gm"])
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(url)


def test_error_pages_offer_a_way_back(personas, client):
    client.force_login(personas["player"])
    missing = client.get("/campaigns/999999/")
    assert missing.status_code == 404 and b"Your campaigns" in missing.content
    refused = client.post(reverse("campaign-settings", args=[personas["campaign"].pk]), {"name": "Mine now"})
    assert refused.status_code == 403 and b"Your campaigns" in refused.content
