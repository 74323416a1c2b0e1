"""Fights that run long or hit hard: no number leaves its column, no later action fails, and a
knock-out is kept as game time on the fight's clock (rulebook.game_time)."""

import pytest

from combat.models import Combatant
from rulebook import game_time

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


def test_a_knock_out_past_the_time_chart_lasts_the_rest_of_the_fight(fight):
    """RULINGS §8: a time index above the chart's last row (13, "×10,000+") reads as that row,
    and in a fight the victim stays out for the rest of it. Regression: this knock-out was once
    a 500 (a small integer overflowed), then "100 years or more — misses 315,576,000 actions"."""
    gm, e = fight["gm"], fight["encounter"]
    url = f"/api/v1/encounters/{e}/attacks/"
    first = gm.post(url, {"attacker": fight["pc"], "target": fight["npc"], "stat": "MEL", "dice": BIG_HIT},
                    format="json")
    assert first.status_code == 201, first.content
    data = first.json()["data"]
    assert data["out_cold_seconds"] == 10_000 and data["out_cold_rest_of_fight"] is True
    assert data["actions_missed"] is None
    gm_line = gm.get(f"/api/v1/encounters/{e}/log/").json()["events"][-1]["summary"]
    assert "out cold for the rest of the fight (10,000+ s)" in gm_line and "years" not in gm_line, gm_line
    again = gm.post(url, {"attacker": fight["pc"], "target": fight["npc"], "stat": "MEL",
                          "dice": {"attack": [6, 6, 6]}}, format="json")
    assert again.status_code == 201, again.content
    assert gm.post(f"/api/v1/encounters/{e}/undo/", {}, format="json").status_code == 201
    for _ in range(3):  # rounds go by: still out, for the rest of the fight
        assert gm.post(f"/api/v1/encounters/{e}/next-turn/", {}, format="json").status_code in (200, 201)
    card = next(c for c in gm.get(f"/api/v1/encounters/{e}/").json()["combatants"] if c["id"] == fight["npc"])
    assert card["out_cold"] == "for the rest of the fight (10,000+ s)", card["out_cold"]
    ended = gm.post(f"/api/v1/encounters/{e}/end/", {}, format="json")
    assert ended.status_code in (200, 201), ended.content
    last = gm.get(f"/api/v1/encounters/{e}/log/").json()["events"][-1]["summary"]
    assert "for 10,000 s or more (the GM says when they wake)" in last, last

def test_twenty_seconds_out_cold_misses_two_actions_then_comes_round(fight):
    """A knock-out of 20 s in 10-second rounds, landed in round 1 before the NPC's turn, misses
    its actions in rounds 1 and 2; it comes round and acts in round 3."""
    gm, e = fight["gm"], fight["encounter"]
    Combatant.objects.filter(pk=fight["npc"]).update(
        out_cold_until=game_time.ends_at(round_number=1, round_seconds=10, seconds=20, acts_later=True))
    summaries = []
    for _ in range(3):  # each pass: the mook misses its action and the brute acts; then the mook acts
        assert gm.post(f"/api/v1/encounters/{e}/next-turn/", {}, format="json").status_code == 200
    for event in gm.get(f"/api/v1/encounters/{e}/log/").json()["events"]:
        summaries.append(event["summary"])
    text = " | ".join(summaries)
    assert text.count("Frail Mook is out cold and misses the action") == 2, text
    assert text.count("Frail Mook comes round") == 1, text
    state = gm.get(f"/api/v1/encounters/{e}/").json()
    assert state["round"] == 3 and state["acting"] == fight["npc"]
    assert Combatant.objects.get(pk=fight["npc"]).out_cold_until is None


def test_a_fight_that_ends_with_someone_still_out_cold_says_for_how_long(fight):
    gm, e = fight["gm"], fight["encounter"]
    Combatant.objects.filter(pk=fight["npc"]).update(
        out_cold_until=game_time.ends_at(round_number=1, round_seconds=10, seconds=1800))
    assert gm.post(f"/api/v1/encounters/{e}/end/", {}, format="json").status_code == 200
    last = gm.get(f"/api/v1/encounters/{e}/log/").json()["events"][-1]
    assert "still out cold: Frail Mook for 30 min" in last["summary"], last["summary"]


