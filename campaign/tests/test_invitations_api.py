"""Invitations through the API: the GM makes, lists and revokes links; a signed-in person joins
with a link's token."""

import pytest

from campaign.models import Invitation, Membership

pytestmark = pytest.mark.django_db


def url(campaign) -> str:
    return f"/api/v1/campaigns/{campaign.pk}/invitations/"


def test_the_gm_makes_lists_and_revokes_invitations(personas, api_as):
    campaign, gm = personas["campaign"], api_as("gm")
    made = gm.post(url(campaign), {"role": "player"}, format="json")
    assert made.status_code == 201, made.json()
    body = made.json()
    token = Invitation.objects.get(pk=body["id"]).token
    assert body["role"] == "player" and body["single_use"] is True and body["uses"] == 0
    assert body["url"] == f"http://testserver/join/{token}/"
    assert [i["id"] for i in gm.get(url(campaign)).json()] == [body["id"]]

    revoked = gm.delete(f"{url(campaign)}{body['id']}/")
    assert revoked.status_code == 200
    assert gm.get(url(campaign)).json() == []  # a revoked link is no longer open
    assert api_as("outsider").post("/api/v1/invitations/accept/", {"token": token},
                                   format="json").status_code == 409


@pytest.mark.parametrize("persona, status", [("player", 403), ("viewer", 403), ("outsider", 404), (None, 401)])
def test_only_the_gm_sees_or_makes_the_links(personas, api_as, persona, status):
    campaign = personas["campaign"]
    assert api_as(persona).get(url(campaign)).status_code == status
    assert api_as(persona).post(url(campaign), {"role": "gm"}, format="json").status_code == status
    assert not Invitation.objects.exists()


def test_a_person_joins_with_the_token_once(personas, api_as):
    campaign = personas["campaign"]
    body = api_as("gm").post(url(campaign), {"role": "viewer"}, format="json").json()
    token = Invitation.objects.get(pk=body["id"]).token
    joined = api_as("outsider").post("/api/v1/invitations/accept/", {"token": token}, format="json")
    assert joined.status_code == 201 and joined.json() == {"campaign": campaign.pk, "role": "viewer"}
    assert Membership.objects.get(campaign=campaign, user=personas["outsider"]).role == "viewer"
    again = api_as("outsider").post("/api/v1/invitations/accept/", {"token": token}, format="json")
    assert again.status_code == 409 and again.json()["errors"]["token"]
    assert api_as(None).post("/api/v1/invitations/accept/", {"token": token}, format="json").status_code == 401


def test_bad_invitations_are_refused_and_make_nothing(personas, api_as):
    campaign, gm = personas["campaign"], api_as("gm")
    for body, field in (({"role": "king"}, "role"), ({"role": "player", "single_use": False}, "expires_at"),
                        ({"role": "player", "expires_at": "2001-01-01T00:00:00Z"}, "expires_at"),
                        ({"role": "player", "username": "a\u202eb"}, "username")):
        response = gm.post(url(campaign), body, format="json")
        assert response.status_code == 400 and field in response.json()["errors"], body
    assert not Invitation.objects.exists()
