"""Hostile documents: values no other path would store are refused by the import too, because
every path checks the one definition of valid (zenergate_site.shapes, the columns' validators and
CHECK constraints). Each case here was stored before that, and took a page or the server down."""

import copy

import pytest

from transfer import services

from .test_bad_documents import _post

pytestmark = pytest.mark.django_db

GOON = {"name": "Goon", "revealed": True, "stats": {"MEL": 13, "CON": 12}, "armour_rating": 1,
        "weapons": [{"name": "Cosh", "damage_points": 3, "melee": True}]}


@pytest.fixture
def document(personas, make_character):
    """A campaign that played a fight: an approved character, and an NPC with a weapon."""
    from combat import library
    from combat import services as combat

    alice = make_character("player")
    gm = personas["gm"]
    fight = combat.encounter_create(campaign=personas["campaign"], by=gm, name="Alley")
    combat.combatant_add(encounter=fight, by=gm, character_id=alice.pk)
    combat.combatant_add(encounter=fight, by=gm, npc=dict(GOON))
    library.setup_save(encounter=fight, by=gm, name="Alley cast")
    return services.export_campaign(personas["campaign"])


def _npc(document) -> tuple[int, dict]:
    combatants = document["encounters"][0]["combatants"]
    index = next(i for i, c in enumerate(combatants) if c.get("name") == "Goon")
    return index, combatants[index]


def test_the_document_as_exported_imports(api_as, document):
    response = api_as("outsider").post("/api/v1/campaigns/import/", document, format="json")
    assert response.status_code == 201, response.content


def _weapon_of_a_billion_points(document):
    index, npc = _npc(document)
    npc["weapons"][0]["damage_points"] = 1_000_000_000
    return f"encounters[0].combatants[{index}].weapons[0].damage_points"


def _stats_in_words(document):
    index, npc = _npc(document)
    npc["stats"]["CON"] = "high"
    return f"encounters[0].combatants[{index}].stats.CON"


def _wounds_detail_broken(document):
    document["characters"][0]["wounds_detail"] = {"clock": {"days_rested": "many"}}
    return "characters[0].wounds_detail.clock"


def _description_of_a_hundred_thousand(document):
    document["campaign"]["description"] = "x" * 100_000
    return "campaign.description"


def _stat_dice_999d999(document):
    document["campaign"]["stat_dice"] = "999d999"
    return "campaign.stat_dice"


def _zero_sided_dice(document):
    document["campaign"]["stat_dice"] = "4d0"
    return "campaign.stat_dice"


def _library_weapon_of_a_billion(document):
    document["npc_setups"][0]["npcs"][0]["weapons"][0]["damage_points"] = 1_000_000_000
    return "npc_setups[0].npcs[0].weapons[0].damage_points"


def _gm_notes_too_long(document):
    document["encounters"][0]["gm_notes"] = "x" * 20_001
    return "encounters[0].gm_notes"


@pytest.mark.parametrize("break_it", [
    _weapon_of_a_billion_points, _stats_in_words, _wounds_detail_broken, _description_of_a_hundred_thousand,
    _stat_dice_999d999, _zero_sided_dice, _library_weapon_of_a_billion, _gm_notes_too_long,
], ids=lambda f: f.__name__.strip("_").replace("_", " "))
def test_a_hostile_value_is_refused_at_its_path_and_nothing_is_stored(api_as, document, break_it):
    bad = copy.deepcopy(document)
    path = break_it(bad)
    response = _post(api_as, bad)  # asserts no row was created
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert path in errors, errors


def test_the_rulebook_refuses_a_weapon_past_its_range_before_rolling():
    """The last line: even a value that reached the rules is refused, not rolled (28d6 at most)."""
    import random

    from rulebook import RulesError
    from rulebook.equipment import DAMAGE_POINTS_MAX, roll_weapon_damage

    assert roll_weapon_damage(DAMAGE_POINTS_MAX, rng=random.Random(1)).total >= DAMAGE_POINTS_MAX - 2
    with pytest.raises(RulesError, match="Damage points"):
        roll_weapon_damage(1_000_000_000, rng=random.Random(1))
