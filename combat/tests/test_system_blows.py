"""Blows in the other rule sets' fights, through the API and the pages, every number from the seeds.

- Rocket House (003, "Combat", "Damage", "Fatigue", "Strength in Combat", "Stances"): Sir Gareth
  and the Puce Knight, round by round, with the Strength Effect pool and both stances' readings.
- Success Check (002, "Armor system"): the light pistol against PT 15 / DR 30 (16 rolled, 12 taken).
- ZeroSpace (001, "Konsequenzen"): a hit costs an Endurance point; at 0 the target is defeated.
- Core Rules (V.5, V.6): the declaration order of the ambush example and reaction checks.
"""

import pytest
from django.test import Client

from campaign import services as campaign_services
from campaign.models import Event
from characters import system_sheets
from characters.models import PoolEntry, SystemSheet
from combat.models import SystemFight
from conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _campaign(personas, rule_set):
    return campaign_services.campaign_update(campaign=personas["campaign"], by=personas["gm"], rule_set=rule_set)


def _start(gm, campaign, fighters, **extra):
    response = gm.post(f"/api/v1/campaigns/{campaign.pk}/system-fights/", {"name": "Fight", "fighters": fighters,
                                                                           **extra}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _blow(client, fight, attacker, target, status=201, **inputs):
    key = inputs.pop("key", None)
    response = client.post(f"/api/v1/system-fights/{fight}/blows/", {
        "attacker": attacker, "target": target, "inputs": inputs, **({"idempotency_key": key} if key else {})},
        format="json")
    assert response.status_code == status, response.json()
    return response.json()


def campaign_of(fight) -> int:
    return fight["campaign"]


def _fighter(body, name):
    return next(f for f in body["order"] if f["name"] == name)


def _lines(fighter):
    return dict(fighter["standing"]["lines"])


# --- Rocket House: Gareth and the Puce Knight --------------------------------------------------------
@pytest.fixture
def camelot(personas):
    campaign = _campaign(personas, "rocket_house")
    gareth = system_sheets.system_sheet_create(
        campaign=campaign, owner=personas["player"], by=personas["player"], name="Sir Gareth",
        lines=[{"name": "Fighting", "inputs": {"trait": 93}}],
        numbers={"toughness": 60, "strength": 70, "armour": 4})  # "Good" Strength: 2 bonus Effect
    return campaign, gareth


def _joust(api_as, camelot):
    campaign, gareth = camelot
    gm = api_as("gm")
    fight = _start(gm, campaign, [{"sheet": gareth.pk, "total": 9},
                                  {"name": "Puce Knight", "total": 4, "numbers": {"toughness": 76, "armour": 4}}])
    return gm, fight


def test_gareth_hits_the_puce_knight(api_as, personas, camelot):
    """003, "Combat": 82 (Effect 8) against 44 (Effect 4); great sword +4, heavy armour 4: 4 damage, a
    basic wound; Toughness 76 gives 15 Fatigue, 11 left; the check at 66 is rolled 47: still fighting."""
    gm, fight = _joust(api_as, camelot)
    assert _fighter(fight, "Sir Gareth")["standing"]["lines"][0] == ["Fatigue", "12 of 12"]
    struck = _blow(api_as("player"), fight["id"], "Sir Gareth", "Puce Knight", line="Fighting", second_skill=72,
                   first_weapon=4, second_weapon=3, dice=[82, 44, 47])
    assert struck["breakdown"] == []  # the terms hold the NPC's numbers: the GM's to read
    blow = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()["blows"][0]
    terms = dict((label, value) for label, value in blow["breakdown"])
    assert terms["first Effect"] == 8 and terms["second Effect"] == 4
    assert terms["net Effect + weapon"] == 8 and terms["armour"] == -4 and terms["damage"] == 4
    assert terms["second: Toughness check (Toughness + the wound's penalty)"] == 66
    assert terms["second: rolled"] == 47 and terms["second: stays conscious"] == "yes"
    assert blow["summary"] == "82 against 44: Puce Knight takes 4 damage, a basic wound, Toughness check made"
    assert [d["face"] for d in blow["dice"]] == [82, 44, 47] and all(d["entered"] for d in blow["dice"])
    body = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()
    knight = _fighter(body, "Puce Knight")
    assert _lines(knight) == {"Fatigue": "11 of 15", "Wounds": "basic", "Bleeding": "none"}
    assert knight["standing"]["state"] == "fighting" and knight["standing"]["penalty"] == "-10% to every action"
    assert _lines(_fighter(body, "Sir Gareth"))["Fatigue"] == "12 of 12"
    for persona in ("player", "other_player", "viewer"):  # an NPC's numbers are the GM's
        seen = api_as(persona).get(f"/api/v1/system-fights/{fight['id']}/").json()
        assert _fighter(seen, "Puce Knight")["standing"] == {"lines": [["Wounds", "basic"]], "state": "fighting",
                                                             "penalty": ""}
        assert seen["blows"][0]["breakdown"] == [] and seen["blows"][0]["summary"] == blow["summary"]
        assert _lines(_fighter(seen, "Sir Gareth"))["Fatigue"] == "12 of 12"
    page = Client()
    page.force_login(personas["player"])
    html = page.get(f"/system-fights/{fight['id']}/").content.decode()
    assert "of 15" not in html and "Toughness check (Toughness" not in html
    log = str(api_as("player").get(f"/api/v1/campaigns/{campaign_of(fight)}/log/").json())
    assert "Puce Knight takes 4 damage" in log and "of 15" not in log and "Fatigue left" not in log


def test_gareths_strength_makes_it_a_serious_wound_and_undo_takes_it_back(api_as, camelot):
    """003, "Strength in Combat": Good Strength gives 2 bonus Effect a fight; spent on that first
    hit, 4 damage becomes 6, a serious wound. Undo gives the knight and the pool back."""
    campaign, gareth = camelot
    gm, fight = _joust(api_as, camelot)
    gareth.refresh_from_db()
    assert gareth.pools["strength_effect"] == 2  # a new sheet starts full
    blow = _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", first_skill=93, second_skill=72, first_weapon=4,
                 first_strength=2, dice=[82, 44, 47])
    assert "6 damage, a serious wound" in blow["summary"]
    terms = dict((label, value) for label, value in blow["breakdown"])
    assert terms["second: Toughness check (Toughness + the wound's penalty)"] == 56  # 76 − 20
    gareth.refresh_from_db()
    assert gareth.pools["strength_effect"] == 0
    spend = PoolEntry.objects.get(sheet=gareth, action="spend")
    assert (spend.amount, spend.use, spend.balance_after) == (-2, "melee damage", 0)
    knight = _fighter(gm.get(f"/api/v1/system-fights/{fight['id']}/").json(), "Puce Knight")
    assert _lines(knight) == {"Fatigue": "9 of 15", "Wounds": "serious", "Bleeding": "1 a minute"}

    undone = gm.post(f"/api/v1/system-fights/{fight['id']}/undo/")
    assert undone.status_code == 200 and undone.json()["undone"] is True
    body = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()
    assert _lines(_fighter(body, "Puce Knight"))["Fatigue"] == "15 of 15"
    assert body["blows"][0]["undone"] is True
    gareth.refresh_from_db()
    assert gareth.pools["strength_effect"] == 2
    assert PoolEntry.objects.filter(sheet=gareth, action="undo", amount=2).count() == 1
    again = gm.post(f"/api/v1/system-fights/{fight['id']}/undo/")
    assert again.status_code == 409 and "No blow to undo" in str(again.json())
    _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", first_skill=93, second_skill=72, first_weapon=4,
          first_strength=2, dice=[82, 44, 47])
    _joust(api_as, camelot)  # the next fight fills the pool again, through the ledger
    gareth.refresh_from_db()
    assert gareth.pools["strength_effect"] == 2
    assert PoolEntry.objects.get(sheet=gareth, action="new_fight").amount == 2


