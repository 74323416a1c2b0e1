"""Deleting a campaign that has played (the played campaign of conftest.rich: a ledger, rolls,
history, fights with undo, sessions, treatments, transitions, sheets of other rule sets)
removes everything it holds in one transaction, and nothing of any other campaign."""

import pytest
from django.apps import apps
from django.test import Client

from campaign import services as campaign_services
from campaign.models import Campaign

pytestmark = pytest.mark.django_db

APPS = ("campaign", "characters", "economy", "downtime", "combat", "rolls")


def _rows() -> dict[str, int]:
    return {m._meta.label: m.objects.count() for m in apps.get_models() if m._meta.app_label in APPS}


@pytest.fixture
def other(personas):
    """A campaign that stays: its rows must all be there after the delete."""
    return personas["campaign"]


def test_the_gm_deletes_a_played_campaign_through_the_page(rich, other, personas):
    gm = personas["gm"]
    campaign_services.campaign_archive(campaign=rich, by=gm)
    rows_before = _rows()
    client = Client()
    client.force_login(gm)

    response = client.post(f"/campaigns/{rich.pk}/settings/", {"action": "delete", "confirm": rich.name})

    assert response.status_code == 302, response.content[:500]
    assert not Campaign.objects.filter(pk=rich.pk).exists()
    assert Campaign.objects.filter(pk=other.pk).exists()
    after = _rows()
    emptied = [label for label, count in rows_before.items() if after[label] < count]
    assert {"economy.KarmaEntry", "rolls.Roll", "combat.CombatEvent", "characters.Character"} <= set(emptied)
    # Nothing of the deleted campaign is left anywhere it could be found by its id.
    from characters.models import Character
    from economy.models import KarmaEntry
    from rolls.models import Roll

    assert not Character.objects.filter(campaign_id=rich.pk).exists()
    assert not KarmaEntry.objects.filter(character__campaign_id=rich.pk).exists()
    assert not Roll.objects.filter(campaign_id=rich.pk).exists()


def test_a_refused_delete_changes_nothing(rich, personas):
    gm = personas["gm"]
    campaign_services.campaign_archive(campaign=rich, by=gm)
    before = _rows()
    client = Client()
    client.force_login(gm)
    client.post(f"/campaigns/{rich.pk}/settings/", {"action": "delete", "confirm": "not its name"})
    assert _rows() == before


def test_the_gm_archives_and_deletes_through_the_api(rich, personas, api_as):
    gm, player = api_as("gm"), api_as("player")
    assert player.post(f"/api/v1/campaigns/{rich.pk}/archive/").status_code in (403, 404)
    assert gm.delete(f"/api/v1/campaigns/{rich.pk}/", {"confirm": rich.name}, format="json").status_code == 409

    archived = gm.post(f"/api/v1/campaigns/{rich.pk}/archive/")
    assert archived.status_code == 200, archived.content
    wrong = gm.delete(f"/api/v1/campaigns/{rich.pk}/", {"confirm": "Chronosquad"}, format="json")
    assert wrong.status_code == 400 and "confirm" in wrong.json()["errors"]
    assert Campaign.objects.filter(pk=rich.pk).exists()

    gone = gm.delete(f"/api/v1/campaigns/{rich.pk}/", {"confirm": rich.name}, format="json")
    assert gone.status_code == 204, gone.content
    assert not Campaign.objects.filter(pk=rich.pk).exists()
    assert gm.get(f"/api/v1/campaigns/{rich.pk}/").status_code == 404


def test_a_campaign_restored_through_the_api_is_writable_again(rich, personas, api_as):
    gm = api_as("gm")
    gm.post(f"/api/v1/campaigns/{rich.pk}/archive/")
    assert gm.patch(f"/api/v1/campaigns/{rich.pk}/", {"name": "Renamed"}, format="json").status_code == 409
    assert gm.post(f"/api/v1/campaigns/{rich.pk}/restore/").status_code == 200
    assert gm.patch(f"/api/v1/campaigns/{rich.pk}/", {"name": "Renamed"}, format="json").status_code == 200


def test_a_campaign_name_at_its_longest_takes_the_import_suffix(personas, api_as):
    """" (imported <date>)" keeps within the column: the name gives way (no 500, no cut suffix)."""
    from campaign.services import campaign_update
    from zenergate_site import limits

    campaign = personas["campaign"]
    campaign_update(campaign=campaign, by=personas["gm"], name="L" * limits.CAMPAIGN_NAME)
    from transfer import services as transfer

    document = transfer.export_campaign(Campaign.objects.get(pk=campaign.pk))
    made = api_as("outsider").post("/api/v1/campaigns/import/", document, format="json")
    assert made.status_code == 201, made.content
    name = Campaign.objects.get(pk=made.json()["id"]).name
    assert len(name) <= limits.CAMPAIGN_NAME and " (imported " in name and name.startswith("LLL")
