"""The campaign API for every persona: gm, player, other player, viewer, outsider, anonymous."""

import pytest
from django.urls import reverse

from campaign.models import Campaign, LogEntry, Membership

pytestmark = pytest.mark.django_db


def test_list_shows_only_the_callers_campaigns(personas, api_as, make_user):
    from campaign import services

    other = services.campaign_create(name="Someone else's", by=make_user("stranger"))
    response = api_as("player").get("/api/v1/campaigns/")
    assert response.status_code == 200
    assert [c["name"] for c in response.json()] == ["Test campaign"]
    assert response.json()[0]["role"] == "player"
    assert other.pk not in [c["id"] for c in response.json()]
    assert api_as("outsider").get("/api/v1/campaigns/").json() == []


def test_anonymous_gets_401_everywhere(personas, api_as):
    campaign = personas["campaign"]
    client = api_as(None)
    for url in ("/api/v1/campaigns/", f"/api/v1/campaigns/{campaign.pk}/",
                f"/api/v1/campaigns/{campaign.pk}/members/"):
        response = client.get(url)
        assert response.status_code == 401, url
        assert "errors" in response.json()
    assert client.post("/api/v1/campaigns/", {"name": "x"}, format="json").status_code == 401


def test_create_makes_the_caller_gm(personas, api_as):
    response = api_as("outsider").post("/api/v1/campaigns/", {"name": "  New Gate  "}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "New Gate" and body["role"] == "gm"
    membership = Membership.objects.get(campaign_id=body["id"])
    assert membership.user == personas["outsider"] and membership.role == "gm"
    assert LogEntry.objects.filter(campaign_id=body["id"], action="campaign.create").count() == 1


@pytest.mark.parametrize("payload, field", [
    ({}, "name"),
    ({"name": ""}, "name"),
    ({"name": "x" * 121}, "name"),
    ({"name": "ok", "stat_entry": "dice-bag"}, "stat_entry"),
])
def test_create_rejects_bad_payloads_with_field_messages(personas, api_as, payload, field):
    before = Campaign.objects.count()
    response = api_as("player").post("/api/v1/campaigns/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert response.json()["errors"][field][0]
    assert Campaign.objects.count() == before


def test_create_rejects_non_json_garbage(personas, api_as):
    response = api_as("player").post("/api/v1/campaigns/", "not json{", content_type="application/json")
    assert response.status_code == 400
    assert "errors" in response.json()


@pytest.mark.parametrize("persona, status", [
    ("gm", 200), ("player", 200), ("other_player", 200), ("viewer", 200), ("outsider", 404),
])
def test_detail_is_404_for_non_members(personas, api_as, persona, status):
    campaign = personas["campaign"]
    response = api_as(persona).get(f"/api/v1/campaigns/{campaign.pk}/")
    assert response.status_code == status
    if status == 200:
        assert response.json()["id"] == campaign.pk
        assert response.json()["role"] == {"gm": "gm", "viewer": "viewer"}.get(persona, "player")


def test_unknown_campaign_is_404(personas, api_as):
    assert api_as("gm").get("/api/v1/campaigns/999999/").status_code == 404


@pytest.mark.parametrize("persona, status", [
    ("gm", 201), ("player", 403), ("other_player", 403), ("viewer", 403), ("outsider", 404),
])
def test_adding_members_is_gm_only(personas, api_as, make_user, persona, status):
    make_user("newcomer")
    campaign = personas["campaign"]
    response = api_as(persona).post(f"/api/v1/campaigns/{campaign.pk}/members/",
                                    {"username": "newcomer", "role": "player"}, format="json")
    assert response.status_code == status
    assert Membership.objects.filter(campaign=campaign, user__username="newcomer").exists() == (status == 201)


@pytest.mark.parametrize("payload, field, status", [
    ({"username": "nobody-here", "role": "player"}, "username", 400),
    ({"username": "newcomer", "role": "overlord"}, "role", 400),
    ({"role": "player"}, "username", 400),
    ({"username": "player", "role": "viewer"}, "username", 409),
])
def test_adding_members_validates(personas, api_as, make_user, payload, field, status):
    make_user("newcomer")
    campaign = personas["campaign"]
    before = list(Membership.objects.filter(campaign=campaign).values_list("user__username", "role"))
    response = api_as("gm").post(f"/api/v1/campaigns/{campaign.pk}/members/", payload, format="json")
    assert response.status_code == status
    assert field in response.json()["errors"]
    assert list(Membership.objects.filter(campaign=campaign).values_list("user__username", "role")) == before


def test_members_list_for_members_only(personas, api_as):
    campaign = personas["campaign"]
    response = api_as("viewer").get(f"/api/v1/campaigns/{campaign.pk}/members/")
    assert response.status_code == 200
    assert {(m["username"], m["role"]) for m in response.json()} == {
        ("gm", "gm"), ("player", "player"), ("other_player", "player"), ("viewer", "viewer")}
    assert api_as("outsider").get(f"/api/v1/campaigns/{campaign.pk}/members/").status_code == 404


def test_token_auth(personas):
    from rest_framework.test import APIClient

    client = APIClient()
    response = client.post("/api/v1/auth/token/", {"username": "player", "password": "correct-horse-battery"},
                           format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    assert len(token) == 40
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert [c["name"] for c in client.get("/api/v1/campaigns/").json()] == ["Test campaign"]
    bad = APIClient().post("/api/v1/auth/token/", {"username": "player", "password": "wrong"}, format="json")
    assert bad.status_code == 400
    assert "errors" in bad.json()
    missing = APIClient().post("/api/v1/auth/token/", {}, format="json")
    assert missing.status_code == 400 and {"username", "password"} <= set(missing.json()["errors"])


def test_the_schema_builds_without_a_warning(tmp_path):
    """Two serializers of one name make one component of the other's shape: the schema lies.
    (``check --deploy`` says so too, in a test that starts a process; this one is fast.)"""
    from django.core.management import call_command

    call_command("spectacular", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))


def test_schema_and_docs_are_served(personas, client):
    client.force_login(personas["gm"])
    schema = client.get(reverse("api-schema"))
    assert schema.status_code == 200
    assert b"/api/v1/campaigns/" in schema.content
    assert client.get(reverse("api-docs")).status_code == 200