def test_strength_is_not_spent_on_a_miss(api_as, camelot):
    campaign, gareth = camelot
    gm, fight = _joust(api_as, camelot)
    blow = _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", first_skill=93, second_skill=72, first_strength=2,
                 dice=[44, 65])  # Effect 4 against 6: the knight wins, and Gareth's armour takes it all
    assert blow["summary"] == "44 against 65: no damage"
    gareth.refresh_from_db()
    assert gareth.pools["strength_effect"] == 2 and not PoolEntry.objects.filter(sheet=gareth, action="spend").exists()


def test_both_offensive_each_takes_the_full_effect(api_as, camelot):
    """003, "Stances": both "Offensive": Gareth takes 7 − 4 = 3 (a wound and 3 Fatigue), the knight
    12 − 4 = 8 (an extreme wound, bleeding every turn)."""
    gm, fight = _joust(api_as, camelot)
    blow = _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", first_skill=93, second_skill=72, first_weapon=4,
                 second_weapon=3, first_stance="offensive", second_stance="offensive", dice=[82, 44, 30, 20])
    assert "Sir Gareth takes 3 damage, a basic wound" in blow["summary"]
    assert "Puce Knight takes 8 damage, an extreme wound" in blow["summary"]
    body = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()
    assert _lines(_fighter(body, "Sir Gareth")) == {"Fatigue": "9 of 12", "Wounds": "basic", "Bleeding": "none"}
    assert _lines(_fighter(body, "Puce Knight"))["Bleeding"] == "1 a turn"


def test_both_defensive_they_circle(api_as, camelot):
    gm, fight = _joust(api_as, camelot)
    blow = _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", first_skill=93, second_skill=72,
                 first_stance="defensive", second_stance="defensive", dice=[82, 44])
    assert blow["summary"] == "82 against 44: they circle"


def test_a_failed_toughness_check_knocks_out_and_the_fighter_is_out(api_as, camelot):
    gm, fight = _joust(api_as, camelot)
    blow = _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", first_skill=93, second_skill=72, first_weapon=4,
                 dice=[82, 44, 90])
    assert "Toughness check failed: out cold" in blow["summary"]
    body = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()
    assert _fighter(body, "Puce Knight")["standing"]["state"] == "unconscious"
    out = _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", status=400, first_skill=93, second_skill=72)
    assert "out of the fight" in str(out)


