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


def test_linking_a_weapon_to_a_skill_asks_the_gm_again(personas, api_as, client):
    """Whether a skill is appropriate to a weapon is the GM's call: a player who links the GM's
    classified rifle to their Knife skill halves its price only as a proposal (the line waits
    for the GM again), and the sheet says the cost is halved and by which skill."""
    character = make_character(personas, skills=0)
    gm = personas["gm"]
    items.item_create(character=character, kind_name="skills", by=gm, is_gm=True,
                      data={"name": "Knife", "breadth": "weapon_type", "ranks": 1, "stat": "DEX"})
    knife = character.skills.get(name="Knife")
    rifle = items.item_create(character=character, kind_name="weapons", by=gm, is_gm=True,
                              data={"name": "Hunting rifle", "damage_points": 5, "skill": None})
    assert rifle.classified and rifle.skill_id is None
    linked = api_as("player").patch(f"/api/v1/characters/{character.pk}/weapons/{rifle.pk}/", {"skill": knife.pk},
                                    format="json")
    assert linked.status_code == 200, linked.content
    rifle.refresh_from_db()
    assert rifle.skill_id == knife.pk and not rifle.classified  # the GM looks at it again
    client.force_login(personas["player"])
    page = client.get(f"/characters/{character.pk}/").content.decode()
    assert "cost halved" in page and "Knife (1)" in page
