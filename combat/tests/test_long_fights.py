"""Fights that run long or hit hard: no number leaves its column, no later action fails."""

import pytest

from combat.models import OUT_COLD_TURNS_MAX, Combatant

pytestmark = pytest.mark.django_db

#: A frail NPC: SHK 1, so any shock is far past the threshold and the time chart runs off its end.
FRAIL = {"name": "Frail Mook", "revealed": True, "hit_points": 40, "shock_threshold": 1}
BRUTE = {"name": "Brute", "revealed": True, "weapons": [{"name": "Club", "damage_points": 30, "melee": True,
                                                         "ranks": 1}]}
#: The dice of the hit that overflowed the out-cold column: a critical (1, 1, 2), the d100 at the
#: torso, and a 10 on the unconsciousness d10 on top of a large shock excess.
BIG_HIT = {"attack": [1, 1, 2], "location": [40], "unconscious": [10]}


@pytest.fixture
def fight(personas, api_as):
    gm = api_as("gm")
    encounter = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/", {"name": "Alley"},
                        format="json").json()["id"]
    pc = gm.post(f"/api/v1/encounters/{encounter}/combatants/", BRUTE, format="json").json()["id"]
    npc = gm.post(f"/api/v1/encounters/{encounter}/combatants/", FRAIL, format="json").json()["id"]
    gm.post(f"/api/v1/encounters/{encounter}/initiative/", {"dice": {str(pc): [6], str(npc): [1]}}, format="json")
    return {"gm": gm, "encounter": encounter, "pc": pc, "npc": npc}


def test_a_knock_out_past_the_time_chart_is_capped_and_the_fight_goes_on(fight):
    """Regression: out cold for longer than a small integer holds was a 500 on this attack and
    on every later one against the same combatant (DataError: smallint out of range)."""
    gm, e = fight["gm"], fight["encounter"]
    url = f"/api/v1/encounters/{e}/attacks/"
    first = gm.post(url, {"attacker": fight["pc"], "target": fight["npc"], "stat": "MEL", "dice": BIG_HIT},
                    format="json")
    assert first.status_code == 201, first.content
    assert first.json()["data"]["turns_out_cold"] == OUT_COLD_TURNS_MAX
    assert Combatant.objects.get(pk=fight["npc"]).out_cold_turns == OUT_COLD_TURNS_MAX
    again = gm.post(url, {"attacker": fight["pc"], "target": fight["npc"], "stat": "MEL",
                          "dice": {"attack": [6, 6, 6]}}, format="json")
    assert again.status_code == 201, again.content
    assert gm.post(f"/api/v1/encounters/{e}/undo/", {}, format="json").status_code == 201
    assert gm.post(f"/api/v1/encounters/{e}/next-turn/", {}, format="json").status_code in (200, 201)