def test_a_blow_is_idempotent_and_bad_input_changes_nothing(api_as, camelot):
    campaign, gareth = camelot
    gm, fight = _joust(api_as, camelot)
    first = _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", first_skill=93, second_skill=72, dice=[82, 44],
                  key="tap-1")
    again = _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", status=200, first_skill=93, second_skill=72,
                  key="tap-1")
    assert again == first
    assert len(SystemFight.objects.get(pk=fight["id"]).blows) == 1
    other = _blow(gm, fight["id"], "Puce Knight", "Sir Gareth", status=409, first_skill=72, second_skill=93,
                  key="tap-1")
    assert "already used" in str(other)
    for bad in ({"first_skill": "lots", "second_skill": 72}, {"first_skill": 93}, {"first_skill": 93,
                "second_skill": 72, "first_stance": "berserk"}, {"first_skill": 93, "second_skill": 72, "dice": [101, 3]},
                {"line": "Jousting", "second_skill": 3}, {"first_skill": 93, "second_skill": 72, "sneaky": 1}):
        _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", status=400, **bad)
    assert _blow(gm, fight["id"], "Sir Gareth", "Nobody", status=400, first_skill=9, second_skill=9)
    assert _blow(gm, fight["id"], "Sir Gareth", "Sir Gareth", status=400, first_skill=9, second_skill=9)
    assert len(SystemFight.objects.get(pk=fight["id"]).blows) == 1


def test_who_may_strike(api_as, camelot):
    gm, fight = _joust(api_as, camelot)
    url = f"/api/v1/system-fights/{fight['id']}/blows/"
    body = {"attacker": "Sir Gareth", "target": "Puce Knight", "inputs": {"first_skill": 93, "second_skill": 72}}
    npc = {**body, "attacker": "Puce Knight", "target": "Sir Gareth"}
    assert api_as("other_player").post(url, body, format="json").status_code == 403
    assert api_as("player").post(url, npc, format="json").status_code == 403
    assert api_as("viewer").post(url, body, format="json").status_code == 403
    assert api_as("outsider").post(url, body, format="json").status_code == 404
    assert api_as(None).post(url, body, format="json").status_code in (401, 403)
    assert api_as("player").post(url, body, format="json").status_code == 201
    assert api_as("other_player").post(f"/api/v1/system-fights/{fight['id']}/undo/").status_code == 403
    assert api_as("player").post(f"/api/v1/system-fights/{fight['id']}/undo/").status_code == 403


def test_the_odds_before_the_roll(api_as, camelot):
    gm, fight = _joust(api_as, camelot)
    odds = gm.post(f"/api/v1/system-fights/{fight['id']}/blows/preview/", {
        "attacker": "Sir Gareth", "target": "Puce Knight",
        "inputs": {"first_skill": 93, "second_skill": 72, "first_weapon": 4, "second_weapon": 3}}, format="json")
    assert odds.status_code == 200, odds.json()
    from fractions import Fraction

    from rulebook.systems import rocket_house
    exact = rocket_house.combat_odds(rocket_house.Fighter(93, 4, 4), rocket_house.Fighter(72, 3, 4))
    assert Fraction(odds.json()["hit"]) == exact.second_hurt
    assert len(SystemFight.objects.get(pk=fight["id"]).blows) == 0


def test_a_blow_tells_the_fight_and_the_sheets(api_as, camelot):
    campaign, gareth = camelot
    gm, fight = _joust(api_as, camelot)
    after = Event.objects.order_by("-pk").values_list("pk", flat=True).first()
    _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", first_skill=93, second_skill=72, second_weapon=3,
          first_stance="offensive", second_stance="offensive", dice=[82, 44, 30, 20])
    events = list(Event.objects.filter(pk__gt=after).values_list("kind", "data"))
    assert ("system_fight", {"fight": fight["id"]}) in events
    assert ("system_sheet", {"sheets": [gareth.pk]}) in events


# --- Success Check: the pistol against light armour ----------------------------------------------------
@pytest.fixture
def street(personas):
    campaign = _campaign(personas, "success_check")
    runner = system_sheets.system_sheet_create(
        campaign=campaign, owner=personas["player"], by=personas["player"], name="Runner",
        lines=[{"name": "Pistols", "inputs": {"bonus": 5}}], numbers={"edge_max": 3, "health": 20, "pt": 15, "dr": 30})
    return campaign, runner


def test_the_pistol_against_pt_15_dr_30(api_as, street):
    """002, "Armor system": 2d6+4 against PT 15 / DR 30; a 12 on the dice is 16, the armour soaks
    30 % (4) and 12 gets through. The target's PT and DR come from its sheet."""
    campaign, runner = street
    gm = api_as("gm")
    fight = _start(gm, campaign, [{"sheet": runner.pk, "total": 5}, {"name": "Guard", "total": 7}])
    blow = _blow(gm, fight["id"], "Guard", "Runner", bonus=5, tn=15, weapon_dice=2, modifier=4,
                 check_dice=[6, 7], damage_dice=[6, 6])
    terms = dict((label, value) for label, value in blow["breakdown"])
    assert terms["margin"] == 3 and terms["extra d6"] == 0
    assert terms["damage"] == 16 and terms["penetration threshold"] == 15
    assert terms["damage reduction 30% (rounded down)"] == -4 and terms["damage taken"] == 12
    assert blow["summary"] == "hits for 16: 12 gets through"
    runner.refresh_from_db()
    assert runner.condition == {"damage": 12, "burned": 0}
    stopped = _blow(gm, fight["id"], "Guard", "Runner", bonus=5, tn=15, weapon_dice=2, modifier=4,
                    check_dice=[6, 7], damage_dice=[5, 5])  # 14 < PT 15
    assert stopped["summary"] == "hits for 14: the armour stops it"
    miss = _blow(gm, fight["id"], "Guard", "Runner", bonus=0, tn=15, weapon_dice=2, modifier=4, check_dice=[2, 3])
    assert miss["summary"].startswith("misses")
    _blow(gm, fight["id"], "Guard", "Runner", status=400, bonus=0, tn=15, weapon_dice=2, modifier=4,
          check_dice=[2, 3], damage_dice=[6, 6])


