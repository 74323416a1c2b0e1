"""The page buttons: "Export campaign" on the settings page, "Import a campaign" on the campaigns page."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaign.models import Campaign, Membership

pytestmark = pytest.mark.django_db


def _export_link(html: str) -> str | None:
    found = re.search(r'<a [^>]*href="([^"]+)"[^>]*>Export campaign</a>', html)
    return found and found.group(1)


@pytest.mark.parametrize("persona, shown", [("gm", True), ("player", False), ("viewer", False)])
def test_only_the_gm_sees_the_export_button(personas, client, persona, shown):
    client.force_login(personas[persona])
    response = client.get(reverse("campaign-settings", args=[personas["campaign"].pk]))
    assert response.status_code == 200
    assert bool(_export_link(response.content.decode())) == shown


def test_the_export_button_downloads_the_document(personas, client):
    client.force_login(personas["gm"])
    page = client.get(reverse("campaign-settings", args=[personas["campaign"].pk])).content.decode()

    response = client.get(_export_link(page))

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="test-campaign-')
    assert json.loads(response.content)["format"] == "zenergate-campaign"


def _upload(client, content: bytes, name: str = "campaign.json"):
    return client.post(reverse("campaign-import"), {"document": SimpleUploadedFile(name, content)})


def test_the_import_form_is_on_the_campaigns_page_and_lands_on_the_new_campaign(personas, client):
    client.force_login(personas["gm"])
    exported = client.get(f"/api/v1/campaigns/{personas['campaign'].pk}/export/").content
    client.force_login(personas["outsider"])
    page = client.get(reverse("home")).content.decode()
    assert f'action="{reverse("campaign-import")}"' in page and 'type="file"' in page

    response = _upload(client, exported)

    copy = Campaign.objects.exclude(pk=personas["campaign"].pk).get()
    assert response.status_code == 302 and response.url == reverse("campaign-imported", args=[copy.pk])
    assert Membership.objects.get(campaign=copy, user=personas["outsider"]).role == "gm"
    landing = client.get(response.url).content.decode()
    assert "imported" in landing and "Nobody joins through a document" in landing
    assert '<th scope="row">player</th><td data-outcome>on this server, not invited</td>' in landing
    chosen = client.post(response.url, {"invite": ["player"]})
    assert chosen.status_code == 302
    after = client.get(response.url).content.decode()
    assert '<th scope="row">player</th><td data-outcome>invited as player</td>' in after
    assert '<th scope="row">viewer</th><td data-outcome>on this server, not invited</td>' in after
    client.force_login(personas["player"])
    assert client.get(response.url).status_code == 404  # not a member of the copy


@pytest.mark.parametrize("content, shown", [
    (b"not json at all", "not JSON"),
    (b"\xff\xfe\x00", "not UTF-8"),
    (b'{"format": "zenergate-campaign", "version": 3}', "version"),
    (b'{"format": "zenergate-campaign", "version": 1, "campaign": {"name": "' + b"x" * 121 + b'"}}', "campaign.name"),
])
def test_a_bad_file_goes_back_to_the_campaigns_page_with_the_errors(personas, client, content, shown):
    client.force_login(personas["outsider"])
    before = Campaign.objects.count()

    response = _upload(client, content)

    assert response.status_code == 302 and response.url == reverse("home") + "#import"
    assert Campaign.objects.count() == before
    assert shown in client.get(response.url).content.decode()


def test_a_file_over_the_limit_is_refused(personas, client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    client.force_login(personas["outsider"])
    response = _upload(client, b"{" + b" " * 200 + b"}")
    assert "at most 100" in client.get(response.url).content.decode()


def test_anonymous_is_sent_to_log_in(db, client):
    response = _upload(client, b"{}")
    assert response.status_code == 302 and reverse("login") in response.url
