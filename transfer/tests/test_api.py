"""The export and import endpoints for every persona: gm, player, other player, viewer, outsider, anonymous."""

import json

import pytest

from campaign.models import Campaign, Job, Membership
from campaign.testing import arranged
from transfer import services

pytestmark = pytest.mark.django_db


def _export_url(campaign) -> str:
    return f"/api/v1/campaigns/{campaign.pk}/export/"


@pytest.mark.parametrize("persona, status", [("gm", 200), ("player", 403), ("other_player", 403), ("viewer", 403),
                                             ("outsider", 404), (None, 401)])
def test_only_the_gm_exports(personas, api_as, persona, status):
    response = api_as(persona).get(_export_url(personas["campaign"]))

    assert response.status_code == status
    if status == 200:
        assert response["Content-Type"].startswith("application/json")
        assert response["Content-Disposition"] == f'attachment; filename="test-campaign-{_today()}.json"'
        assert response.json()["campaign"]["name"] == "Test campaign"
    else:
        assert response.json()["errors"]


def _today() -> str:
    from django.utils import timezone

    return f"{timezone.now():%Y-%m-%d}"


def test_export_answers_json_to_a_browser_too(personas, client):
    """The settings page links here: a browser asking for HTML still downloads the document."""
    client.force_login(personas["gm"])
    response = client.get(_export_url(personas["campaign"]), HTTP_ACCEPT="text/html,*/*")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")


def test_no_export_while_a_downtime_is_under_way(personas, api_as):
    with arranged(personas["campaign"]):
        Job.objects.create(campaign=personas["campaign"], kind=Job.Kind.DOWNTIME, params={"hours": 8})
    response = api_as("gm").get(_export_url(personas["campaign"]))
    assert response.status_code == 409 and "downtime" in response.json()["errors"]["detail"][0]