def test_edge_on_an_attack_and_the_edge_burn(api_as, street):
    """002, "Using Edge": a point for +1d6 damage, spent only on a hit; "Edge Burn": a character
    put down burns a point of Edge and of the maximum to escape death."""
    campaign, runner = street
    gm, player = api_as("gm"), api_as("player")
    fight = _start(gm, campaign, [{"sheet": runner.pk, "total": 5},
                                  {"name": "Guard", "total": 7, "numbers": {"health": 10}}, {"name": "Sniper", "total": 2}])
    runner.refresh_from_db()
    assert runner.pools["edge"] == 3
    blow = _blow(player, fight["id"], "Runner", "Guard", line="Pistols", tn=15, weapon_dice=2, modifier=4,
                 edge_damage=1, check_dice=[6, 7], damage_dice=[1, 1, 6])
    terms = dict(gm.get(f"/api/v1/system-fights/{fight['id']}/").json()["blows"][0]["breakdown"])
    assert terms["extra d6"] == 1 and terms["damage"] == 12
    assert "the target is down" in blow["summary"]
    runner.refresh_from_db()
    assert runner.pools["edge"] == 2
    assert PoolEntry.objects.get(sheet=runner, action="spend").use == "+1d6 damage"
    body = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()
    assert _fighter(body, "Guard")["standing"]["state"] == "down"

    out = _blow(gm, fight["id"], "Guard", "Runner", status=409, bonus=10, tn=10, weapon_dice=4, modifier=10)
    assert "Guard is out of the fight" in str(out)
    _blow(gm, fight["id"], "Sniper", "Runner", bonus=10, tn=10, weapon_dice=4, modifier=10, pt=0, dr=0,
          check_dice=[5, 6], damage_dice=[6, 6, 6, 6])  # 34 damage: the runner is down
    url = f"/api/v1/system-sheets/{runner.pk}/pools/"
    burnt = player.post(url, {"pool": "edge", "action": "burn"}, format="json")
    assert burnt.status_code == 201, burnt.json()
    runner.refresh_from_db()
    assert runner.pools["edge"] == 1 and runner.numbers["edge_max"] == 2 and runner.condition["burned"] == 1
    sheet = player.get(f"/api/v1/system-sheets/{runner.pk}/").json()
    assert sheet["condition"]["state"] == "saved by an Edge Burn"
    assert player.post(url, {"pool": "edge", "action": "burn"}, format="json").status_code == 409


def test_an_npc_has_no_edge_and_a_sheet_cannot_overspend(api_as, street):
    campaign, runner = street
    gm = api_as("gm")
    fight = _start(gm, campaign, [{"sheet": runner.pk, "total": 5}, {"name": "Guard", "total": 7}])
    refused = _blow(gm, fight["id"], "Guard", "Runner", status=400, bonus=1, tn=15, weapon_dice=2, modifier=4,
                    edge_advantage=1)
    assert "NPCs have no edge" in str(refused)
    SystemSheet.objects.filter(pk=runner.pk).update(pools={"edge": 0})
    broke = _blow(gm, fight["id"], "Runner", "Guard", status=409, bonus=1, tn=15, weapon_dice=2, modifier=4,
                  edge_advantage=1)
    assert "0 Edge left" in str(broke)


# --- ZeroSpace: Endurance ------------------------------------------------------------------------------
def test_a_zerospace_hit_costs_endurance(api_as, personas):
    """001, "Konsequenzen": a successful attack costs the target one Endurance; Endurance is the
    greater of Brawn and Presence, and at 0 the target is defeated."""
    campaign = _campaign(personas, "zerospace")
    soraya = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Soraya", lines=[{"name": "Close combat", "inputs": {"av": 6}}],
                                               numbers={"brawn": 2, "presence": 1})
    gm = api_as("gm")
    fight = _start(gm, campaign, [{"sheet": soraya.pk, "total": 9}, {"name": "Lackey", "total": 5,
                                                                     "numbers": {"brawn": 1}}])
    miss = _blow(gm, fight["id"], "Lackey", "Soraya", av=1, dv=6, dice=[1, 1, 6, 6])
    assert miss["summary"] == "misses (margin -15)"
    blow = _blow(gm, fight["id"], "Soraya", "Lackey", line="Close combat", dv=5, dice=[4, 4, 3, 3])
    assert blow["summary"] == "hits for 1 Endurance (0 left, defeated)"
    body = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()
    assert _fighter(body, "Lackey")["standing"]["state"] == "defeated"
    assert _lines(_fighter(body, "Soraya")) == {"Endurance": "2 of 2"}
    out = _blow(gm, fight["id"], "Lackey", "Soraya", status=409, av=1, dv=6)
    assert "Lackey is out of the fight" in str(out)