def test_a_hit_on_an_npc_is_told_in_full_to_the_gm_and_as_its_look_to_players(fight, api_as):
    """What a hit did to an NPC: the GM's line has its numbers; players read where it landed and
    how hurt the NPC now looks, never its trauma, shock or save."""
    gm, e = fight["gm"], fight["encounter"]
    hit = gm.post(f"/api/v1/encounters/{e}/attacks/", {
        "attacker": fight["pc"], "target": fight["npc"], "stat": "MEL",
        "dice": {"attack": [3, 3, 3], "location": [40], "damage": [5, 5, 5, 5, 5], "shock": [2],
                 "save": [1, 1, 1, 1]}}, format="json")
    assert hit.status_code == 201, hit.content
    gm_line = gm.get(f"/api/v1/encounters/{e}/log/").json()["events"][-1]["summary"]
    assert gm_line.startswith("Brute attacks Frail Mook with Club: hit at the ") and " trauma, " in gm_line, gm_line
    assert "shock save failed (needs ≤ " in gm_line and "out cold for the rest of the fight" in gm_line, gm_line
    for persona in ("player", "viewer"):
        line = api_as(persona).get(f"/api/v1/encounters/{e}/log/").json()["events"][-1]["summary"]
        where = gm_line.split(": ")[1]  # "hit at the left abdomen"
        assert line == (f"Brute attacks Frail Mook with Club: {where}: looks down, out cold for the rest of "
                        "the fight (10,000+ s), dying"), (persona, line)


def test_acting_now_when_the_one_holding_is_the_one_acting(fight):
    """Regression (found by the random fights): initiative rolled again while a combatant holds its
    action can put it first; "act now" for it was a 500 (ValueError)."""
    gm, e = fight["gm"], fight["encounter"]
    assert gm.post(f"/api/v1/encounters/{e}/hold/", {}, format="json").status_code == 200  # the brute holds
    again = gm.post(f"/api/v1/encounters/{e}/initiative/",
                    {"dice": {str(fight["pc"]): [6], str(fight["npc"]): [1]}}, format="json")
    assert again.json()["acting"] == fight["pc"] and Combatant.objects.get(pk=fight["pc"]).held
    now = gm.post(f"/api/v1/encounters/{e}/act-now/", {"combatant": fight["pc"]}, format="json")
    assert now.status_code == 200, now.content
    assert now.json()["acting"] == fight["pc"] and not Combatant.objects.get(pk=fight["pc"]).held


def test_a_knock_out_outlasting_its_fight_runs_on_the_campaign_clock(personas, api_as, make_character, client):
    """Out cold 30 min when the fight ends: the sheet says so, the next fight starts with the
    character still out cold, and an hour of downtime wakes them."""
    from django.db import transaction
    from django.urls import reverse

    from campaign.changes import change_set
    from characters.models import Character
    from downtime import services as downtime

    gm = api_as("gm")
    alice = make_character("player")
    campaign = personas["campaign"]
    first = gm.post(f"/api/v1/campaigns/{campaign.pk}/encounters/", {"name": "Docks"}, format="json").json()["id"]
    pc = gm.post(f"/api/v1/encounters/{first}/combatants/", {"character": alice.pk}, format="json").json()["id"]
    with transaction.atomic():
        change_set(campaign=campaign.pk)
        Combatant.objects.filter(pk=pc).update(out_cold_until=1800)
    assert gm.post(f"/api/v1/encounters/{first}/end/", {}, format="json").status_code == 200
    assert Character.objects.get(pk=alice.pk).wounds_detail["out_cold"] == {"seconds": 1800, "at_hour": 0}
    client.force_login(personas["player"])
    sheet = reverse("character-sheet", args=[alice.pk])
    assert "Out cold for 30 min more" in client.get(sheet).content.decode()

    second = gm.post(f"/api/v1/campaigns/{campaign.pk}/encounters/", {"name": "Warehouse"},
                     format="json").json()["id"]
    joined = gm.post(f"/api/v1/encounters/{second}/combatants/", {"character": alice.pk}, format="json").json()["id"]
    assert Combatant.objects.get(pk=joined).out_cold_until == 1800
    assert "out_cold" not in Character.objects.get(pk=alice.pk).wounds_detail  # the fight holds it now
    log = gm.get(f"/api/v1/encounters/{second}/log/").json()["events"]
    assert "out cold for 30 min more" in log[-1]["summary"]
    assert gm.post(f"/api/v1/encounters/{second}/end/", {}, format="json").status_code == 200
    assert Character.objects.get(pk=alice.pk).wounds_detail["out_cold"]["seconds"] == 1800

    job, _ = downtime.downtime_start(campaign=campaign, by=personas["gm"],
                                     request={"hours": 1, "rest": "comfortable", "idempotency_key": "nap"})
    downtime.downtime_run(job_id=job.pk)
    assert "Out cold" not in client.get(sheet).content.decode()