@pytest.mark.parametrize("persona", ["gm", "player", "other_player", "viewer", "outsider"])
def test_anyone_logged_in_imports_and_becomes_gm_of_the_copy(personas, api_as, persona):
    document = services.export_campaign(personas["campaign"])

    response = api_as(persona).post("/api/v1/campaigns/import/", document, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    # A document acts for no one else: the importer is the copy's only member, the others are listed.
    assert sorted(body["skipped_members"]) == sorted({"gm", "player", "other_player", "viewer"} - {persona})
    copy = Campaign.objects.get(pk=body["id"])
    assert copy.pk != personas["campaign"].pk and copy.name.startswith("Test campaign (imported ")
    roles = dict(Membership.objects.filter(campaign=copy).values_list("user__username", "role"))
    assert roles == {persona: "gm"}


def test_anonymous_cannot_import(personas, api_as):
    document = services.export_campaign(personas["campaign"])
    before = Campaign.objects.count()
    response = api_as(None).post("/api/v1/campaigns/import/", document, format="json")
    assert response.status_code == 401 and response.json()["errors"]
    assert Campaign.objects.count() == before


def test_a_document_makes_no_one_else_a_member_owner_or_author(personas, api_as):
    """Issue: a document naming gm and bob made them GMs of a stranger's copy and put words in their
    names. Now they stay outside, and nothing in the copy links to their accounts."""
    from characters.models import Character
    from economy.models import KarmaEntry
    from rolls.models import Roll

    document = services.export_campaign(personas["campaign"])
    document["members"] = [{"username": "gm", "role": "gm"}, {"username": "player", "role": "player"}]
    response = api_as("outsider").post("/api/v1/campaigns/import/", document, format="json")
    assert response.status_code == 201, response.content
    copy = Campaign.objects.get(pk=response.json()["id"])
    assert list(Membership.objects.filter(campaign=copy).values_list("user__username", flat=True)) == ["outsider"]
    others = [personas[name].pk for name in ("gm", "player", "other_player", "viewer")]
    assert not Character.objects.filter(campaign=copy, owner_id__in=others).exists()
    assert not KarmaEntry.objects.filter(campaign=copy, by_id__in=others).exists()
    assert not Roll.objects.filter(campaign=copy, by_id__in=others).exists()
    assert not copy.log_entries.filter(actor_id__in=others).exists()


@pytest.mark.parametrize("name", ["abc\u202edef", "\u200b\u200b"])
def test_names_in_a_document_pass_the_apis_checks(personas, api_as, make_character, name):
    make_character("player", name="Mara")
    document = services.export_campaign(personas["campaign"])
    document["characters"][0]["name"] = name
    response = api_as("outsider").post("/api/v1/campaigns/import/", document, format="json")
    assert response.status_code == 400 and "characters[0].name" in response.json()["errors"], response.content


def test_members_without_an_account_here_are_listed(personas, api_as):
    document = services.export_campaign(personas["campaign"])
    document["members"].append({"username": "moved-away", "role": "player"})
    response = api_as("outsider").post("/api/v1/campaigns/import/", document, format="json")
    assert response.status_code == 201 and "moved-away" in response.json()["skipped_members"]
    people = {p["username"]: (p["on_server"], p["outcome"]) for p in response.json()["people"]}
    assert people["moved-away"] == (False, "not on this server")
    assert people["player"] == (True, "on this server, not invited")


def test_an_import_invites_no_one_until_the_gm_confirms_and_only_as_players(personas, api_as):
    """A forged document naming alice its GM sends her nothing; the importer sees who is on this
    server, confirms, and each is invited as a player, whatever role the document gave."""
    from campaign.models import Invitation

    document = services.export_campaign(personas["campaign"])
    for member in document["members"]:
        member["role"] = "gm"
    document["members"].append({"username": "moved-away", "role": "gm"})
    gm = api_as("outsider")
    copy = gm.post("/api/v1/campaigns/import/", document, format="json").json()["id"]
    assert not Invitation.objects.filter(campaign_id=copy).exists()
    url = f"/api/v1/campaigns/{copy}/import-invitations/"
    assert api_as("player").get(url).status_code == 404  # not a member of the copy
    refused = gm.post(url, {"usernames": ["moved-away"]}, format="json")
    assert refused.status_code == 400 and "Not on this server: moved-away" in str(refused.json())
    assert gm.post(url, {"usernames": ["stranger"]}, format="json").status_code == 400
    assert not Invitation.objects.filter(campaign_id=copy).exists()
    report = gm.post(url, {"usernames": ["player", "gm"]}, format="json")
    assert report.status_code == 200, report.json()
    outcomes = {p["username"]: p["outcome"] for p in report.json()["people"]}
    assert outcomes == {"gm": "invited as player", "player": "invited as player",
                        "other_player": "on this server, not invited", "viewer": "on this server, not invited",
                        "moved-away": "not on this server"}
    assert set(Invitation.objects.filter(campaign_id=copy).values_list("username", "role")) == {
        ("gm", "player"), ("player", "player")}
    again = gm.post(url, {"usernames": ["player"]}, format="json")  # invited already: no second invitation
    assert again.status_code == 200 and Invitation.objects.filter(campaign_id=copy, username="player").count() == 1


def test_a_document_over_the_size_limit_is_refused_before_it_is_read(personas, api_as, settings):
    body = json.dumps(services.export_campaign(personas["campaign"]))
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(body) - 1
    before = Campaign.objects.count()

    response = api_as("gm").post("/api/v1/campaigns/import/", body, content_type="application/json")

    assert response.status_code == 413
    assert "at most" in response.json()["errors"]["detail"][0]
    assert Campaign.objects.count() == before


def test_both_routes_are_in_the_schema(db, client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "get" in schema["paths"]["/api/v1/campaigns/{campaign_id}/export/"]
    assert "post" in schema["paths"]["/api/v1/campaigns/import/"]


def test_imported_authors_stay_text_and_sheets_go_back_to_their_players_when_they_join(personas, api_as,
                                                                                         make_character):
    """Authors with no account in the copy are kept as the names they were ("gm (imported)" in the
    feed and the ledger); a sheet held for its player is theirs again once they accept the invitation."""
    from django.test import Client
    from django.urls import reverse

    from campaign.models import Invitation
    from campaign.services import invitation_accept
    from characters.models import Character
    from economy.models import KarmaEntry
    from rolls import services as rolls
    from rolls.models import Roll

    hero = make_character("player", name="Imported Ivo")
    rolls.sheet_roll(character=hero, by=personas["gm"], line="stat:AWA", dice=[3, 3, 3, 3])
    # The sheet's history as pages record it (the request's user): the player made it, the GM a line.
    Character.history.filter(id=hero.pk).update(history_user=personas["player"])
    hero.skills.model.history.filter(character_id=hero.pk).update(history_user=personas["gm"])
    document = services.export_campaign(personas["campaign"])
    response = api_as("outsider").post("/api/v1/campaigns/import/", document, format="json")
    assert response.status_code == 201, response.content
    copy = Campaign.objects.get(pk=response.json()["id"])

    sheet = Character.objects.get(campaign=copy, name="Imported Ivo")
    assert sheet.owner == personas["outsider"] and sheet.imported_owner == "player"
    roll = Roll.objects.get(campaign=copy)
    assert roll.by is None and roll.detail["recorded_by"] == {"by": "gm"}
    entry = KarmaEntry.objects.filter(campaign=copy, by__isnull=True).exclude(data={}).first()
    assert entry is not None and entry.data["recorded_by"] == {"by": "gm"}
    gm_of_copy = Client()
    gm_of_copy.force_login(personas["outsider"])
    feed = gm_of_copy.get(reverse("campaign-dashboard", args=[copy.pk])).content.decode()
    assert "gm (imported)" in feed
    history = gm_of_copy.get(reverse("character-history", args=[sheet.pk])).content.decode()
    assert "by player (imported)" in history and "by gm (imported)" in history

    # Invited once the GM of the copy confirms; the viewer's invitation hands nothing over; the
    # player's gives the sheet back.
    confirmed = api_as("outsider").post(f"/api/v1/campaigns/{copy.pk}/import-invitations/",
                                        {"usernames": ["viewer", "player"]}, format="json")
    assert confirmed.status_code == 200, confirmed.content
    viewer_invitation = Invitation.objects.get(campaign=copy, username="viewer")
    invitation_accept(token=viewer_invitation.token, user=personas["viewer"])
    assert Character.objects.get(pk=sheet.pk).owner == personas["outsider"]
    invitation = Invitation.objects.get(campaign=copy, username="player")
    invitation_accept(token=invitation.token, user=personas["player"])
    sheet.refresh_from_db()
    assert sheet.owner == personas["player"] and sheet.imported_owner == ""
    assert copy.log_entries.filter(action="character.handed_back", summary="Imported Ivo is player's again").exists()