def _soraya_against(api_as, personas, *others):
    """A ZeroSpace fight: the player's Soraya (AV 6 in close combat, DV 4) against the Lackey,
    whose DV 5 the GM gave, and any ``others``: the GM's and the player's API clients, the fight."""
    campaign = _campaign(personas, "zerospace")
    soraya = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Soraya", lines=[{"name": "Close combat", "inputs": {"av": 6}}],
                                               numbers={"brawn": 2, "presence": 1, "dv": 4})
    gm, player = api_as("gm"), api_as("player")
    fight = _start(gm, campaign, [{"sheet": soraya.pk, "total": 9},
                                  {"name": "Lackey", "total": 5, "numbers": {"brawn": 2, "dv": 5}}, *others])
    return gm, player, fight


def test_a_player_strikes_an_npc_with_its_dv_unseen(api_as, personas):
    """001: AV 6 against the Lackey's DV 5 (the GM's number, given when it joined), 4 + 4 against
    3 + 3: a hit. The player types only their own AV and dice; what they read of the blow holds
    none of the NPC's numbers, while the GM reads it whole."""
    gm, player, fight = _soraya_against(api_as, personas)
    odds = player.post(f"/api/v1/system-fights/{fight['id']}/blows/preview/",
                       {"attacker": "Soraya", "target": "Lackey", "inputs": {"av": 6}}, format="json")
    assert odds.status_code == 400 and "Lackey's DV is the GM's" in str(odds.json())
    gm_odds = gm.post(f"/api/v1/system-fights/{fight['id']}/blows/preview/",
                      {"attacker": "Soraya", "target": "Lackey", "inputs": {"av": 6}}, format="json")
    # 2d6 + 6 against 2d6 + 5, a tie the attacker's: 861 of 1,296 pairs (721 with A ≥ D, 140 with A = D − 1).
    assert gm_odds.status_code == 200 and gm_odds.json()["hit"] == "287/432"
    blow = _blow(player, fight["id"], "Soraya", "Lackey", av=6, dice=[4, 4, 3, 3])
    assert blow["summary"] == "hits"  # not "hits for 1 Endurance (1 left)": the Lackey's numbers are the GM's
    seen = player.get(f"/api/v1/system-fights/{fight['id']}/").json()["blows"][-1]
    assert (seen["summary"], seen["breakdown"]) == ("hits", [])
    full = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()["blows"][-1]
    assert full["summary"] == "hits for 1 Endurance (1 left)" and ["difficulty value", 5] in full["breakdown"]
    # The Lackey strikes back: Soraya's own DV comes from her sheet.
    back = _blow(gm, fight["id"], "Lackey", "Soraya", av=3, dice=[1, 1, 6, 6])
    assert back["summary"].startswith("misses") and ["difficulty value", 4] in back["breakdown"]


def test_a_dv_a_player_types_for_an_npc_does_not_count(api_as, personas):
    """The NPC's DV is the GM's: a player who types DV 0 for the Lackey (DV 5) strikes against 5
    all the same: 1 + 1 + 6 = 8 against 3 + 3 + 5 = 11 misses (against a typed 0 it would have
    hit). With no DV on the NPC's numbers the player is told to ask the GM, and nothing is struck."""
    gm, player, fight = _soraya_against(api_as, personas, {"name": "Shade", "total": 4, "numbers": {"brawn": 2}})
    blow = _blow(player, fight["id"], "Soraya", "Lackey", av=6, dv=0, dice=[1, 1, 3, 3])
    assert blow["summary"].startswith("misses")
    full = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()["blows"][-1]
    assert ["difficulty value", 5] in full["breakdown"]
    unknown = player.post(f"/api/v1/system-fights/{fight['id']}/blows/",
                          {"attacker": "Soraya", "target": "Shade", "inputs": {"av": 6, "dv": 0, "dice": [6, 6, 1, 1]}},
                          format="json")
    assert unknown.status_code == 400 and "Shade's DV is the GM's" in str(unknown.json())
    assert len(SystemFight.objects.get(pk=fight["id"]).blows) == 1


def test_a_blow_with_its_values_left_empty_says_what_to_type(personas, api_as):
    """An empty AV and DV (a target with no DV on its numbers): 400 beside the form, nothing struck."""
    campaign = _campaign(personas, "zerospace")
    soraya = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Soraya", numbers={"brawn": 2})
    started = _start(api_as("gm"), campaign, [{"sheet": soraya.pk, "total": 9},
                                              {"name": "Thug", "total": 5, "numbers": {"brawn": 2}}])
    fight = SystemFight.objects.get(pk=started["id"])
    gm = Client()
    gm.force_login(personas["gm"])
    page = gm.post(f"/system-fights/{fight.pk}/blow/", {"attacker": "Soraya", "target": "Thug", "av": "",
                                                         "dv": ""})
    text = page.content.decode()
    assert page.status_code == 400
    assert ('id="blow-error">Type the attack value (AV) and the defence value (DV).</p>' in text), text[:2000]
    fight.refresh_from_db()
    assert fight.blows == []
    only_dv = gm.post(f"/system-fights/{fight.pk}/blow/", {"attacker": "Soraya", "target": "Thug", "av": "6"})
    assert "Type the defence value (DV): Thug has none on their numbers" in only_dv.content.decode()


