"""A weapon's cost is halved, rounded up, when the character has an appropriate skill (the
article, "Weapons"; RULINGS 3): linking the weapon to one of the sheet's weapon skills is that
skill, as the `skilled` tick is for one the sheet does not list."""

import pytest

from characters import items
from characters.tests.test_pages_support import make_character

pytestmark = pytest.mark.django_db


def _weapon_points(api, character_id: int, name: str) -> int:
    lines = api.get(f"/api/v1/characters/{character_id}/").json()["budget"]["lines"]
    (line,) = [line for line in lines if name in line["label"]]
    return line["points"]


def test_a_rifle_linked_to_the_rifle_skill_costs_half(personas, api_as):
    character = make_character(personas, skills=0)
    gm = api_as("gm")
    rifle_skill = items.item_create(character=character, kind_name="skills", by=personas["gm"], is_gm=True,
                                    data={"name": "Rifle", "breadth": "weapon_type", "ranks": 1, "stat": "ACC"})
    made = gm.post(f"/api/v1/characters/{character.pk}/weapons/", {"name": "Hunting rifle", "damage_points": 5},
                   format="json")
    assert made.status_code == 201, made.content
    # The builder links a new weapon to the matching weapon skill at once: halved from the start.
    assert made.json()["skill"] == rifle_skill.pk
    assert _weapon_points(gm, character.pk, "Hunting rifle") == -3
    unlinked = gm.patch(f"/api/v1/characters/{character.pk}/weapons/{made.json()['id']}/", {"skill": None},
                        format="json")
    assert unlinked.status_code == 200, unlinked.content
    assert _weapon_points(gm, character.pk, "Hunting rifle") == -6  # 5 damage points + single shot
    linked = gm.patch(f"/api/v1/characters/{character.pk}/weapons/{made.json()['id']}/", {"skill": rifle_skill.pk},
                      format="json")
    assert linked.status_code == 200, linked.content
    assert _weapon_points(gm, character.pk, "Hunting rifle") == -3  # halved: the character has the skill
    gm.patch(f"/api/v1/characters/{character.pk}/weapons/{made.json()['id']}/", {"skill": None}, format="json")
    assert _weapon_points(gm, character.pk, "Hunting rifle") == -6
