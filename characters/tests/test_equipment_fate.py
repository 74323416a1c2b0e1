"""What an adventure does to equipment: used up, it is refunded all but 1 point of its cost; found
and left behind, it costs nothing. The GM rules both.

Article, "Weapons" and "Armor": "Equipment that PCs obtain in the course of an adventure but can't
take with them costs nothing. If the equipment is completely consumed or used up in the course of
an adventure, the PC is refunded all but 1 point of the actual cost."
"""

import pytest

from characters.selectors import character_with_sheet
from characters.sheet import weapon_checks
from rulebook.budget import adventure_cost

from .factories import create_draft

pytestmark = pytest.mark.django_db


def test_the_adventure_cost_of_a_used_up_and_a_found_item():
    assert adventure_cost(7, "consumed") == 1 and adventure_cost(1, "consumed") == 1
    assert adventure_cost(7, "found") == 0 and adventure_cost(7, "") == 7


@pytest.fixture
def armed(personas, api_as):
    draft = create_draft(personas)
    gm = api_as("gm")
    url = f"/api/v1/characters/{draft.pk}/"
    weapon = gm.post(url + "weapons/", {"name": "Grenade", "damage_points": 7, "classified": True},
                     format="json").json()
    kit = gm.post(url + "equipment/", {"name": "Climbing kit", "breadth": "broad", "classified": True},
                  format="json").json()
    return {"draft": draft, "url": url, "weapon": weapon, "kit": kit, "gm": gm}


def _spent(client, armed):
    return client.get(armed["url"]).json()["budget"]["spent"]


def test_a_used_up_grenade_is_refunded_all_but_one_point_and_leaves_the_hand(armed):
    gm, weapon = armed["gm"], armed["weapon"]
    before = _spent(gm, armed)
    changed = gm.patch(armed["url"] + f"weapons/{weapon['id']}/", {"fate": "consumed"}, format="json")
    assert changed.status_code == 200 and changed.json()["fate"] == "consumed"
    assert _spent(gm, armed) == before - (weapon["cost"] - 1)
    lines = gm.get(armed["url"]).json()["budget"]["lines"]
    assert any("Grenade, used up: all but 1 point refunded" in line["label"] and line["points"] == -1 for line in lines)
    assert weapon["id"] not in weapon_checks(character_with_sheet(character_id=armed["draft"].pk))


def test_found_equipment_left_behind_costs_nothing(armed):
    gm, kit = armed["gm"], armed["kit"]
    before = _spent(gm, armed)
    assert gm.patch(armed["url"] + f"equipment/{kit['id']}/", {"fate": "found"}, format="json").status_code == 200
    assert _spent(gm, armed) == before - 4  # a broad item's first rank
    assert gm.patch(armed["url"] + f"equipment/{kit['id']}/", {"fate": ""}, format="json").status_code == 200
    assert _spent(gm, armed) == before


def test_only_the_gm_rules_what_the_adventure_did(armed, api_as):
    player = api_as("player")
    before = _spent(armed["gm"], armed)
    refused = player.patch(armed["url"] + f"equipment/{armed['kit']['id']}/", {"fate": "found"}, format="json")
    assert refused.status_code == 403
    made = player.post(armed["url"] + "equipment/", {"name": "Free rope", "breadth": "specific", "fate": "found"},
                       format="json")
    assert made.status_code == 403 and _spent(armed["gm"], armed) == before


def test_the_sheet_says_what_the_adventure_did(armed, client, personas):
    armed["gm"].patch(armed["url"] + f"weapons/{armed['weapon']['id']}/", {"fate": "consumed"}, format="json")
    client.force_login(personas["player"])
    page = client.get(f"/characters/{armed['draft'].pk}/").content.decode()
    assert "used up: all but 1 point refunded" in page and "Carrying capacity:" in page