# --- Core Rules: declarations and reaction checks -------------------------------------------------------
def test_the_ambush_declarations_and_a_reaction_check(api_as, personas):
    """004, V.6: the picker of the lock is surprised and sits the first turn out, declaring from the
    second; the order runs from the lowest SOM up. V.5: a d10 above SOM loses the turn; SOM 10 never fails."""
    campaign = _campaign(personas, "core_rules")
    picker = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Picker", numbers={"som": 4, "empathy": 5, "perception": 6})
    gm, player = api_as("gm"), api_as("player")
    fight = _start(gm, campaign, [
        {"sheet": picker.pk, "aware": False},
        {"name": "Guard A", "som": 6, "empathy": 5, "perception": 5},
        {"name": "Guard B", "som": 6, "empathy": 5, "perception": 5},
        {"name": "Hood", "som": 3, "empathy": 2, "perception": 2},
        {"name": "Calm", "som": 10, "empathy": 2, "perception": 2}], tie_dice=[7, 2])
    assert [f["name"] for f in fight["order"]] == ["Hood", "Picker", "Guard B", "Guard A", "Calm"]
    assert _fighter(fight, "Picker")["sits_out"] is True
    url = f"/api/v1/system-fights/{fight['id']}/actions/"
    declared = [gm.post(url, {"action": "next"}, format="json").json()["acting"] for _ in range(5)]
    assert declared == ["Hood", "Guard B", "Guard A", "Calm", "Hood"]  # turn 2 begins
    body = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()
    assert body["round"] == 2 and body["unit"] == "Turn"
    failed = player.post(url, {"action": "reaction", "name": "Picker", "dice": [7]}, format="json")
    assert failed.status_code == 200, failed.json()
    assert _fighter(failed.json(), "Picker")["sits_out"] is True
    assert gm.post(url, {"action": "next"}, format="json").json()["acting"] == "Guard B"  # the picker lost the turn
    calm = gm.post(url, {"action": "reaction", "name": "Calm", "dice": [10]}, format="json").json()
    assert not _fighter(calm, "Calm")["sits_out"]
    assert "Calm reaction check 10: acts normally" in str(calm["rounds"])
    # An NPC's scores are the GM's: not in the fight, the log or the stream a player reads.
    seen = player.get(f"/api/v1/system-fights/{fight['id']}/").json()
    assert _fighter(seen, "Calm")["reaction"] == "" and "SOM 10" not in str(seen)
    assert _fighter(seen, "Picker")["reaction"] == "SOM 4: a reaction check succeeds 40 % of the time"
    log = player.get(f"/api/v1/campaigns/{campaign.pk}/log/").json()
    assert "Calm's reaction check: 10, acts normally" in str(log) and "SOM" not in str(log)
    stream = player.get(f"/api/v1/campaigns/{campaign.pk}/events/").json()
    assert all(set(e["data"]) <= {"fight", "sheets"} for e in stream["events"] if e["kind"].startswith("system"))
    assert player.post(url, {"action": "reaction", "name": "Calm"}, format="json").status_code == 403
    joined = gm.post(url, {"action": "insert", "name": "Late", "scores": {"som": 5, "empathy": 1,
                                                                         "perception": 1}}, format="json").json()
    assert [f["name"] for f in joined["order"]] == ["Hood", "Picker", "Late", "Guard B", "Guard A", "Calm"]
    empty = gm.post(f"/api/v1/system-fights/{fight['id']}/blows/", {"attacker": "Hood", "target": "Calm",
                                                                     "inputs": {}}, format="json")
    assert empty.status_code == 400 and "Type the KS score and the US score and the ES score" in str(empty.json())


def test_a_declared_action_is_rolled_as_the_chapters_check(api_as, personas):
    """004, V.7: ES Tamper 5 rolls a d8; Control 7 + Accuracy 4 + 5 = 16 beats the average threshold
    9, odds 3 in 4 before the roll; a face of 8 is 5 − 8 = −3, ARC 8: a failure. The chapter has no
    damage track: nothing changes on either side, the outcome goes in the fight's log."""
    campaign = _campaign(personas, "core_rules")
    picker = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Picker", numbers={"som": 4, "empathy": 5, "perception": 6},
                                               lines=[{"name": "Tamper", "inputs": {"ks": 7, "us": 4, "es": 5}}])
    gm, player = api_as("gm"), api_as("player")
    fight = _start(gm, campaign, [{"sheet": picker.pk}, {"name": "Lock", "som": 1, "empathy": 1, "perception": 1}])
    odds = player.post(f"/api/v1/system-fights/{fight['id']}/blows/preview/",
                       {"attacker": "Picker", "target": "Lock", "inputs": {"line": "Tamper"}}, format="json")
    assert odds.status_code == 200 and odds.json()["hit"] == "3/4" and odds.json()["says"] == "chance of success"
    good = _blow(player, fight["id"], "Picker", "Lock", line="Tamper", dice=[5])
    assert good["summary"] == "succeeds: ARC 16 beats 9"
    bad = _blow(gm, fight["id"], "Picker", "Lock", ks=7, us=4, es=5, dice=[8])
    assert bad["summary"] == "fails: ARC 8 does not beat 9"
    body = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()
    assert [b["summary"] for b in body["blows"]] == ["fails: ARC 8 does not beat 9", "succeeds: ARC 16 beats 9"]
    assert ["ES adjustment", 5] in body["blows"][1]["breakdown"]  # newest first
    picker.refresh_from_db()
    assert picker.condition in ({}, None) or "damage" not in picker.condition


