"""Archiving a campaign: read-only and out of the list, restorable; an archived one is deleted
once its GM types its name."""

import pytest
from django.urls import reverse

from campaign.models import Campaign
from rolls.models import Roll

pytestmark = pytest.mark.django_db


def _settings(client, personas, **data):
    return client.post(reverse("campaign-settings", args=[personas["campaign"].pk]), data)


def test_an_archived_campaign_is_read_only_and_out_of_the_list(personas, client, api_as):
    campaign = personas["campaign"]
    client.force_login(personas["gm"])
    assert _settings(client, personas, action="archive").status_code == 302
    campaign.refresh_from_db()
    assert campaign.archived_at is not None
    home = client.get(reverse("home")).content.decode()
    assert "Archived campaigns" in home and f"/campaigns/{campaign.pk}/settings/#archive" in home
    assert campaign.pk not in [c["id"] for c in api_as("player").get("/api/v1/campaigns/").json()]
    dashboard = client.get(reverse("campaign-dashboard", args=[campaign.pk]))
    assert dashboard.status_code == 200 and "Archived: read-only" in dashboard.content.decode()
    refused = api_as("player").post(f"/api/v1/campaigns/{campaign.pk}/rolls/", {"notation": "2d6"}, format="json")
    assert refused.status_code == 409 and "archived" in str(refused.json())
    assert not Roll.objects.filter(campaign=campaign).exists()
    assert _settings(client, personas, action="restore").status_code == 302
    made = api_as("player").post(f"/api/v1/campaigns/{campaign.pk}/rolls/", {"notation": "2d6"}, format="json")
    assert made.status_code == 201


def test_only_the_gm_archives(personas, client):
    client.force_login(personas["player"])
    assert _settings(client, personas, action="archive").status_code == 403
    personas["campaign"].refresh_from_db()
    assert personas["campaign"].archived_at is None


def test_deleting_needs_the_archive_and_the_name(personas, client):
    campaign = personas["campaign"]
    client.force_login(personas["gm"])
    _settings(client, personas, action="delete", confirm=campaign.name)
    assert Campaign.objects.filter(pk=campaign.pk).exists()  # not archived yet
    _settings(client, personas, action="archive")
    _settings(client, personas, action="delete", confirm="test campaign")
    assert Campaign.objects.filter(pk=campaign.pk).exists()  # the name, exactly
    response = _settings(client, personas, action="delete", confirm=campaign.name)
    assert response.status_code == 302 and not Campaign.objects.filter(pk=campaign.pk).exists()
