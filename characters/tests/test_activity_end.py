"""END spent by activity, from the sheet's wounds form, the API and the downtime page.

Article, "Endurance": ordinary activity costs 1 END per half hour, strenuous activity 4 per hour.
"""

import pytest
from django.urls import reverse

from characters.models import Character
from economy.tests.conftest import make_character  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def hiker(make_character):  # noqa: F811
    return make_character("player", name="Hiker")


def _spent(character) -> int:
    return Character.objects.get(pk=character.pk).endurance_spent


def test_ninety_minutes_of_strenuous_activity_cost_four_end(hiker, api_as):
    """Only completed shares count: strenuous is 4 END an hour, one per quarter hour, so 90 min is 6;
    ordinary is 1 per half hour, so 90 min is 3 and 20 min nothing."""
    url = f"/api/v1/characters/{hiker.pk}/wounds/"
    gm = api_as("gm")
    response = gm.post(url, {"activity": "strenuous", "minutes": 90}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["end_spent"] == 6
    gm.post(url, {"activity": "ordinary", "minutes": 90, "reason": "Scouting"}, format="json")
    assert _spent(hiker) == 9


def test_activity_too_short_or_unknown_changes_nothing(hiker, api_as):
    url = f"/api/v1/characters/{hiker.pk}/wounds/"
    gm = api_as("gm")
    short = gm.post(url, {"activity": "ordinary", "minutes": 20}, format="json")
    assert short.status_code == 400 and "minutes" in short.json()["errors"]
    assert gm.post(url, {"activity": "dancing", "minutes": 60}, format="json").status_code == 400
    assert api_as("player").post(url, {"activity": "ordinary", "minutes": 60}, format="json").status_code == 403
    assert _spent(hiker) == 0


def test_the_party_pays_what_each_has_left(hiker, make_character, client, personas):  # noqa: F811
    """A long march: 10 hours strenuous is 40 END; a character with less pays all it has."""
    tough = make_character("other_player", name="Tough")
    client.force_login(personas["gm"])
    url = reverse("campaign-downtime", args=[hiker.campaign_id])
    response = client.post(url, {"action": "activity", "characters": [hiker.pk, tough.pk], "activity": "strenuous",
                                 "minutes": 600, "reason": "Forced march"})
    assert response.status_code == 302
    for character in (hiker, tough):
        fresh = Character.objects.get(pk=character.pk)
        assert fresh.endurance_spent == min(40, fresh.endurance_max)
    page = client.get(url).content.decode()
    assert "Activity (END)" in page
    bad = client.post(url, {"action": "activity", "characters": [hiker.pk], "activity": "strenuous", "minutes": 10})
    assert bad.status_code == 400


def test_only_the_gm_charges_the_party(hiker, client, personas):
    client.force_login(personas["player"])
    url = reverse("campaign-downtime", args=[hiker.campaign_id])
    response = client.post(url, {"action": "activity", "characters": [hiker.pk], "activity": "strenuous",
                                 "minutes": 60})
    assert response.status_code == 403 and _spent(hiker) == 0


def test_the_encounter_page_charges_the_fighters_and_comes_back(hiker, client, personas, api_as):
    """The GM's Checks card on an encounter: a 15-minute chase is 1 END strenuous (4 an hour, 1 a quarter)."""
    gm = api_as("gm")
    encounter = gm.post(f"/api/v1/campaigns/{hiker.campaign_id}/encounters/", {"name": "Chase"},
                        format="json").json()["id"]
    gm.post(f"/api/v1/encounters/{encounter}/combatants/", {"character": hiker.pk}, format="json")
    client.force_login(personas["gm"])
    page = reverse("encounter", args=[encounter])
    assert "Activity (END)" in client.get(page).content.decode()
    response = client.post(reverse("campaign-downtime", args=[hiker.campaign_id]),
                           {"action": "activity", "characters": [hiker.pk], "activity": "strenuous", "minutes": 15,
                            "next": page})
    assert response.status_code == 302 and response["Location"] == page
    assert _spent(hiker) == 1
    elsewhere = client.post(reverse("campaign-downtime", args=[hiker.campaign_id]),
                            {"action": "activity", "characters": [hiker.pk], "activity": "strenuous", "minutes": 15,
                             "next": "https://evil.example/"})
    assert elsewhere["Location"].endswith("#activity")