def test_the_core_rules_start_form_ticks_every_players_sheet(personas, client):
    campaign = _campaign(personas, "core_rules")
    mine = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                             name="Picker")
    gms = system_sheets.system_sheet_create(campaign=campaign, owner=personas["gm"], by=personas["gm"],
                                            name="Contact")
    client.force_login(personas["gm"])
    page = client.get(f"/campaigns/{campaign.pk}/system-fights/").content.decode()
    assert f'name="sheet-{mine.pk}-in" checked' in page and f'name="sheet-{gms.pk}-in" checked' not in page


def test_a_zerospace_hold_is_not_a_core_rules_action(api_as, personas):
    campaign = _campaign(personas, "core_rules")
    gm = api_as("gm")
    fight = _start(gm, campaign, [{"name": "A", "som": 3, "empathy": 3, "perception": 3}])
    refused = gm.post(f"/api/v1/system-fights/{fight['id']}/actions/", {"action": "hold", "name": "A"}, format="json")
    assert refused.status_code == 400


# --- The pages --------------------------------------------------------------------------------------------
def test_the_pages_start_a_round_show_odds_strike_and_undo(personas, camelot):
    campaign, gareth = camelot
    gm = Client()
    gm.login(username="gm", password=PASSWORD)
    made = gm.post(f"/campaigns/{campaign.pk}/system-fights/", {
        "name": "Field", f"sheet-{gareth.pk}-total": "9", "npc-0-name": "Puce Knight", "npc-0-total": "4",
        "npc-0-n-toughness": "76", "npc-0-n-armour": "4"})
    assert made.status_code == 302
    fight = SystemFight.objects.get()
    assert fight.npcs["Puce Knight"]["numbers"]["toughness"] == 76
    form = {"attacker": "Sir Gareth", "target": "Puce Knight", "first_skill": "93", "second_skill": "72",
            "first_weapon": "4", "second_weapon": "3", "dice": "82 44 47", "key": "page-1"}
    preview = gm.post(f"/system-fights/{fight.pk}/blow/", {**form, "preview": "1"})
    html = preview.content.decode()
    assert preview.status_code == 200 and "chance Puce Knight takes damage" in html and 'value="82 44 47"' in html
    assert gm.post(f"/system-fights/{fight.pk}/blow/", form).status_code == 302
    assert gm.post(f"/system-fights/{fight.pk}/blow/", form).status_code == 302  # a double tap: one blow
    fight.refresh_from_db()
    assert len(fight.blows) == 1 and fight.npcs["Puce Knight"]["condition"]["fatigue"] == 11
    html = gm.get(f"/system-fights/{fight.pk}/").content.decode()
    assert "Fatigue 11 of 15" in html and "a basic wound" in html and "Undo the last blow" in html
    bad = gm.post(f"/system-fights/{fight.pk}/blow/", {**form, "first_skill": "ninety", "key": "page-2"})
    assert bad.status_code == 400 and "whole number" in bad.content.decode()
    assert gm.post(f"/system-fights/{fight.pk}/undo/").status_code == 302
    fight.refresh_from_db()
    assert not fight.npcs["Puce Knight"]["condition"] and fight.blows[0]["undone"]


def test_the_fight_page_reads_in_constant_queries(personas, camelot, django_assert_max_num_queries):
    campaign, gareth = camelot
    others = [system_sheets.system_sheet_create(campaign=campaign, owner=personas["other_player"],
                                                by=personas["other_player"], name=f"Knight {n}") for n in range(6)]
    gm = Client()
    gm.login(username="gm", password=PASSWORD)

    def start(sheets):
        from combat import system_fights
        return system_fights.system_fight_start(campaign=campaign, by=personas["gm"], name="Melee",
                                                fighters=[{"sheet": s.pk, "total": 5} for s in sheets])

    small, large = start([gareth]), start([gareth, *others])
    gm.get(f"/system-fights/{small.pk}/")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    with CaptureQueriesContext(connection) as few:
        gm.get(f"/system-fights/{small.pk}/")
    with CaptureQueriesContext(connection) as many:
        gm.get(f"/system-fights/{large.pk}/")
    assert len(many) == len(few)


def test_wounds_only_with_toughness_armour(api_as, personas, camelot):
    """003, "Wounds Only": the campaign's ruling; the knight (a sheet here, Toughness 76: two levels
    above Average) takes 4 off Gareth's hit less his 2 Toughness armour: 2, a basic wound."""
    campaign, gareth = camelot
    campaign = campaign_services.campaign_update(campaign=campaign, by=personas["gm"], rulings={"damage_mode": 1})
    knight = system_sheets.system_sheet_create(campaign=campaign, owner=personas["other_player"],
                                               by=personas["other_player"], name="Puce Knight",
                                               numbers={"toughness": 76, "armour": 4})
    gm = api_as("gm")
    fight = _start(gm, campaign, [{"sheet": gareth.pk, "total": 9}, {"sheet": knight.pk, "total": 4}])
    blow = _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", first_skill=93, second_skill=72, first_weapon=4,
                 second_toughness=2, dice=[82, 44, 47])
    assert "2 damage, a basic wound" in blow["summary"]
    knight.refresh_from_db()
    assert knight.pools["toughness_armour"] == 0 and knight.condition["fatigue"] == 15  # Fatigue is not counted
    body = gm.get(f"/api/v1/system-fights/{fight['id']}/").json()
    assert _lines(_fighter(body, "Puce Knight")) == {"Wounds": "basic", "Bleeding": "none"}
    html = Client()
    html.force_login(personas["gm"])
    assert "Second spends Toughness armour" in html.get(f"/system-fights/{fight['id']}/").content.decode()


def test_a_plot_point_buys_a_bonus_die_and_a_rally(api_as, personas):
    """001, "Plot Points": a point buys a bonus die on the roll (spent through the ledger) or a rally,
    half the lost Endurance back."""
    campaign = _campaign(personas, "zerospace")
    soraya = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Soraya", numbers={"brawn": 5})
    gm, player = api_as("gm"), api_as("player")
    fight = _start(gm, campaign, [{"sheet": soraya.pk, "total": 9},
                                  {"name": "Lackey", "total": 5, "numbers": {"dv": 3}}])
    preview = gm.post(f"/api/v1/system-fights/{fight['id']}/blows/preview/", {
        "attacker": "Soraya", "target": "Lackey", "inputs": {"av": 3, "plot_point": 1}}, format="json")
    from fractions import Fraction

    from rulebook.systems import zerospace
    assert Fraction(preview.json()["hit"]) == zerospace.opposed_odds(3, 3, 1).probability
    blow = _blow(player, fight["id"], "Soraya", "Lackey", av=3, plot_point=1, dice=[1, 6, 6, 1, 1])
    assert blow["summary"].startswith("hits")
    soraya.refresh_from_db()
    assert soraya.pools["plot_points"] == 0
    assert PoolEntry.objects.get(sheet=soraya, action="spend").use == "bonus die"
    broke = _blow(player, fight["id"], "Soraya", "Lackey", status=409, av=3, plot_point=1)
    assert "0 Plot points left" in str(broke)
    # Three lackey hits later, a rally brings back half the lost Endurance.
    for _ in range(3):
        _blow(gm, fight["id"], "Lackey", "Soraya", av=9, dv=0, dice=[6, 6, 1, 1])
    soraya.refresh_from_db()
    assert soraya.condition == {"endurance": 2}
    award = gm.post(f"/api/v1/system-sheets/{soraya.pk}/pools/", {"pool": "plot_points", "action": "award"},
                    format="json")
    assert award.status_code == 201
    rally = player.post(f"/api/v1/system-sheets/{soraya.pk}/pools/", {"pool": "plot_points", "action": "spend",
                                                                      "use": "rally"}, format="json")
    assert rally.status_code == 201, rally.json()
    soraya.refresh_from_db()
    assert soraya.condition == {"endurance": 3, "half_back": True}  # 3 lost, 1 back (rounded down); the rest's half spent


def test_wounds_bleed_each_round_until_first_aid(api_as, personas, camelot):
    """003, "Wounds": an extreme wound bleeds a Fatigue every turn (a round of about 3 seconds);
    "First Aid": a roll less the worst wound's penalty stops it. The knight's Fatigue falls as the GM
    moves the fight on, until first aid."""
    gm, fight = _joust(api_as, camelot)
    url = f"/api/v1/system-fights/{fight['id']}/actions/"
    _blow(gm, fight["id"], "Sir Gareth", "Puce Knight", first_skill=93, second_skill=72, first_weapon=4,
          second_weapon=3, first_stance="offensive", second_stance="offensive", dice=[82, 44, 30, 20])
    for _ in range(2):  # round 1: Gareth, then the knight
        gm.post(url, {"action": "next"}, format="json")
    body = gm.post(url, {"action": "next"}, format="json").json()  # round 2 begins: the knight bleeds
    assert _lines(_fighter(body, "Puce Knight"))["Fatigue"] == "6 of 15"
    refused = api_as("player").post(url, {"action": "first_aid", "name": "Puce Knight", "skill": 70},
                                    format="json")
    assert refused.status_code == 403
    failed = gm.post(url, {"action": "first_aid", "name": "Puce Knight", "skill": 70, "dice": [55]},
                     format="json").json()  # 70 − 30 = 40: 55 fails
    assert _lines(_fighter(failed, "Puce Knight"))["Bleeding"] == "1 a turn"
    seen = gm.post(url, {"action": "first_aid", "name": "Puce Knight", "skill": 70, "dice": [35]},
                   format="json").json()
    assert _lines(_fighter(seen, "Puce Knight"))["Bleeding"] == "stopped by first aid"
    for _ in range(4):
        body = gm.post(url, {"action": "next"}, format="json").json()
    assert _lines(_fighter(body, "Puce Knight"))["Fatigue"] == "6 of 15"
    from campaign.models import LogEntry
    assert LogEntry.objects.filter(summary__contains="Puce Knight bleeds 1 Fatigue").count() == 1
    assert LogEntry.objects.filter(summary__contains="first aid for Puce Knight: 35 against 40, the bleeding "
                                                     "stops").exists()
